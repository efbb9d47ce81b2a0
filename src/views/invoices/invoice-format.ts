import dayjs from 'dayjs';
import { DISPLAY_DATE_TIME_FORMAT, displayDate, parseIsoDate } from '../../domain/calendar-date';
import { formatCurrency, parseMoney } from '../../domain/money';

/** '2026-01-16' → '16/01/2026'; null or an unreadable date → '—'. */
export function formatDisplayDate(date: string | null): string {
  if (!date) return '—';
  return parseIsoDate(date) ? displayDate(date) : '—';
}

/** An ISO 8601 instant in the browser's time zone: '2026-01-16T17:05:00Z' → '16/01/2026 11:05' in Mexico City. */
export function formatDisplayDateTime(instant: string): string {
  const parsed = dayjs(instant);
  return parsed.isValid() ? parsed.format(DISPLAY_DATE_TIME_FORMAT) : '—';
}

/** A money amount as the API sends it ('100000.00') in the spec's dollar-style format: '$100,000.00'. */
export function formatAmount(amount: string): string {
  return formatCurrency(parseMoney(amount));
}
