import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { normalizeRecoveryCode } from './operator-login.service';
import { newRecoveryCodes, recoveryCodeHash } from './operator-secrets';

// Issue 31: a recovery code is a lookup secret (ASVS 6.6): at least 80 random bits, and a copy of the table
// alone must not be enough to find the codes (decision 0060).
describe('operator recovery codes', () => {
  it('each carries at least 80 bits: its length times log2 of the symbols codes are drawn from', () => {
    const codes = Array.from({ length: 40 }, () => newRecoveryCodes()).flat();
    expect(new Set(codes).size).toBe(codes.length);
    const symbols = new Set(codes.flatMap((code) => [...normalizeRecoveryCode(code)]));
    for (const code of codes) {
      expect(normalizeRecoveryCode(code).length * Math.log2(symbols.size)).toBeGreaterThanOrEqual(80);
    }
  });

  it('is stored as a keyed hash: not its SHA-256, and different under another server key', () => {
    const code = normalizeRecoveryCode(newRecoveryCodes()[0]!);
    const key = randomBytes(32);
    const stored = recoveryCodeHash(code, key);
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(stored).not.toBe(sha256(code));
    expect(stored).not.toBe(sha256(`flujo-recovery:${code}`));
    expect(recoveryCodeHash(code, key)).toBe(stored);
    expect(recoveryCodeHash(code, randomBytes(32))).not.toBe(stored);
  });
});
