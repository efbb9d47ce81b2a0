import { describe, expect, it } from 'vitest';
import { PASSWORD_RULES, violatedPasswordRules } from './password-rules';
import { PasswordChange, PasswordReset } from './schemas/session';
import { fieldErrors } from './schemas/validate';

describe('violatedPasswordRules', () => {
  it('reports nothing before anything is typed', () => {
    expect(violatedPasswordRules('')).toEqual([]);
  });
  it('reports a short password', () => {
    expect(violatedPasswordRules('Abc-12')).toEqual(['minLength']);
  });
  it('reports an entirely numeric password', () => {
    expect(violatedPasswordRules('12345678')).toEqual(['notNumeric']);
  });
  it('reports both, in display order', () => {
    expect(violatedPasswordRules('1234')).toEqual(['minLength', 'notNumeric']);
  });
  it('accepts 8 characters that are not all digits (boundary)', () => {
    expect(violatedPasswordRules('1234567a')).toEqual([]);
    expect(violatedPasswordRules('Nueva-Clave-2026!')).toEqual([]);
  });
  it('never reports the rules only the server can check', () => {
    expect(violatedPasswordRules('password')).toEqual([]);
  });
  it('agrees with the forms: a password the list accepts passes the reset and change structs', () => {
    for (const value of ['1234', '12345678', 'abc', 'abcdefgh', '1234567a']) {
      const listOk = violatedPasswordRules(value).length === 0;
      expect(fieldErrors(PasswordReset, { new_password: value, token: 't' }).new_password === undefined).toBe(
        listOk,
      );
      const change = { old_password: 'x', new_password1: value, new_password2: value };
      expect(fieldErrors(PasswordChange, change).new_password1 === undefined).toBe(listOk);
    }
  });
});

describe('PASSWORD_RULES', () => {
  it('lists the four rules of the spec, the first two checked in the browser', () => {
    expect(PASSWORD_RULES.map((rule) => [rule.id, rule.checkedInBrowser])).toEqual([
      ['minLength', true],
      ['notNumeric', true],
      ['notSimilar', false],
      ['notCommon', false],
    ]);
    expect(PASSWORD_RULES[0]!.text).toContain('8 caracteres');
  });
});
