import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  hotp,
  matchTotp,
  newTotpSecret,
  otpauthUri,
  totpCode,
  totpStep,
} from './totp';

// RFC 6238 Appendix B: the SHA-1 seed is the ASCII string "12345678901234567890", 8-digit codes.
const RFC_SECRET = Buffer.from('12345678901234567890', 'ascii');
const RFC_VECTORS: [seconds: number, code: string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238, SHA-1)', () => {
  it.each(RFC_VECTORS)('gives the published code at T=%i', (seconds, code) => {
    const at = new Date(seconds * 1000);
    expect(totpCode(RFC_SECRET, at, 8)).toBe(code);
    // Six digits are the last six of the same value.
    expect(totpCode(RFC_SECRET, at)).toBe(code.slice(2));
  });

  it('matches RFC 4226 Appendix D HOTP values', () => {
    expect([0, 1, 2, 9].map((counter) => hotp(RFC_SECRET, counter))).toEqual([
      '755224',
      '287082',
      '359152',
      '520489',
    ]);
  });

  it('accepts the previous, current and next step, and nothing further', () => {
    const at = new Date(1111111111 * 1000);
    const step = totpStep(at);
    for (const delta of [-1, 0, 1]) {
      expect(matchTotp(RFC_SECRET, hotp(RFC_SECRET, step + delta), at, null)).toBe(step + delta);
    }
    expect(matchTotp(RFC_SECRET, hotp(RFC_SECRET, step - 2), at, null)).toBeNull();
    expect(matchTotp(RFC_SECRET, hotp(RFC_SECRET, step + 2), at, null)).toBeNull();
  });

  it('refuses a step already used, and any earlier one', () => {
    const at = new Date(1234567890 * 1000);
    const step = totpStep(at);
    const code = hotp(RFC_SECRET, step);
    expect(matchTotp(RFC_SECRET, code, at, step)).toBeNull();
    expect(matchTotp(RFC_SECRET, hotp(RFC_SECRET, step - 1), at, step - 1)).toBeNull();
    expect(matchTotp(RFC_SECRET, hotp(RFC_SECRET, step + 1), at, step)).toBe(step + 1);
  });

  it('refuses anything but six digits', () => {
    const at = new Date(59 * 1000);
    for (const code of ['', '28708', '2870822', 'abcdef', ' 287082']) {
      expect(matchTotp(RFC_SECRET, code, at, null)).toBeNull();
    }
  });

  it('round-trips base32 (RFC 4648 vectors) and builds the otpauth URI', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('mzxw 6ytb oi==').toString()).toBe('foobar');
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
    const uri = new URL(otpauthUri(secret, 'ana.operadora'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('Flujo');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Flujo:ana.operadora');
  });
});
