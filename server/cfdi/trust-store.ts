import { X509Certificate } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The certificates Flujo trusts to prove a CFDI: the authorities that issue CSDs (SAT's CAs; in development
 * also the demo authority) and SAT's stamping certificates, found by the TFD's NoCertificadoSAT.
 */
export interface TrustStore {
  authorities: X509Certificate[];
  stampingCertificates: Map<string, X509Certificate>;
}

const CERTIFICATE_FILE = /\.(pem|crt|cer|der)$/i;
const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;
/** A trust directory holds a handful of certificates; anything bigger is not one. */
const MAX_CERTIFICATE_FILE_BYTES = 1024 * 1024;

export class TrustStoreError extends Error {}

/** Reads every certificate file in these directories (PEM, possibly several per file, or DER). */
export function loadTrustStore(directories: readonly string[]): TrustStore {
  const certificates: X509Certificate[] = [];
  for (const directory of directories) {
    if (!existsSync(directory)) throw new TrustStoreError(`trust directory ${directory} does not exist`);
    for (const name of readdirSync(directory).sort()) {
      const path = join(directory, name);
      if (!CERTIFICATE_FILE.test(name) || !statSync(path).isFile()) continue;
      if (statSync(path).size > MAX_CERTIFICATE_FILE_BYTES) {
        throw new TrustStoreError(`${path} is too large to be a certificate`);
      }
      certificates.push(...readCertificates(path));
    }
  }
  return trustStoreOf(certificates);
}

export function trustStoreOf(certificates: readonly X509Certificate[]): TrustStore {
  return {
    authorities: certificates.filter((certificate) => certificate.ca),
    stampingCertificates: new Map(
      certificates
        .filter((certificate) => !certificate.ca)
        .map((certificate) => [certificateNumber(certificate), certificate]),
    ),
  };
}

function readCertificates(path: string): X509Certificate[] {
  const bytes = readFileSync(path);
  const text = bytes.toString('latin1');
  try {
    const blocks = text.match(PEM_BLOCK);
    return blocks ? blocks.map((block) => new X509Certificate(block)) : [new X509Certificate(bytes)];
  } catch {
    throw new TrustStoreError(`${path} is not a PEM or DER certificate`);
  }
}

/**
 * The 20-digit number SAT prints for a certificate (NoCertificado): its serial's bytes read as ASCII digits.
 * A serial that is not ASCII digits gives its hexadecimal form, which never equals a NoCertificado.
 */
export function certificateNumber(certificate: X509Certificate): string {
  const hex =
    certificate.serialNumber.length % 2 === 0 ? certificate.serialNumber : `0${certificate.serialNumber}`;
  const ascii = Buffer.from(hex, 'hex').toString('latin1');
  return /^[0-9]+$/.test(ascii) ? ascii : certificate.serialNumber;
}
