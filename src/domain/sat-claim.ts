/**
 * A SAT link sent but not yet approved is a claim on an RFC, not ownership (issue 31): several accounts may
 * claim one RFC, the first SAT authorizes holds it, and a claim nobody approves lapses after this many days.
 */
export const SAT_CLAIM_LIFETIME_DAYS = 7;

const DAY_MS = 24 * 60 * 60 * 1000;

/** A claim made at or before this instant has lapsed, seen from `now`. */
export function satClaimExpiryCutoff(now: Date): Date {
  return new Date(now.getTime() - SAT_CLAIM_LIFETIME_DAYS * DAY_MS);
}
