import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// The CIEC opens the taxpayer's whole SAT portal (research: mexico-receivables-domain §2.6), so it is
// stored only encrypted: AES-256-GCM, a fresh 96-bit nonce per value, and the company id as associated
// data, so a ciphertext copied onto another company's row does not decrypt.
const ALGORITHM = 'aes-256-gcm';
const FORMAT_VERSION = 'v1';
/** NOTE: 96-bit IVs are GCM's recommended size (NIST SP 800-38D §8.2). */
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const SAT_KEY_BYTES = 32;

export class CiecDecryptionError extends Error {
  constructor() {
    super(
      'La CIEC almacenada no se puede descifrar: la clave SAT_ENCRYPTION_KEY no corresponde o el dato fue alterado.',
    );
  }
}

function associatedData(companyId: number): Buffer {
  return Buffer.from(`flujo/ciec/company:${companyId}`, 'utf8');
}

function assertKey(key: Buffer): void {
  if (key.length !== SAT_KEY_BYTES) throw new Error(`The SAT encryption key must be ${SAT_KEY_BYTES} bytes`);
}

/** 'v1.<iv>.<tag>.<ciphertext>' in base64url, bound to the company. */
export function encryptCiec(ciec: string, key: Buffer, companyId: number): string {
  assertKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData(companyId));
  const ciphertext = Buffer.concat([cipher.update(ciec, 'utf8'), cipher.final()]);
  return [FORMAT_VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The CIEC back; throws CiecDecryptionError for a wrong key, another company's value or any tampering. */
export function decryptCiec(stored: string, key: Buffer, companyId: number): string {
  assertKey(key);
  const [version, iv, tag, ciphertext, ...rest] = stored.split('.');
  if (version !== FORMAT_VERSION || !iv || !tag || ciphertext === undefined || rest.length > 0) {
    throw new CiecDecryptionError();
  }
  try {
    const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, 'base64url'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(associatedData(companyId));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new CiecDecryptionError();
  }
}
