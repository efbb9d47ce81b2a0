import { createHash, randomInt } from 'node:crypto';
import { base32Decode } from '../auth/totp';
import { decryptBound, encryptBound } from '../sat/ciec-crypto';

// An operator's TOTP secret is sealed like the CIEC (AES-256-GCM under SAT_ENCRYPTION_KEY), bound to the user,
// so a copy on another operator's row does not open; recovery codes are stored only as their SHA-256 (each
// carries 50 random bits and works once, so a slow hash adds nothing a lockout does not).

export const RECOVERY_CODE_COUNT = 10;
// Unambiguous letters and digits (no 0/O, 1/I/L): codes are read off paper.
const RECOVERY_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
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

/** Ten codes such as 'K7M2Q-XR9TD', shown once at enrolment. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from(
      { length: RECOVERY_GROUP * 2 },
      () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)],
    ).join('');
    return `${chars.slice(0, RECOVERY_GROUP)}-${chars.slice(RECOVERY_GROUP)}`;
  });
}

/** The stored form of a recovery code, already normalised (upper case, no dashes or spaces). */
export function recoveryCodeHash(normalized: string): string {
  return createHash('sha256').update(`flujo-recovery:${normalized}`).digest('hex');
}
