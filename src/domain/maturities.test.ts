import { describe, expect, it } from 'vitest';
import {
  agingBucket,
  batchOfReference,
  collectionReference,
  daysPastDue,
  dueOn,
  freezesOn,
  moratoryInterest,
} from './maturities';

describe('maturities', () => {
  it('an advance falls due on its payment date, moved to the next business day', () => {
    expect(dueOn('2026-12-01', '2026-11-10')).toBe('2026-12-01');
    expect(dueOn('2026-11-28', '2026-11-10')).toBe('2026-11-30'); // Saturday
    expect(dueOn('2026-11-16', '2026-11-10')).toBe('2026-11-17'); // movable Monday
    expect(dueOn(null, '2026-11-10')).toBe('2026-11-10');
  });

  it('a reference carries its batch and a check digit; a mistyped one names no batch', () => {
    expect(collectionReference(42)).toBe('0000422');
    expect(batchOfReference('0000422')).toBe(42);
    expect(batchOfReference(' 0000422 ')).toBe(42);
    expect(batchOfReference('0000423')).toBeNull();
    expect(batchOfReference('0000242')).toBeNull();
    expect(batchOfReference('000042')).toBeNull();
    expect(batchOfReference('ABC0426')).toBeNull();
    expect(() => collectionReference(0)).toThrow();
    expect(() => collectionReference(1_000_000)).toThrow();
  });

  it('ages an invoice by calendar days past its due date', () => {
    expect(daysPastDue('2026-11-17', '2026-11-17')).toBe(0);
    expect(agingBucket('2026-11-17', '2026-11-10')).toBe('al_corriente');
    expect(agingBucket('2026-11-17', '2026-11-17')).toBe('al_corriente');
    expect(agingBucket('2026-11-17', '2026-11-18')).toBe('1_30');
    expect(agingBucket('2026-11-17', '2026-12-17')).toBe('1_30');
    expect(agingBucket('2026-11-17', '2026-12-18')).toBe('31_60');
    expect(agingBucket('2026-11-17', '2027-01-16')).toBe('31_60');
    expect(agingBucket('2026-11-17', '2027-01-17')).toBe('61_90');
    expect(agingBucket('2026-11-17', '2027-02-15')).toBe('61_90');
    expect(agingBucket('2026-11-17', '2027-02-16')).toBe('mas_de_90');
  });

  it('freezes the day after due date plus grace', () => {
    expect(freezesOn('2026-11-17', 3)).toBe('2026-11-21');
    expect(freezesOn('2026-12-30', 0)).toBe('2026-12-31');
    expect(freezesOn('2026-12-30', 5)).toBe('2027-01-05');
  });

  it('computes moratory interest per day late at the annual rate on 360 days', () => {
    expect(moratoryInterest(1_000_000, '36', 10)).toBe(10_000);
    expect(moratoryInterest(1_000_000, '36', 0)).toBe(0);
    expect(moratoryInterest(0, '36', 10)).toBe(0);
    expect(moratoryInterest(123_457, '18.5', 7)).toBe(444);
  });
});
