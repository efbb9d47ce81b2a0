import { sql } from 'kysely';
import type { Db } from '../../db/database';

// NOTE: jsonb refuses U+0000 and unpaired surrogates, which a refusal quoting the caller's input may hold (a 500
// found by test/api/openapi-fuzz.test.ts); they are stored as U+FFFD, as the drivers store them in text columns.
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is exactly what must not reach jsonb.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function storableJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'string' ? item.replace(UNSTORABLE, '\ufffd') : item,
  );
}

export interface IdempotencyKeyClaim {
  userId: number;
  key: string;
  method: string;
  path: string;
  requestHash: string;
}

/**
 * INSERT … ON CONFLICT DO NOTHING: true when this call claimed the key, false when it was already there. On
 * PostgreSQL a second claim of an uncommitted key blocks until the first transaction ends.
 */
export async function claimIdempotencyKey(trx: Db, claim: IdempotencyKeyClaim): Promise<boolean> {
  const claimed = await trx
    .insertInto('idempotency_keys')
    .values({
      user_id: claim.userId,
      key: claim.key,
      method: claim.method,
      path: claim.path,
      request_hash: claim.requestHash,
    })
    .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  return claimed !== undefined;
}

export async function storeIdempotentResponse(
  trx: Db,
  userId: number,
  key: string,
  response: { statusCode: number; body: unknown },
): Promise<void> {
  await trx
    .updateTable('idempotency_keys')
    .set({
      response_status: response.statusCode,
      // Through text, so pg and PGlite store the same JSON (pg would turn a JS array into a PG array).
      response_body: sql`cast(${storableJson(response.body ?? null)} as text)::jsonb`,
    })
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .execute();
}

export function findIdempotencyKey(db: Db, userId: number, key: string) {
  return db
    .selectFrom('idempotency_keys')
    .select(['method', 'path', 'request_hash', 'response_status', 'response_body'])
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
}

/** Deletes the keys created before `cutoff`; how many there were. */
export async function deleteIdempotencyKeysBefore(db: Db, cutoff: Date): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', cutoff.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
