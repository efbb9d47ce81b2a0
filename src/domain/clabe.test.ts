import { describe, expect, it } from 'vitest';
import { checkClabe, clabeCheckDigit, maskClabe } from './clabe';

describe('checkClabe', () => {
  it('accepts valid CLABEs and names the bank', () => {
    expect(checkClabe('002010077777777771')).toEqual({
      ok: true,
      clabe: '002010077777777771',
      bankCode: '002',
      bankName: 'BANAMEX',
    });
    expect(checkClabe('012180026050783858')).toMatchObject({
      ok: true,
      bankCode: '012',
      bankName: 'BBVA MEXICO',
    });
    expect(checkClabe(' 002 010 07777777777 1 ')).toMatchObject({ ok: true, clabe: '002010077777777771' });
  });

  it('computes the check digit with weights 3, 7, 1', () => {
    expect(clabeCheckDigit('00201007777777777')).toBe('1');
    expect(clabeCheckDigit('01218002605078385')).toBe('8');
  });

  it('rejects a wrong check digit', () => {
    expect(checkClabe('002010077777777772')).toEqual({
      ok: false,
      reason: 'El dígito verificador de la CLABE no es válido',
    });
    expect(checkClabe('012180026050783859').ok).toBe(false);
  });

  it('rejects empty and wrong-length input', () => {
    expect(checkClabe('')).toEqual({ ok: false, reason: 'La CLABE es obligatoria' });
    expect(checkClabe('00201007777777777')).toEqual({ ok: false, reason: 'La CLABE debe tener 18 dígitos' });
    expect(checkClabe('00201007777777777A').ok).toBe(false);
  });

  it('accepts an unknown bank code without a name', () => {
    const first17 = '99918002605078385';
    const check = checkClabe(first17 + clabeCheckDigit(first17));
    expect(check).toMatchObject({ ok: true, bankCode: '999' });
    expect(check.ok && check.bankName).toBeUndefined();
  });
});

describe('maskClabe', () => {
  it('keeps the bank and the last four digits', () => {
    expect(maskClabe('012180001234567897')).toBe('BBVA MEXICO •••• 7897');
    expect(maskClabe('999180001234561234')).toBe('999 •••• 1234');
  });
});
