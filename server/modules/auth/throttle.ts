import { createHash } from 'node:crypto';
import type { Db } from '../../db/database';
import type { Clock } from './clock';
import { TooManyAttemptsError } from './http-errors';
import {
  countHitsSince,
  deleteBucketHits,
  deleteHits,
  deleteHitsBefore,
  insertHits,
  lockThrottleBucket,
} from './throttle.repository';

/** At most `limit` hits per `windowMinutes` (sliding window) in one bucket. */
export interface ThrottleRule {
  limit: number;
  windowMinutes: number;
}

// Hits older than the longest window are useless; the throttle-prune job deletes them (server/jobs).
const RETENTION_MINUTES = 24 * 60;

/** The hits one take() recorded, so a success can give them back. */
export interface ThrottleTicket {
  readonly hitIds: readonly number[];
}

export interface Throttle {
  /**
   * Counts one attempt in every bucket, or none: throws TooManyAttemptsError (429) when any bucket is
   * full. Check and record are one step, so parallel attempts cannot all slip under the limit.
   */
  take(
    buckets: ReadonlyArray<readonly [bucket: string, rule: ThrottleRule]>,
    /** Buckets that only count (never refuse): recorded with the others, given back with them. */
    counted?: readonly string[],
  ): Promise<ThrottleTicket>;
  /** Hits of a bucket in the last `windowMinutes`, without recording one (a soft limit's reading). */
  count(bucket: string, windowMinutes: number): Promise<number>;
  /** Gives back a take's hits (an attempt that turned out fine must not count against the caller). */
  refund(ticket: ThrottleTicket): Promise<void>;
  /** Forgets a bucket (a successful login clears the username's failures). */
  clear(bucket: string): Promise<void>;
}

/**
 * Buckets are strings such as 'login:user:ana'; they are stored as their SHA-256, so a username of any
 * length or content fits the index. (Not a privacy measure: a known username or address hashes the same.)
 */
function storedKey(bucket: string): string {
  return createHash('sha256').update(bucket).digest('hex');
}

/**
 * Throttles kept in PostgreSQL (table throttle_hits), so every API process behind a proxy shares them
 * and a restart does not reset them.
 */
export function createThrottle(db: Db, now: Clock): Throttle {
  return {
    async take(buckets, counted = []) {
      const at = now();
      // Sorted keys: two takes that share buckets lock them in the same order and cannot deadlock.
      const keyed = buckets
        .map(([bucket, rule]) => ({ key: storedKey(bucket), rule }))
        .sort((a, b) => a.key.localeCompare(b.key));
      const hitIds = await db.transaction().execute(async (trx) => {
        let retryAfter = 0;
        for (const { key, rule } of keyed) {
          await lockThrottleBucket(trx, key);
          const since = new Date(at.getTime() - rule.windowMinutes * 60_000);
          const row = await countHitsSince(trx, key, since);
          if (row.hits >= rule.limit) {
            // The window frees a slot when its oldest hit leaves it (approximation: ≥ 1 s).
            const oldest = row.oldest ? new Date(row.oldest).getTime() : at.getTime();
            const frees = oldest + rule.windowMinutes * 60_000 - at.getTime();
            retryAfter = Math.max(retryAfter, Math.ceil(frees / 1000), 1);
          }
        }
        if (retryAfter > 0) throw new TooManyAttemptsError(retryAfter);
        const keys = [...keyed.map(({ key }) => key), ...counted.map(storedKey)];
        if (keys.length === 0) return [];
        return insertHits(trx, keys, at);
      });
      return { hitIds };
    },
    async count(bucket, windowMinutes) {
      const since = new Date(now().getTime() - windowMinutes * 60_000);
      return (await countHitsSince(db, storedKey(bucket), since)).hits;
    },
    async refund(ticket) {
      if (ticket.hitIds.length === 0) return;
      await deleteHits(db, ticket.hitIds);
    },
    async clear(bucket) {
      await deleteBucketHits(db, storedKey(bucket));
    },
  };
}

/** The throttle-prune job: deletes hits older than the longest window. */
export async function pruneThrottleHits(db: Db, now: Date): Promise<void> {
  await deleteHitsBefore(db, new Date(now.getTime() - RETENTION_MINUTES * 60_000));
}
