import type { CollectionLogBody, CollectionLogEntry } from '../../../src/domain/schemas/delinquency';
import type { Db } from '../../db/database';

// A buyer's collection log (issue 34, decision 0068): the calls, e-mails and payment promises an operator
// records, with who and when. Append-only: a correction is a new entry.

/** Spanish refusals of the collection log (their one home). */
export const COLLECTION_LOG_REFUSALS = {
  corporateNotFound: 'Corporativo no encontrado.',
} as const;

export class CollectionLogError extends Error {
  readonly statusCode = 404;
}

const LOG_LIMIT = 200;

async function requireCorporate(db: Db, corporateId: number): Promise<void> {
  const row = await db
    .selectFrom('companies')
    .select('id')
    .where('id', '=', corporateId)
    .where('is_corporate', '=', true)
    .executeTakeFirst();
  if (!row) throw new CollectionLogError(COLLECTION_LOG_REFUSALS.corporateNotFound);
}

function entries(db: Db) {
  return db
    .selectFrom('collection_log as l')
    .innerJoin('users as u', 'u.id', 'l.recorded_by')
    .select([
      'l.id',
      'l.corporate_id',
      'l.action',
      'l.note',
      'l.promised_on',
      'u.username as recorded_by_username',
      'l.recorded_at',
    ]);
}

type EntryRow = Awaited<ReturnType<ReturnType<typeof entries>['executeTakeFirstOrThrow']>>;

function toEntry(row: EntryRow): CollectionLogEntry {
  return {
    id: row.id,
    corporate_id: row.corporate_id,
    action: row.action,
    note: row.note,
    promised_on: row.promised_on === null ? null : String(row.promised_on).slice(0, 10),
    recorded_by_username: row.recorded_by_username,
    recorded_at: new Date(row.recorded_at).toISOString(),
  };
}

/** The buyer's log, newest first (the latest LOG_LIMIT entries). */
export async function collectionLogOf(db: Db, corporateId: number): Promise<CollectionLogEntry[]> {
  await requireCorporate(db, corporateId);
  const rows = await entries(db)
    .where('l.corporate_id', '=', corporateId)
    .orderBy('l.id', 'desc')
    .limit(LOG_LIMIT)
    .execute();
  return rows.map(toEntry);
}

/** Records one action on the buyer's log. */
export async function addCollectionLogEntry(
  db: Db,
  operatorId: number,
  corporateId: number,
  body: CollectionLogBody,
): Promise<CollectionLogEntry> {
  await requireCorporate(db, corporateId);
  const { id } = await db
    .insertInto('collection_log')
    .values({
      corporate_id: corporateId,
      action: body.action,
      note: body.note?.trim() ?? '',
      promised_on: body.action === 'promesa_de_pago' ? (body.promised_on ?? null) : null,
      recorded_by: operatorId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return toEntry(await entries(db).where('l.id', '=', id).executeTakeFirstOrThrow());
}
