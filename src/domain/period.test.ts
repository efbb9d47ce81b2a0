import { describe, expect, it } from 'vitest';
import {
  isInPeriods,
  isPeriodCode,
  monthsAgo,
  PERIOD_CODES,
  PERIOD_OPTIONS,
  Period,
  periodMonth,
  periodsToRanges,
  periodToDateRange,
} from './period';

describe('period filter', () => {
  it('maps codes to months back', () => {
    expect(PERIOD_CODES).toEqual([10, 20, 30, 40, 50]);
    expect(PERIOD_CODES.map(monthsAgo)).toEqual([0, 1, 2, 3, 4]);
    expect(PERIOD_OPTIONS.map((o) => o.label)).toEqual([
      'Mes actual',
      'Mes pasado',
      'Hace dos meses',
      'Hace tres meses',
      'Hace cuatro meses',
    ]);
    expect(isPeriodCode(50)).toBe(true);
    expect(isPeriodCode(60)).toBe(false);
  });

  it('crosses a year boundary: today 2027-01-15', () => {
    const today = '2027-01-15';
    expect(periodMonth(Period.CURRENT_MONTH, today)).toBe('2027-01');
    expect(periodMonth(Period.PAST_MONTH, today)).toBe('2026-12');
    expect(periodMonth(Period.FOUR_MONTHS_AGO, today)).toBe('2026-09');
    expect(periodToDateRange(Period.FOUR_MONTHS_AGO, today)).toEqual({
      from: '2026-09-01',
      to: '2026-09-30',
    });
    expect(periodToDateRange(Period.PAST_MONTH, today)).toEqual({ from: '2026-12-01', to: '2026-12-31' });
  });

  it('handles month ends and February', () => {
    expect(periodToDateRange(Period.PAST_MONTH, '2026-03-31')).toEqual({
      from: '2026-02-01',
      to: '2026-02-28',
    });
    expect(periodToDateRange(Period.PAST_MONTH, '2028-03-31')).toEqual({
      from: '2028-02-01',
      to: '2028-02-29',
    });
    expect(periodToDateRange(Period.CURRENT_MONTH, '2026-05-01')).toEqual({
      from: '2026-05-01',
      to: '2026-05-31',
    });
  });

  it('turns several periods into ranges, newest first, without duplicates', () => {
    expect(
      periodsToRanges([Period.THREE_MONTHS_AGO, Period.CURRENT_MONTH, Period.CURRENT_MONTH], '2027-01-15'),
    ).toEqual([
      { from: '2027-01-01', to: '2027-01-31' },
      { from: '2026-10-01', to: '2026-10-31' },
    ]);
    expect(periodsToRanges([], '2027-01-15')).toEqual([]);
  });

  it('filters dates', () => {
    expect(isInPeriods('2026-12-31', [Period.PAST_MONTH], '2027-01-15')).toBe(true);
    expect(isInPeriods('2027-01-01', [Period.PAST_MONTH], '2027-01-15')).toBe(false);
    expect(isInPeriods('2020-01-01', [], '2027-01-15')).toBe(true);
  });

  it('rejects a bad today', () => {
    expect(() => periodMonth(Period.CURRENT_MONTH, '2027-13-01')).toThrow();
  });
});
