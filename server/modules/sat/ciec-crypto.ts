import { decryptBound, encryptBound } from '../../crypto/bound-cipher';

// The CIEC opens the taxpayer's whole SAT portal (research: mexico-receivables-domain §2.6), so it is
// stored only encrypted (server/crypto/bound-cipher.ts), with the company id as associated data, so a
// ciphertext copied onto another company's row does not decrypt.

export class CiecDecryptionError extends Error {
  constructor() {
    super(
      'La CIEC almacenada no se puede descifrar: la clave SAT_ENCRYPTION_KEY no corresponde o el dato fue alterado.',
    );
  }
}

function associatedData(companyId: number): string {
  return `flujo/ciec/company:${companyId}`;
}

/** The CIEC, bound to its company. */
export function encryptCiec(ciec: string, key: Buffer, companyId: number): string {
  return encryptBound(ciec, key, associatedData(companyId));
}

/** The CIEC back; throws CiecDecryptionError for a wrong key, another company's value or any tampering. */
export function decryptCiec(stored: string, key: Buffer, companyId: number): string {
  const ciec = decryptBound(stored, key, associatedData(companyId));
  if (ciec === null) throw new CiecDecryptionError();
  return ciec;
}
