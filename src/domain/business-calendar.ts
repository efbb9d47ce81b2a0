import dayjs from 'dayjs';
import { ISO_DATE_FORMAT, type IsoDate, requireIsoDate } from './calendar-date';

// Mexico's business-day calendar for money (issue 34, decision 0066): a day when SPEI settles. The banks close on
// weekends, on the statutory rest days of the Ley Federal del Trabajo (art. 74) and on the extra days of the
// CNBV's yearly calendar of bank holidays (Holy Thursday and Good Friday, 2 November, 12 December). The table
// below is the one home of these rules; every year is derived from it, and the tests check each rule and the
// CNBV's published calendars of 2025 and 2026 day by day.

/** Where a holiday rule comes from. */
export type HolidaySource = 'LFT art. 74' | 'CNBV';

export interface HolidayRule {
  /** The rule's name as shown to operators. */
  name: string;
  source: HolidaySource;
  /** The source's article, fraction or publication. */
  reference: string;
  /** The day the rule falls on in `year`, or null when it does not apply that year. */
  on(year: number): IsoDate | null;
}

const iso = (year: number, month: number, day: number): IsoDate =>
  `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

/** The `nth` Monday (1-based) of `month` (1-12) in `year`. */
export function nthMonday(year: number, month: number, nth: number): IsoDate {
  const first = dayjs(iso(year, month, 1));
  const offset = (8 - first.day()) % 7; // days from the 1st to its first Monday (day() 1 = Monday)
  return first.add(offset + (nth - 1) * 7, 'day').format(ISO_DATE_FORMAT);
}

/** Easter Sunday (Gregorian computus, Meeus/Jones/Butcher). */
export function easterSunday(year: number): IsoDate {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return iso(year, month, day);
}

const daysBefore = (date: IsoDate, days: number): IsoDate =>
  requireIsoDate(date).subtract(days, 'day').format(ISO_DATE_FORMAT);

/**
 * The rules, in the calendar's order. The movable Mondays are LFT art. 74's since the 2006 reform; 1 October
 * is a rest day every six years, when a new federal executive takes office (2024, 2030, …). The CNBV's
 * calendar (published each December in the DOF for the next year) adds the four bank-only days.
 */
export const HOLIDAY_RULES: readonly HolidayRule[] = [
  { name: 'Año Nuevo', source: 'LFT art. 74', reference: 'fr. I', on: (y) => iso(y, 1, 1) },
  {
    name: 'Día de la Constitución',
    source: 'LFT art. 74',
    reference: 'fr. II: primer lunes de febrero',
    on: (y) => nthMonday(y, 2, 1),
  },
  {
    name: 'Natalicio de Benito Juárez',
    source: 'LFT art. 74',
    reference: 'fr. III: tercer lunes de marzo',
    on: (y) => nthMonday(y, 3, 3),
  },
  {
    name: 'Jueves Santo',
    source: 'CNBV',
    reference: 'Calendario de días inhábiles de la CNBV',
    on: (y) => daysBefore(easterSunday(y), 3),
  },
  {
    name: 'Viernes Santo',
    source: 'CNBV',
    reference: 'Calendario de días inhábiles de la CNBV',
    on: (y) => daysBefore(easterSunday(y), 2),
  },
  { name: 'Día del Trabajo', source: 'LFT art. 74', reference: 'fr. IV', on: (y) => iso(y, 5, 1) },
  { name: 'Día de la Independencia', source: 'LFT art. 74', reference: 'fr. V', on: (y) => iso(y, 9, 16) },
  {
    name: 'Transmisión del Poder Ejecutivo Federal',
    source: 'LFT art. 74',
    reference: 'fr. VII: 1 de octubre de cada seis años',
    on: (y) => ((y - 2024) % 6 === 0 ? iso(y, 10, 1) : null),
  },
  {
    name: 'Día de Muertos',
    source: 'CNBV',
    reference: 'Calendario de días inhábiles de la CNBV',
    on: (y) => iso(y, 11, 2),
  },
  {
    name: 'Día de la Revolución',
    source: 'LFT art. 74',
    reference: 'fr. VI: tercer lunes de noviembre',
    on: (y) => nthMonday(y, 11, 3),
  },
  {
    name: 'Día del Empleado Bancario',
    source: 'CNBV',
    reference: 'Calendario de días inhábiles de la CNBV',
    on: (y) => iso(y, 12, 12),
  },
  { name: 'Navidad', source: 'LFT art. 74', reference: 'fr. VIII', on: (y) => iso(y, 12, 25) },
];

const holidaysByYear = new Map<number, ReadonlyMap<IsoDate, HolidayRule>>();

/** The bank holidays of `year` (weekday or not), each with its rule. */
export function bankHolidays(year: number): ReadonlyMap<IsoDate, HolidayRule> {
  let found = holidaysByYear.get(year);
  if (!found) {
    const map = new Map<IsoDate, HolidayRule>();
    for (const rule of HOLIDAY_RULES) {
      const date = rule.on(year);
      if (date !== null) map.set(date, rule);
    }
    holidaysByYear.set(year, map);
    found = map;
  }
  return found;
}

/** The rule that closes the banks on `date`, or null (a weekend is not a rule: see isBusinessDay). */
export function holidayOn(date: IsoDate): HolidayRule | null {
  return bankHolidays(Number(date.slice(0, 4))).get(date) ?? null;
}

/** A day SPEI settles: Monday to Friday and not a bank holiday. */
export function isBusinessDay(date: IsoDate): boolean {
  const weekday = requireIsoDate(date).day();
  return weekday !== 0 && weekday !== 6 && holidayOn(date) === null;
}

/** `date` itself when it is a business day, otherwise the next one (a due date on a holiday moves forward). */
export function onOrNextBusinessDay(date: IsoDate): IsoDate {
  let day = requireIsoDate(date);
  while (!isBusinessDay(day.format(ISO_DATE_FORMAT))) day = day.add(1, 'day');
  return day.format(ISO_DATE_FORMAT);
}

/**
 * `count` business days after (or, negative, before) `date`.
 * Example: addBusinessDays('2026-11-13', 1) === '2026-11-17' (Monday 16 is the Revolution's day).
 */
export function addBusinessDays(date: IsoDate, count: number): IsoDate {
  const step = count < 0 ? -1 : 1;
  let day = requireIsoDate(date);
  for (let left = Math.abs(count); left > 0; ) {
    day = day.add(step, 'day');
    if (isBusinessDay(day.format(ISO_DATE_FORMAT))) left -= 1;
  }
  return day.format(ISO_DATE_FORMAT);
}
