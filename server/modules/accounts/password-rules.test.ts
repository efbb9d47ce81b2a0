import { describe, expect, it } from 'vitest';
import {
  isCommonPassword,
  isEntirelyNumeric,
  isTooSimilar,
  NEW_PASSWORD_MESSAGES,
  PASSWORD_TOO_LONG,
  passwordProblems,
  quickRatio,
  SIGN_UP_PASSWORD_MESSAGES,
} from './password-rules';

const chars = (text: string) => Array.from(text);

describe("Django's password validators", () => {
  it.each([
    // Values printed by Python 3: difflib.SequenceMatcher(a=a, b=b).quick_ratio()
    ['salinas2024!', 'salinas', 0.7368421052631579],
    ['salinas-ricardo', 'salinas', 0.6363636363636364],
    ['abc', 'abc', 1],
    ['', '', 1],
    ['aab', 'abb', 0.6666666666666666],
    ['villaseñor7', 'villaseñor', 0.9523809523809523],
    ['rosaquintanilla', 'quintanilla.rosa@correo.mx', 0.7317073170731707],
  ])('quickRatio(%j, %j) is difflib quick_ratio %d', (a, b, expected) => {
    expect(quickRatio(chars(a), chars(b))).toBeCloseTo(expected, 12);
  });

  it('compares with each attribute and each of its parts, case-insensitively (max_similarity 0.7)', () => {
    const personal = {
      username: 'ana.torres',
      firstName: 'Ana',
      lastName: 'Torres',
      email: 'ana.t@correo.mx',
    };
    expect(isTooSimilar('Torres2024', personal)).toBe(true);
    expect(isTooSimilar('ANA.TORRES!', personal)).toBe(true);
    expect(isTooSimilar('Nopal-Lunar-2291', personal)).toBe(false);
    expect(isTooSimilar('anything', {})).toBe(false);
  });

  it('skips a short part against a very long password (CVE-2021-45115 bound)', () => {
    // 'ab' is 2 characters; a 30-character password is ≥ 10× longer and 2 < 0.35 × 30.
    expect(isTooSimilar('ab'.repeat(15), { firstName: 'Ab' })).toBe(false);
    expect(isTooSimilar('abc', { firstName: 'Ab' })).toBe(true);
  });

  it('knows common passwords from a real list, ignoring case and surrounding spaces', () => {
    for (const word of [
      'password',
      'QWERTY123',
      ' iloveyou ',
      'sunshine1',
      '12345678',
      'factoraje',
      'Contraseña1',
    ]) {
      expect(isCommonPassword(word)).toBe(true);
    }
    expect(isCommonPassword('Tamarindo-Azul-58')).toBe(false);
  });

  it('treats only digits as entirely numeric', () => {
    expect(isEntirelyNumeric('20260101')).toBe(true);
    expect(isEntirelyNumeric('2026-01-01')).toBe(false);
  });

  it("reports every broken rule in Django's order with the form's wording", () => {
    expect(passwordProblems('1234567', { username: '1234567' }, SIGN_UP_PASSWORD_MESSAGES)).toEqual([
      'La contraseña es demasiado similar a la información personal.',
      'La contraseña debe tener al menos 8 caracteres',
      'La contraseña es demasiado común.',
      'La contraseña no puede ser completamente numérica.',
    ]);
    expect(passwordProblems('7391', {}, NEW_PASSWORD_MESSAGES)).toEqual([
      'Su contraseña es muy corta. Debe contener al menos 8 caracteres.',
      'Su contraseña no puede ser completamente numérica.',
    ]);
    expect(passwordProblems('Tamarindo-Azul-58', { username: 'mariana' }, SIGN_UP_PASSWORD_MESSAGES)).toEqual(
      [],
    );
    expect(passwordProblems('x'.repeat(1025), {}, SIGN_UP_PASSWORD_MESSAGES)).toEqual([PASSWORD_TOO_LONG]);
  });
});
