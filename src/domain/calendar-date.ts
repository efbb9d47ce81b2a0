import dayjs, { type Dayjs } from 'dayjs';

/** Calendar dates travel as 'YYYY-MM-DD' (API, DB, forms); see spec §7 and §9. */
export type IsoDate = string;

export const ISO_DATE_FORMAT = 'YYYY-MM-DD';
export const ISO_MONTH_FORMAT = 'YYYY-MM';

const ISO_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Parses a 'YYYY-MM-DD' string strictly: returns null for any other shape and for
 * impossible days such as 2026-02-30 (which dayjs alone would roll over to March).
 */
export function parseIsoDate(text: string): Dayjs | null {
  if (!ISO_DATE_PATTERN.test(text)) return null;
  const date = dayjs(text);
  // Round-tripping catches the overflow dayjs does for days past the month's end.
  return date.isValid() && date.format(ISO_DATE_FORMAT) === text ? date : null;
}

/** True when `value` is a string holding a real calendar date as 'YYYY-MM-DD'. */
export function isIsoDate(value: unknown): value is IsoDate {
  return typeof value === 'string' && parseIsoDate(value) !== null;
}

/** Parses a 'YYYY-MM-DD' string or throws; for dates that come from our own code or database. */
export function requireIsoDate(text: string, what = 'date'): Dayjs {
  const date = parseIsoDate(text);
  if (date === null) throw new Error(`Invalid ${what}, expected YYYY-MM-DD: "${text}"`);
  return date;
}

/**
 * Whole calendar days from `from` to `to` (negative when `to` is earlier).
 * Example: daysBetween('2026-01-31', '2026-03-01') === 29.
 */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  // Day numbers in UTC, which has no DST: exact, and cheap enough for every row of every list (issue 35).
  return utcDayNumber(to, 'end date') - utcDayNumber(from, 'start date');
}

const MS_PER_DAY = 86_400_000;

/** Days since 1970-01-01 of a strict 'YYYY-MM-DD' date; throws like requireIsoDate on anything else. */
function utcDayNumber(text: string, what: string): number {
  const invalid = () => new Error(`Invalid ${what}, expected YYYY-MM-DD: "${text}"`);
  if (!ISO_DATE_PATTERN.test(text)) throw invalid();
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(5, 7)) - 1;
  const day = Number(text.slice(8, 10));
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  date.setUTCFullYear(year, month, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month || date.getUTCDate() !== day)
    throw invalid();
  return date.getTime() / MS_PER_DAY;
}

/** Spec §9: dates are shown DD/MM/YYYY (as a dayjs pattern, for a date picker). */
export const DISPLAY_DATE_FORMAT = 'DD/MM/YYYY';
/** Instants: the date as above and the 24-hour time. */
export const DISPLAY_DATE_TIME_FORMAT = `${DISPLAY_DATE_FORMAT} HH:mm`;

/**
 * How dates are shown to people, 'DD/MM/YYYY' (spec §9), in messages written on either side.
 * Example: displayDate('2026-01-16') === '16/01/2026'.
 */
export function displayDate(isoDate: IsoDate): string {
  const [year, month, day] = isoDate.split('-');
  return `${day}/${month}/${year}`;
}

// NOTE: Flujo's business time is Mexico City's (Zona Centro, no DST since 2022), wherever the server runs.
export const BUSINESS_TIME_ZONE = 'America/Mexico_City';

/**
 * Made on first use, not when the module loads: the first formatter with a time zone loads the zone data,
 * 20-30 ms that every signed-in page spent evaluating its first chunk (decision 0026).
 */
function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => {
    made ??= make();
    return made;
  };
}

const dateTimeInZone = onFirstUse(
  () =>
    new Intl.DateTimeFormat('en-CA', {
      timeZone: BUSINESS_TIME_ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }),
);

// en-CA formats dates as YYYY-MM-DD.
const isoDateInZone = onFirstUse(
  () =>
    new Intl.DateTimeFormat('en-CA', {
      timeZone: BUSINESS_TIME_ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }),
);

/**
 * The business date (Mexico City's calendar day) at an instant, on either side: the server's today and a form's
 * default date agree whatever the machine's time zone.
 * Example: businessDateAt(new Date('2026-01-16T05:59:00Z')) === '2026-01-15'.
 */
export function businessDateAt(instant: Date): IsoDate {
  return isoDateInZone().format(instant);
}

/**
 * An instant as people read it, Mexico City time 'DD/MM/YYYY HH:mm'.
 * Example: displayDateTime('2026-11-28T16:42:00Z') === '28/11/2026 10:42'.
 */
export function displayDateTime(instant: string | Date): string {
  const parts = Object.fromEntries(
    dateTimeInZone()
      .formatToParts(new Date(instant))
      .map((part) => [part.type, part.value]),
  );
  return `${parts.day}/${parts.month}/${parts.year} ${parts.hour}:${parts.minute}`;
}

/**
 * The inverse of displayDate for what a person types: a real calendar date written exactly 'DD/MM/YYYY'
 * becomes its ISO date; anything else (another layout, 31/02/2026) is null.
 * Example: parseDisplayDate('16/01/2026') === '2026-01-16'.
 */
export function parseDisplayDate(text: string): IsoDate | null {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text.trim());
  if (!match) return null;
  const isoDate = `${match[3]}-${match[2]}-${match[1]}`;
  return parseIsoDate(isoDate) ? isoDate : null;
}

/**
 * The bulk-authorization panel shows its date month first, 'MM/DD/YYYY' (spec §2, §9).
 * Example: displayMonthFirstDate('2026-01-16') === '01/16/2026'.
 */
export function displayMonthFirstDate(isoDate: IsoDate): string {
  const [year, month, day] = isoDate.split('-');
  return `${month}/${day}/${year}`;
}

/**
 * The inverse of displayMonthFirstDate for what a person types; anything else (02/30/2026) is null.
 * Example: parseMonthFirstDate('01/16/2026') === '2026-01-16'.
 */
export function parseMonthFirstDate(text: string): IsoDate | null {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text.trim());
  if (!match) return null;
  const isoDate = `${match[3]}-${match[1]}-${match[2]}`;
  return parseIsoDate(isoDate) ? isoDate : null;
}
