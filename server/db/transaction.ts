import { sql } from 'kysely';
import type { Db } from './database';

/** Runs fn in a transaction, joining the caller's when there is one (Kysely has no nested transactions). */
export async function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  return db.transaction().execute(fn);
}

/** Marks a point of the transaction that rollbackToSavepoint can return to (the name is ours, never input). */
export async function savepoint(trx: Db, name: string): Promise<void> {
  await sql.raw(`savepoint ${name}`).execute(trx);
}

/** Undoes what the transaction did since the savepoint, keeping what came before it. */
export async function rollbackToSavepoint(trx: Db, name: string): Promise<void> {
  await sql.raw(`rollback to savepoint ${name}`).execute(trx);
}
