import { describe, expect, it } from 'vitest';
import {
  addBusinessDays,
  bankHolidays,
  easterSunday,
  HOLIDAY_RULES,
  holidayOn,
  isBusinessDay,
  nthMonday,
  onOrNextBusinessDay,
} from './business-calendar';

const ruleNamed = (name: string) => {
  const rule = HOLIDAY_RULES.find((candidate) => candidate.name === name);
  if (!rule) throw new Error(`no rule ${name}`);
  return rule;
};

describe('Mexico’s bank calendar, one test per rule', () => {
  it('fixed days: 1 January, 1 May, 16 September, 25 December (LFT art. 74)', () => {
    expect(ruleNamed('Año Nuevo').on(2027)).toBe('2027-01-01');
    expect(ruleNamed('Día del Trabajo').on(2027)).toBe('2027-05-01');
    expect(ruleNamed('Día de la Independencia').on(2027)).toBe('2027-09-16');
    expect(ruleNamed('Navidad').on(2027)).toBe('2027-12-25');
  });

  it('movable Mondays: first of February, third of March, third of November', () => {
    expect(ruleNamed('Día de la Constitución').on(2026)).toBe('2026-02-02');
    expect(ruleNamed('Natalicio de Benito Juárez').on(2026)).toBe('2026-03-16');
    expect(ruleNamed('Día de la Revolución').on(2026)).toBe('2026-11-16');
    // A month that starts on a Monday counts that Monday as the first.
    expect(nthMonday(2027, 2, 1)).toBe('2027-02-01');
    expect(nthMonday(2027, 3, 3)).toBe('2027-03-15');
  });

  it('1 October only in the years a federal executive takes office (every six years from 2024)', () => {
    const rule = ruleNamed('Transmisión del Poder Ejecutivo Federal');
    expect(rule.on(2024)).toBe('2024-10-01');
    expect(rule.on(2030)).toBe('2030-10-01');
    expect(rule.on(2026)).toBeNull();
  });

  it('Holy Thursday and Good Friday follow Easter (CNBV)', () => {
    expect(easterSunday(2025)).toBe('2025-04-20');
    expect(easterSunday(2026)).toBe('2026-04-05');
    expect(easterSunday(2027)).toBe('2027-03-28');
    expect(ruleNamed('Jueves Santo').on(2026)).toBe('2026-04-02');
    expect(ruleNamed('Viernes Santo').on(2026)).toBe('2026-04-03');
  });

  it('2 November and 12 December close the banks (CNBV), not the LFT', () => {
    expect(holidayOn('2026-11-02')?.source).toBe('CNBV');
    expect(holidayOn('2026-12-12')?.source).toBe('CNBV');
    expect(holidayOn('2026-11-16')?.source).toBe('LFT art. 74');
  });

  it('matches the CNBV’s published calendars of 2025 and 2026 day by day', () => {
    expect([...bankHolidays(2025).keys()].sort()).toEqual([
      '2025-01-01',
      '2025-02-03',
      '2025-03-17',
      '2025-04-17',
      '2025-04-18',
      '2025-05-01',
      '2025-09-16',
      '2025-11-02',
      '2025-11-17',
      '2025-12-12',
      '2025-12-25',
    ]);
    expect([...bankHolidays(2026).keys()].sort()).toEqual([
      '2026-01-01',
      '2026-02-02',
      '2026-03-16',
      '2026-04-02',
      '2026-04-03',
      '2026-05-01',
      '2026-09-16',
      '2026-11-02',
      '2026-11-16',
      '2026-12-12',
      '2026-12-25',
    ]);
  });
});

describe('business days', () => {
  it('weekends and holidays are not business days', () => {
    expect(isBusinessDay('2026-11-28')).toBe(false); // Saturday
    expect(isBusinessDay('2026-11-29')).toBe(false); // Sunday
    expect(isBusinessDay('2026-11-16')).toBe(false); // Revolution's Monday
    expect(isBusinessDay('2026-11-17')).toBe(true);
  });

  it('a date on a Saturday moves to Monday; on a movable Monday to Tuesday; a business day stays', () => {
    expect(onOrNextBusinessDay('2026-11-28')).toBe('2026-11-30');
    expect(onOrNextBusinessDay('2026-11-16')).toBe('2026-11-17');
    expect(onOrNextBusinessDay('2026-11-18')).toBe('2026-11-18');
    // Holy week: Thursday and Friday closed, then the weekend.
    expect(onOrNextBusinessDay('2026-04-02')).toBe('2026-04-06');
    // Christmas 2027 is a Saturday: Monday the 27th.
    expect(onOrNextBusinessDay('2027-12-25')).toBe('2027-12-27');
  });

  it('counts business days forward and back across weekends and holidays', () => {
    expect(addBusinessDays('2026-11-13', 1)).toBe('2026-11-17');
    expect(addBusinessDays('2026-11-20', 5)).toBe('2026-11-27');
    expect(addBusinessDays('2026-11-17', -1)).toBe('2026-11-13');
    expect(addBusinessDays('2026-12-28', -5)).toBe('2026-12-18');
    expect(addBusinessDays('2026-11-18', 0)).toBe('2026-11-18');
  });
});
