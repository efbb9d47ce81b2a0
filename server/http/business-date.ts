import { BUSINESS_TIME_ZONE, businessDateAt, type IsoDate } from '../../src/domain/calendar-date';

// Flujo's business day is Mexico City's: a quote asked for at 23:30 in Monterrey is still today's quote,
// whatever the server's own time zone is. The rule is src/domain's (the forms' default dates use it too).
export { BUSINESS_TIME_ZONE };

/** The calendar date in Mexico City at `instant`: businessDate(new Date('2026-01-16T05:59:00Z')) === '2026-01-15'. */
export function businessDate(instant: Date): IsoDate {
  return businessDateAt(instant);
}
