import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// Secrets stored at rest (the CIEC, the operators' TOTP secrets) are sealed with AES-256-GCM under
// SAT_ENCRYPTION_KEY, a fresh 96-bit nonce per value, and a context as associated data, so a ciphertext copied
// onto another row does not decrypt.
const ALGORITHM = 'aes-256-gcm';
const FORMAT_VERSION = 'v1';
/** NOTE: 96-bit IVs are GCM's recommended size (NIST SP 800-38D §8.2). */
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const SAT_KEY_BYTES = 32;

function assertKey(key: Buffer): void {
  if (key.length !== SAT_KEY_BYTES) throw new Error(`The SAT encryption key must be ${SAT_KEY_BYTES} bytes`);
}

/**
 * 'v1.<iv>.<tag>.<ciphertext>' in base64url, bound to `context` (associated data): a value copied onto another
 * row, whose context differs, does not decrypt. The CIEC and the operators' TOTP secrets share it.
 */
export function encryptBound(text: string, key: Buffer, context: string): string {
  assertKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return [FORMAT_VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The text back; null for a wrong key, another context or any tampering. */
export function decryptBound(stored: string, key: Buffer, context: string): string | null {
  assertKey(key);
  const [version, iv, tag, ciphertext, ...rest] = stored.split('.');
  if (version !== FORMAT_VERSION || !iv || !tag || ciphertext === undefined || rest.length > 0) return null;
  try {
    const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, 'base64url'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return null;
  }
}
