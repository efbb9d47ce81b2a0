import { describe, expect, it } from 'vitest';
import { daysBetween, isIsoDate, parseIsoDate } from './calendar-date';

describe('calendar dates', () => {
  it('parses YYYY-MM-DD strictly', () => {
    expect(parseIsoDate('2026-02-28')?.format('YYYY-MM-DD')).toBe('2026-02-28');
    expect(parseIsoDate('2026-02-29')).toBeNull();
    expect(parseIsoDate('2028-02-29')).not.toBeNull();
    expect(parseIsoDate('2026-02-30')).toBeNull();
    expect(parseIsoDate('2026-13-01')).toBeNull();
    expect(parseIsoDate('2026-00-10')).toBeNull();
    expect(parseIsoDate('20260228')).toBeNull();
    expect(isIsoDate(20260228)).toBe(false);
  });

  it('counts whole calendar days whatever the process time zone (DST changes included)', () => {
    expect(daysBetween('2026-01-31', '2026-03-01')).toBe(29);
    expect(daysBetween('2026-03-01', '2026-11-30')).toBe(274);
    expect(daysBetween('2026-12-31', '2026-01-01')).toBe(-364);
  });
});
