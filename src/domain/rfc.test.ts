import { describe, expect, it } from 'vitest';
import { checkCompanyRfc, checkRfc, rfcCheckDigit } from './rfc';

describe('rfcCheckDigit', () => {
  it.each([
    ['CAMA911215CJ', '0'],
    ['COSC8001137N', 'A'],
    ['SORC591116FJ', '6'],
    ['DIM8701081L', 'A'],
    ['A&A050908GT', '0'],
    ['SAT970701NN', '3'],
    ['GODE561231GR', '8'],
  ])('%s → %s', (body, digit) => {
    expect(rfcCheckDigit(body)).toBe(digit);
  });

  it('rejects wrong lengths and characters', () => {
    expect(() => rfcCheckDigit('ABC')).toThrow();
    expect(() => rfcCheckDigit('CAMA91121$CJ')).toThrow();
  });
});

describe('checkRfc', () => {
  it.each([
    ['CAMA911215CJ0', 'fisica'],
    ['COSC8001137NA', 'fisica'],
    ['SORC591116FJ6', 'fisica'],
    ['DIM8701081LA', 'moral'],
    ['A&A050908GT0', 'moral'],
    ['SAT970701NN3', 'moral'],
    ['GODE561231GR8', 'fisica'],
  ])('accepts %s (%s) with a valid check digit', (rfc, kind) => {
    expect(checkRfc(rfc)).toEqual({ ok: true, rfc, kind, checkDigitValid: true, generic: false });
  });

  it('trims and upper-cases', () => {
    expect(checkRfc('  sat970701nn3 ')).toMatchObject({ ok: true, rfc: 'SAT970701NN3' });
    expect(checkRfc('ñañ010101aa1')).toMatchObject({ ok: true, rfc: 'ÑAÑ010101AA1' });
  });

  it('only warns on a check-digit mismatch (real RFC LME060822IH5)', () => {
    expect(checkRfc('LME060822IH5')).toEqual({
      ok: true,
      rfc: 'LME060822IH5',
      kind: 'moral',
      checkDigitValid: false,
      generic: false,
    });
  });

  it('flags generic RFCs', () => {
    expect(checkRfc('XAXX010101000')).toMatchObject({ ok: true, generic: true, kind: 'fisica' });
    expect(checkRfc('XEXX010101000')).toMatchObject({ ok: true, generic: true });
  });

  it.each([
    ['', 'El RFC es obligatorio'],
    ['SAT97070NN3', 'El RFC no tiene un formato válido'],
    ['SAT9707011NN3', 'El RFC no tiene un formato válido'],
    ['SAT971301NN3', 'El RFC no tiene un formato válido'],
    ['SAT970701NNB', 'El RFC no tiene un formato válido'],
    ['S1T970701NN3', 'El RFC no tiene un formato válido'],
    ['SAT970231NN3', 'La fecha del RFC no es válida'],
  ])('rejects %j', (rfc, reason) => {
    expect(checkRfc(rfc)).toEqual({ ok: false, reason });
  });

  it('accepts 29 February when either century makes it a leap year', () => {
    expect(checkRfc('AAA000229AA1').ok).toBe(true); // 2000
    expect(checkRfc('AAA960229AA1').ok).toBe(true); // 1996
    expect(checkRfc('AAA970229AA1').ok).toBe(false);
  });
});

describe('checkCompanyRfc', () => {
  it('rejects generic RFCs and otherwise behaves like checkRfc', () => {
    expect(checkCompanyRfc('XAXX010101000')).toEqual({
      ok: false,
      reason: 'El RFC genérico no es válido para una empresa',
    });
    expect(checkCompanyRfc('SAT970701NN3')).toMatchObject({ ok: true, generic: false });
  });
});
