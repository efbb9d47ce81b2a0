import { BUSINESS_TIME_ZONE, type IsoDate } from '../../../src/domain/calendar-date';

// Flujo's business day is Mexico City's: a quote asked for at 23:30 in Monterrey is still today's quote,
// whatever the server's own time zone is.
export { BUSINESS_TIME_ZONE };

// en-CA formats dates as YYYY-MM-DD.
const ISO_DATE_IN_ZONE = new Intl.DateTimeFormat('en-CA', {
  timeZone: BUSINESS_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The calendar date in Mexico City at `instant`: businessDate(new Date('2026-01-16T05:59:00Z')) === '2026-01-15'. */
export function businessDate(instant: Date): IsoDate {
  return ISO_DATE_IN_ZONE.format(instant);
}
