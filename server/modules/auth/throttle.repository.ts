import { sql } from 'kysely';
import type { Db } from '../../db/database';

/** Serialises the takes of one bucket until the transaction ends (a transaction-level advisory lock). */
export async function lockThrottleBucket(trx: Db, bucket: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${bucket}, 0))`.execute(trx);
}

/** How many hits the bucket has after `since`, and the oldest of them (null when none). */
export async function countHitsSince(
  db: Db,
  bucket: string,
  since: Date,
): Promise<{ hits: number; oldest: string | null }> {
  const row = await db
    .selectFrom('throttle_hits')
    .select([(eb) => eb.fn.countAll<number>().as('hits'), (eb) => eb.fn.min('at').as('oldest')])
    .where('bucket', '=', bucket)
    .where('at', '>', since.toISOString())
    .executeTakeFirstOrThrow();
  return { hits: Number(row.hits), oldest: row.oldest };
}

/** One hit per bucket at `at`; their ids, in insertion order. */
export async function insertHits(db: Db, buckets: readonly string[], at: Date): Promise<number[]> {
  const inserted = await db
    .insertInto('throttle_hits')
    .values(buckets.map((bucket) => ({ bucket, at: at.toISOString() })))
    .returning('id')
    .execute();
  return inserted.map((row) => Number(row.id));
}

export async function deleteHitsBefore(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('throttle_hits').where('at', '<', before.toISOString()).execute();
}

export async function deleteHits(db: Db, ids: readonly number[]): Promise<void> {
  await db
    .deleteFrom('throttle_hits')
    .where('id', 'in', [...ids])
    .execute();
}

export async function deleteBucketHits(db: Db, bucket: string): Promise<void> {
  await db.deleteFrom('throttle_hits').where('bucket', '=', bucket).execute();
}
