import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// NOTE: RFC 6238 (TOTP) over RFC 4226 (HOTP) with the parameters every authenticator app assumes when an
// otpauth URI names none: HMAC-SHA-1, 6 digits, 30-second steps, T0 = 0.
export const TOTP_DIGITS = 6;
export const TOTP_STEP_SECONDS = 30;
/** Steps accepted either side of the current one (clock drift between phone and server). */
export const TOTP_WINDOW_STEPS = 1;
/** NOTE: RFC 4226 §4 R6 recommends 160-bit shared secrets. */
const SECRET_BYTES = 20;
export const TOTP_ISSUER = 'Flujo';

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding (what otpauth URIs carry). */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32_ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** Base32 back to bytes; spaces, padding and case are forgiven (people copy secrets by hand). */
export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=]/g, '');
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32_ALPHABET.indexOf(char);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 4226 HOTP value of `counter`, `digits` long with leading zeros. */
export function hotp(secret: Uint8Array, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The TOTP time step of an instant. */
export function totpStep(at: Date): number {
  return Math.floor(at.getTime() / 1000 / TOTP_STEP_SECONDS);
}

/** The code an authenticator shows at `at`. */
export function totpCode(secret: Uint8Array, at: Date, digits = TOTP_DIGITS): string {
  return hotp(secret, totpStep(at), digits);
}

/**
 * The step a code matches within ±TOTP_WINDOW_STEPS of `at`, or null. A step at or before `lastUsedStep` is
 * refused, so a code (or an older one) works once even inside its window (RFC 6238 §5.2).
 */
export function matchTotp(
  secret: Uint8Array,
  code: string,
  at: Date,
  lastUsedStep: number | null,
): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const current = totpStep(at);
  const given = Buffer.from(code);
  for (let step = current - TOTP_WINDOW_STEPS; step <= current + TOTP_WINDOW_STEPS; step++) {
    if (lastUsedStep !== null && step <= lastUsedStep) continue;
    if (timingSafeEqual(Buffer.from(hotp(secret, step)), given)) return step;
  }
  return null;
}

/** A new random secret, base32 (what the otpauth URI and the authenticator app take). */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(SECRET_BYTES));
}

/** The enrolment URI an authenticator app reads (Google's Key Uri Format). */
export function otpauthUri(secret: string, account: string): string {
  const label = encodeURIComponent(`${TOTP_ISSUER}:${account}`);
  const query = new URLSearchParams({
    secret,
    issuer: TOTP_ISSUER,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
