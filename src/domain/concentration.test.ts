import { describe, expect, it } from 'vitest';
import {
  type ConcentrationCap,
  capBreach,
  capHolds,
  capRoom,
  capUtilisation,
  ladderBucket,
  shareHundredths,
} from './concentration';

const amountCap: ConcentrationCap = {
  scope: 'buyer',
  subject: 'Grupo Alfa',
  kind: 'amount',
  value: 1_000_00,
};
const percentCap: ConcentrationCap = { scope: 'group', subject: 'Alfa', kind: 'percent', value: 2500 };

describe('concentration caps', () => {
  it('holds an amount cap up to the amount, exactly', () => {
    expect(capHolds(amountCap, { exposure: 800_00, total: 10_000_00, advance: 200_00 })).toBe(true);
    expect(capHolds(amountCap, { exposure: 800_00, total: 10_000_00, advance: 200_01 })).toBe(false);
  });

  it('counts the advance in both the exposure and the total for a percentage cap', () => {
    // (100 + 33.33) / (400 + 33.33) = 30.77 % > 25 %; (100 + 0) / 400 = 25 % holds.
    expect(capHolds(percentCap, { exposure: 100_00, total: 400_00, advance: 0 })).toBe(true);
    expect(capHolds(percentCap, { exposure: 100_00, total: 400_00, advance: 1 })).toBe(false);
    // (0 + 100) / (300 + 100) = 25 %: exactly the cap.
    expect(capHolds(percentCap, { exposure: 0, total: 300_00, advance: 100_00 })).toBe(true);
    expect(capHolds(percentCap, { exposure: 0, total: 300_00, advance: 100_01 })).toBe(false);
  });

  it('refuses any first advance under a percentage cap below 100 % on an empty book', () => {
    expect(capHolds(percentCap, { exposure: 0, total: 0, advance: 1 })).toBe(false);
    expect(capHolds(percentCap, { exposure: 0, total: 0, advance: 0 })).toBe(true);
  });

  it('agrees with the room it reports: the room holds, one centavo more does not', () => {
    for (const [exposure, total] of [
      [0, 300_00],
      [50_00, 1_000_00],
      [123_45, 98_765_43],
    ] as const) {
      const room = capRoom(percentCap, exposure, total);
      expect(capHolds(percentCap, { exposure, total, advance: room })).toBe(true);
      expect(capHolds(percentCap, { exposure, total, advance: room + 1 })).toBe(false);
    }
    expect(capRoom(amountCap, 999_00, 0)).toBe(1_00);
    expect(capRoom(amountCap, 2_000_00, 0)).toBe(0);
  });

  it('stays exact with amounts whose products pass 2^53', () => {
    const big = 90_000_000_000_000; // 900 mil millones de pesos
    expect(capHolds({ kind: 'percent', value: 5000 }, { exposure: 0, total: big, advance: big })).toBe(true);
    expect(capHolds({ kind: 'percent', value: 4999 }, { exposure: 0, total: big, advance: big })).toBe(false);
  });

  it('names the cap, its limit and where the exposure would go, in Spanish', () => {
    expect(capBreach(amountCap, { exposure: 800_00, total: 10_000_00, advance: 400_00 })).toBe(
      'Se rebasaría el tope de concentración del comprador «Grupo Alfa» (máximo $1,000.00 MXN): su exposición pasaría a $1,200.00 MXN.',
    );
    expect(capBreach(percentCap, { exposure: 100_00, total: 300_00, advance: 100_00 })).toBe(
      'Se rebasaría el tope de concentración del grupo económico «Alfa» (máximo 25.00 % de la exposición total): su exposición pasaría a 50.00 % del total ($200.00 MXN).',
    );
    expect(capBreach(amountCap, { exposure: 0, total: 0, advance: 1_000_00 })).toBeNull();
  });

  it('reports utilisation and share', () => {
    expect(shareHundredths(250_00, 1_000_00)).toBe(2500);
    expect(shareHundredths(1, 0)).toBe(0);
    expect(capUtilisation(amountCap, 500_00, 0)).toBe(50);
    expect(capUtilisation(percentCap, 125_00, 1_000_00)).toBe(50);
    expect(capUtilisation(amountCap, 1_500_00, 0)).toBe(150);
  });
});

describe('the maturity ladder', () => {
  it('puts each due date on its rung, the rung ends inclusive', () => {
    expect([-1, 0, 7, 8, 30, 31, 60, 61, 90, 91].map(ladderBucket)).toEqual([
      'vencido',
      'd7',
      'd7',
      'd30',
      'd30',
      'd60',
      'd60',
      'd90',
      'd90',
      'mas_de_90',
    ]);
  });
});
