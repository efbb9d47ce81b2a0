import { describe, expect, it } from 'vitest';
import {
  daysBetween,
  displayDate,
  displayDateTime,
  displayMonthFirstDate,
  isIsoDate,
  parseDisplayDate,
  parseIsoDate,
  parseMonthFirstDate,
  requireIsoDate,
} from './calendar-date';

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
    expect(daysBetween('2028-02-28', '2028-03-01')).toBe(2);
    expect(daysBetween('0099-12-31', '0100-01-01')).toBe(1);
  });

  it('daysBetween refuses a date that is not a real YYYY-MM-DD day', () => {
    expect(() => daysBetween('2026-02-30', '2026-03-01')).toThrow('start date');
    expect(() => daysBetween('2026-03-01', '2026-3-1')).toThrow('end date');
  });

  it('requireIsoDate returns the date, or throws naming what was wrong', () => {
    expect(requireIsoDate('2028-02-29').format('YYYY-MM-DD')).toBe('2028-02-29');
    expect(requireIsoDate('2026-12-31', 'today').month()).toBe(11);
    expect(() => requireIsoDate('2026-02-29', 'payment date')).toThrow(
      'Invalid payment date, expected YYYY-MM-DD: "2026-02-29"',
    );
    expect(() => requireIsoDate('31/12/2026')).toThrow('Invalid date, expected YYYY-MM-DD: "31/12/2026"');
    expect(() => requireIsoDate('')).toThrow();
  });

  it('parseDisplayDate reads a typed DD/MM/YYYY date, and nothing else', () => {
    expect(parseDisplayDate('16/01/2026')).toBe('2026-01-16');
    expect(parseDisplayDate(' 29/02/2028 ')).toBe('2028-02-29');
    expect(parseDisplayDate('31/02/2026')).toBeNull();
    expect(parseDisplayDate('2026-01-16')).toBeNull();
    expect(parseDisplayDate('1/1/2026')).toBeNull();
    expect(parseDisplayDate(displayDate('2026-12-31'))).toBe('2026-12-31');
  });

  it('shows and reads the bulk panel date month first', () => {
    expect(displayMonthFirstDate('2026-01-16')).toBe('01/16/2026');
    expect(parseMonthFirstDate('01/16/2026')).toBe('2026-01-16');
    expect(parseMonthFirstDate('16/01/2026')).toBeNull();
    expect(parseMonthFirstDate('02/30/2026')).toBeNull();
  });
});

describe('displayDateTime', () => {
  it('shows an instant in Mexico City time, DD/MM/YYYY HH:mm', () => {
    expect(displayDateTime('2026-11-28T16:42:00Z')).toBe('28/11/2026 10:42');
    expect(displayDateTime('2026-01-01T05:59:00Z')).toBe('31/12/2025 23:59');
  });
});
