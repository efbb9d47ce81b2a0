import type { Db } from '../../db/database';
import type { Clock } from './clock';
import { TooManyAttemptsError } from './http-errors';

/** At most `limit` hits per `windowMinutes` (sliding window) in one bucket. */
export interface ThrottleRule {
  limit: number;
  windowMinutes: number;
}

// Hits older than the longest window are useless; they are pruned as new ones arrive.
const RETENTION_MINUTES = 24 * 60;

export interface Throttle {
  /** Throws TooManyAttemptsError (429) when any bucket is full; records nothing. */
  check(buckets: ReadonlyArray<readonly [bucket: string, rule: ThrottleRule]>): Promise<void>;
  /** Records one hit in each bucket. */
  hit(buckets: readonly string[]): Promise<void>;
  /** Forgets a bucket (a successful login clears the username's failures). */
  clear(bucket: string): Promise<void>;
}

/**
 * Throttles kept in PostgreSQL (table throttle_hits), so every API process behind a proxy shares them
 * and a restart does not reset them. Buckets are strings such as 'login:user:ana' or 'login:ip:10.0.0.1'.
 */
export function createThrottle(db: Db, now: Clock): Throttle {
  return {
    async check(buckets) {
      const at = now();
      let retryAfter = 0;
      for (const [bucket, rule] of buckets) {
        const since = new Date(at.getTime() - rule.windowMinutes * 60_000);
        const row = await db
          .selectFrom('throttle_hits')
          .select([(eb) => eb.fn.countAll<number>().as('hits'), (eb) => eb.fn.min('at').as('oldest')])
          .where('bucket', '=', bucket)
          .where('at', '>', since.toISOString())
          .executeTakeFirstOrThrow();
        if (Number(row.hits) >= rule.limit) {
          // The window frees a slot when its oldest hit leaves it (approximation: ≥ 1 s).
          const oldest = row.oldest ? new Date(row.oldest).getTime() : at.getTime();
          const frees = oldest + rule.windowMinutes * 60_000 - at.getTime();
          retryAfter = Math.max(retryAfter, Math.ceil(frees / 1000), 1);
        }
      }
      if (retryAfter > 0) throw new TooManyAttemptsError(retryAfter);
    },
    async hit(buckets) {
      if (buckets.length === 0) return;
      const at = now();
      await db
        .insertInto('throttle_hits')
        .values(buckets.map((bucket) => ({ bucket, at: at.toISOString() })))
        .execute();
      await db
        .deleteFrom('throttle_hits')
        .where('at', '<', new Date(at.getTime() - RETENTION_MINUTES * 60_000).toISOString())
        .execute();
    },
    async clear(bucket) {
      await db.deleteFrom('throttle_hits').where('bucket', '=', bucket).execute();
    },
  };
}
