import { createHmac, hkdfSync, randomInt } from 'node:crypto';
import { decryptBound, encryptBound } from '../../crypto/bound-cipher';
import { base32Decode } from '../auth/totp';

// An operator's TOTP secret is sealed like the CIEC (AES-256-GCM under SAT_ENCRYPTION_KEY), bound to the user,
// so a copy on another operator's row does not open. Recovery codes carry ~99 random bits and are stored as an
// HMAC under a key derived from SAT_ENCRYPTION_KEY: a copy of the table alone cannot be swept offline, and a
// slow hash would add nothing at that entropy (decision 0060).

export const RECOVERY_CODE_COUNT = 10;
// Unambiguous letters and digits (no 0/O, 1/I/L): codes are read off paper.
const RECOVERY_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
// Four groups of five: 20 · log2(31) ≈ 99 bits, above ASVS's 80 for a lookup secret.
const RECOVERY_GROUPS = 4;
const RECOVERY_GROUP = 5;

const context = (userId: number): string => `flujo/totp/user:${userId}`;

export class TotpSecretError extends Error {
  constructor() {
    super('The stored TOTP secret does not open: SAT_ENCRYPTION_KEY changed or the value was altered');
  }
}

export function sealTotpSecret(base32Secret: string, key: Buffer, userId: number): string {
  return encryptBound(base32Secret, key, context(userId));
}

/** The secret's bytes; throws TotpSecretError (a 500: the server's key, not the caller, is wrong). */
export function openTotpSecret(stored: string, key: Buffer, userId: number): Buffer {
  const secret = decryptBound(stored, key, context(userId));
  if (secret === null) throw new TotpSecretError();
  return base32Decode(secret);
}

/** Ten codes such as 'K7M2Q-XR9TD-4HWPA-N3C8E', shown once at enrolment. */
export function newRecoveryCodes(): string[] {
  const symbol = () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  const group = () => Array.from({ length: RECOVERY_GROUP }, symbol).join('');
  return Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from({ length: RECOVERY_GROUPS }, group).join('-'),
  );
}

/** The HMAC key of recovery codes: its own key, derived from the server's secret key (never the key itself). */
function recoveryCodeKey(secretKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), 'flujo/recovery-codes', 32));
}

/** The stored form of a recovery code, already normalised (upper case, no dashes or spaces). */
export function recoveryCodeHash(normalized: string, secretKey: Buffer): string {
  return createHmac('sha256', recoveryCodeKey(secretKey)).update(normalized).digest('hex');
}
