import { ISO_DATE_FORMAT, ISO_MONTH_FORMAT, type IsoDate, requireIsoDate } from './calendar-date';

/** Period-of-issue filter codes (spec §4): a calendar month counted back from today's. */
export const Period = {
  CURRENT_MONTH: 10,
  PAST_MONTH: 20,
  TWO_MONTHS_AGO: 30,
  THREE_MONTHS_AGO: 40,
  FOUR_MONTHS_AGO: 50,
} as const;

export type PeriodName = keyof typeof Period;
export type PeriodCode = (typeof Period)[PeriodName];

export const PERIOD_CODES: readonly PeriodCode[] = Object.values(Period);

export const PERIOD_LABELS: Readonly<Record<PeriodCode, string>> = {
  [Period.CURRENT_MONTH]: 'Mes actual',
  [Period.PAST_MONTH]: 'Mes pasado',
  [Period.TWO_MONTHS_AGO]: 'Hace dos meses',
  [Period.THREE_MONTHS_AGO]: 'Hace tres meses',
  [Period.FOUR_MONTHS_AGO]: 'Hace cuatro meses',
};

export const PERIOD_OPTIONS: readonly { value: PeriodCode; label: string }[] = PERIOD_CODES.map((value) => ({
  value,
  label: PERIOD_LABELS[value],
}));

/** Inclusive range of calendar dates, 'YYYY-MM-DD'. */
export type DateRange = { from: IsoDate; to: IsoDate };

// Codes step by 10 per month back: 10 → 0, 20 → 1, … 50 → 4.
const PERIOD_STEP = 10;

/** True for one of the five period codes. */
export function isPeriodCode(value: unknown): value is PeriodCode {
  return typeof value === 'number' && (PERIOD_CODES as readonly number[]).includes(value);
}

/** How many months before today's month a period is: monthsAgo(Period.PAST_MONTH) === 1. */
export function monthsAgo(period: PeriodCode): number {
  return period / PERIOD_STEP - 1;
}

function periodStart(period: PeriodCode, today: IsoDate) {
  if (!isPeriodCode(period)) throw new Error(`Unknown period code: ${period}`);
  return requireIsoDate(today, 'today').startOf('month').subtract(monthsAgo(period), 'month');
}

/** The month a period stands for: periodMonth(Period.FOUR_MONTHS_AGO, '2027-01-15') === '2026-09'. */
export function periodMonth(period: PeriodCode, today: IsoDate): string {
  return periodStart(period, today).format(ISO_MONTH_FORMAT);
}

/**
 * First and last day of the period's month.
 * Example: periodToDateRange(Period.PAST_MONTH, '2026-03-31') → { from: '2026-02-01', to: '2026-02-28' }.
 */
export function periodToDateRange(period: PeriodCode, today: IsoDate): DateRange {
  const start = periodStart(period, today);
  return { from: start.format(ISO_DATE_FORMAT), to: start.endOf('month').format(ISO_DATE_FORMAT) };
}

/** Ranges for several periods, newest month first, duplicates dropped. An empty list means all months. */
export function periodsToRanges(periods: readonly PeriodCode[], today: IsoDate): DateRange[] {
  return [...new Set(periods)].sort((a, b) => a - b).map((period) => periodToDateRange(period, today));
}

/** True when an emission date falls in any of the periods (or periods is empty: all months). */
export function isInPeriods(date: IsoDate, periods: readonly PeriodCode[], today: IsoDate): boolean {
  if (periods.length === 0) return true;
  return periodsToRanges(periods, today).some((range) => date >= range.from && date <= range.to);
}
