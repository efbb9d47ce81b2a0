import type { Db } from './database';

/** Runs fn in a transaction, joining the caller's when there is one (Kysely has no nested transactions). */
export async function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  return db.transaction().execute(fn);
}
