import type { Updateable } from 'kysely';
import type { Db } from '../../db/database';
import type { CompaniesTable } from '../../db/schema';

/** The companies holding these RFCs (id, RFC and whether each is a corporate). */
export function findCompaniesByRfc(db: Db, rfcs: readonly string[]) {
  return db.selectFrom('companies').select(['id', 'rfc', 'is_corporate']).where('rfc', 'in', rfcs).execute();
}

/** The company's credit line, what it has used of it, its SPEI balance and whether it has factoring. */
export function findCompanyBalances(db: Db, companyId: number) {
  return db
    .selectFrom('companies')
    .select(['credit_line', 'credit_used', 'spei_balance', 'has_factoring'])
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
}

/** The company's SAT link, locked FOR UPDATE until the transaction ends when asked. */
export function findCompanySatLink(db: Db, companyId: number, options: { lock?: boolean } = {}) {
  let query = db.selectFrom('companies').select(['id', 'rfc', 'sat_status']).where('id', '=', companyId);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirstOrThrow();
}

/** The company holding this RFC, with its SAT link, locked FOR UPDATE until the transaction ends when asked. */
export function findCompanyByRfc(db: Db, rfc: string, options: { lock?: boolean } = {}) {
  let query = db
    .selectFrom('companies')
    .select(['id', 'rfc', 'name', 'sat_status', 'sat_ciec_encrypted'])
    .where('rfc', '=', rfc);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The name of the company holding this RFC, or undefined; reads nothing else (no CIEC). */
export async function findCompanyName(db: Db, rfc: string): Promise<string | undefined> {
  const row = await db.selectFrom('companies').select('name').where('rfc', '=', rfc).executeTakeFirst();
  return row?.name;
}

/** Whether a company other than `companyId` holds the RFC. */
export async function isRfcTakenByAnother(db: Db, rfc: string, companyId: number): Promise<boolean> {
  const owner = await db
    .selectFrom('companies')
    .select('id')
    .where('rfc', '=', rfc)
    .where('id', '<>', companyId)
    .executeTakeFirst();
  return owner !== undefined;
}

export async function updateCompanySatLink(
  db: Db,
  companyId: number,
  values: Pick<
    Updateable<CompaniesTable>,
    'rfc' | 'sat_ciec_encrypted' | 'sat_status' | 'sat_status_changed_at'
  >,
): Promise<void> {
  await db.updateTable('companies').set(values).where('id', '=', companyId).execute();
}

/** RFCs whose SAT link has this status (set at or before `changedBefore`, when given), in company id order. */
export async function rfcsWithSatStatus(
  db: Db,
  satStatus: number,
  options: { changedBefore?: string } = {},
): Promise<string[]> {
  let query = db.selectFrom('companies').select('rfc').where('sat_status', '=', satStatus);
  if (options.changedBefore !== undefined) {
    query = query.where('sat_status_changed_at', '<=', options.changedBefore);
  }
  const rows = await query.where('rfc', 'is not', null).orderBy('id').execute();
  return rows.flatMap((row) => (row.rfc === null ? [] : [row.rfc]));
}
