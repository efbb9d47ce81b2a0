import type { Infer } from 'superstruct';
import { AUDIT_RANGE_MESSAGES, MAX_AUDIT_RANGE_DAYS } from '../audit-trail';
import { daysBetween, isIsoDate } from '../calendar-date';
import { crossFieldRule, payload, requiredDate } from './fields';

// GET providers/audit-trail/ and corporates/audit-trail/ (decision 0044): the query string of the export.

/**
 * ?from=YYYY-MM-DD&to=YYYY-MM-DD, both days included, in Mexico City's calendar: `to` not before `from` and at
 * most MAX_AUDIT_RANGE_DAYS days in all; the range's problems are reported on `to`.
 */
export const AuditTrailQuery = crossFieldRule(
  payload({
    from: requiredDate(AUDIT_RANGE_MESSAGES.fromRequired, AUDIT_RANGE_MESSAGES.invalid),
    to: requiredDate(AUDIT_RANGE_MESSAGES.toRequired, AUDIT_RANGE_MESSAGES.invalid),
  }),
  ({ from, to }) => {
    if (!isIsoDate(from) || !isIsoDate(to)) return null;
    const days = daysBetween(from, to);
    if (days < 0) return { field: 'to', message: AUDIT_RANGE_MESSAGES.toBeforeFrom };
    return days + 1 > MAX_AUDIT_RANGE_DAYS ? { field: 'to', message: AUDIT_RANGE_MESSAGES.tooLong } : null;
  },
);
export type AuditTrailQuery = Infer<typeof AuditTrailQuery>;
