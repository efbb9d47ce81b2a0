import { type SqlBool, sql, type Updateable } from 'kysely';
import { SatStatus } from '../../../src/domain/sat-status';
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
  let query = db
    .selectFrom('companies')
    .select(['id', 'rfc', 'sat_status', 'sat_claimed_rfc', 'sat_status_reason'])
    .where('id', '=', companyId);
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

/** A company's id, RFC, name, kind and SAT status, or undefined. */
export function findCompanyById(db: Db, companyId: number) {
  return db
    .selectFrom('companies')
    .select(['id', 'rfc', 'name', 'is_corporate', 'sat_status'])
    .where('id', '=', companyId)
    .executeTakeFirst();
}

/**
 * The name of the company holding this RFC or, when none holds it yet, of its latest claimant (a pending SAT
 * link: the sandbox SAT issues CFDI for the RFC before the link is approved), or undefined. Reads no CIEC.
 */
export async function findCompanyName(db: Db, rfc: string): Promise<string | undefined> {
  const row = await db.selectFrom('companies').select('name').where('rfc', '=', rfc).executeTakeFirst();
  return row?.name ?? (await findLatestClaimant(db, rfc))?.name;
}

/**
 * Whether a company other than `companyId` holds the RFC: its SAT link is authorized, it is a corporate or it
 * has invoices. A pending claim holds nothing (migration 019).
 */
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
    | 'rfc'
    | 'sat_ciec_encrypted'
    | 'sat_status'
    | 'sat_status_changed_at'
    | 'sat_claimed_rfc'
    | 'sat_claimed_at'
    | 'sat_status_reason'
  >,
): Promise<void> {
  await db.updateTable('companies').set(values).where('id', '=', companyId).execute();
}

/** RFCs held by a company whose SAT link has this status, in company id order. */
export async function rfcsWithSatStatus(db: Db, satStatus: number): Promise<string[]> {
  const rows = await db
    .selectFrom('companies')
    .select('rfc')
    .where('sat_status', '=', satStatus)
    .where('rfc', 'is not', null)
    .orderBy('id')
    .execute();
  return rows.flatMap((row) => (row.rfc === null ? [] : [row.rfc]));
}

// --- Pending SAT claims (migration 019): sat_claimed_rfc while sat_status is SENT (10) ---

/** What an operator decision needs of a pending claim. */
export interface PendingClaim {
  id: number;
  rfc: string | null;
  name: string;
  sat_claimed_rfc: string;
}

/** The pending claims of an RFC, oldest first, locked FOR UPDATE until the transaction ends. */
export async function lockPendingClaims(trx: Db, rfc: string): Promise<PendingClaim[]> {
  const rows = await trx
    .selectFrom('companies')
    .select(['id', 'rfc', 'name', 'sat_claimed_rfc'])
    .where('sat_status', '=', SatStatus.SENT)
    .where('sat_claimed_rfc', '=', rfc)
    .orderBy('sat_claimed_at')
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map((row) => ({ ...row, sat_claimed_rfc: rfc }));
}

/** The company that last claimed the RFC, whatever became of its claim, or undefined. */
export function findLatestClaimant(db: Db, rfc: string) {
  return db
    .selectFrom('companies')
    .select(['id', 'name', 'sat_status'])
    .where('sat_claimed_rfc', '=', rfc)
    .orderBy('sat_claimed_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/**
 * RFCs with a live pending claim whose link changed at or before `changedBefore`, ordered by their first
 * claimant's id. Claims made at or before `lapsedAt` are left out: they can no longer be approved.
 */
export async function pendingClaimRfcs(
  db: Db,
  options: { changedBefore: string; lapsedAt: string },
): Promise<string[]> {
  const rows = await db
    .selectFrom('companies')
    .select(['sat_claimed_rfc as rfc', sql<number>`min(id)`.as('first')])
    .where('sat_status', '=', SatStatus.SENT)
    .where('sat_claimed_rfc', 'is not', null)
    .where('sat_status_changed_at', '<=', options.changedBefore)
    .where('sat_claimed_at', '>', options.lapsedAt)
    .groupBy('sat_claimed_rfc')
    .orderBy('first')
    .execute();
  return rows.flatMap((row) => (row.rfc === null ? [] : [row.rfc]));
}

/**
 * Ends, without approval, the pending claims that can no longer win: made at or before `lapsedAt` (reason
 * `lapsed`), or of an RFC another company now holds (reason `taken`). The CIEC goes with them. Scoped to one
 * company or one RFC; one guarded UPDATE each, so it needs no transaction. The ids it ended, per reason.
 */
export async function endStaleClaims(
  db: Db,
  scope: { companyId: number } | { rfc: string },
  change: { at: string; lapsedAt: string; reasons: { lapsed: string; taken: string } },
): Promise<{ lapsed: number[]; taken: number[] }> {
  const ended = (reason: string) =>
    db
      .updateTable('companies')
      .set({
        sat_status: SatStatus.UNAUTHORIZED,
        sat_status_changed_at: change.at,
        sat_status_reason: reason,
        sat_ciec_encrypted: null,
      })
      .where('sat_status', '=', SatStatus.SENT)
      .where((eb) =>
        'companyId' in scope ? eb('id', '=', scope.companyId) : eb('sat_claimed_rfc', '=', scope.rfc),
      );
  const lapsed = await ended(change.reasons.lapsed)
    .where('sat_claimed_at', '<=', change.lapsedAt)
    .returning('id')
    .execute();
  const taken = await ended(change.reasons.taken)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('companies as holder')
          .select('holder.id')
          .whereRef('holder.rfc', '=', 'companies.sat_claimed_rfc')
          .whereRef('holder.id', '<>', 'companies.id'),
      ),
    )
    .returning('id')
    .execute();
  return { lapsed: lapsed.map((row) => row.id), taken: taken.map((row) => row.id) };
}

// --- The factoring line (docs/decisions/0036): credit_line / credit_used, has_factoring, factoring_rate ---

/** The company's factoring line: whether it has one, its rate, what was granted and what is used. */
export function findFactoringLine(db: Db, companyId: number) {
  return db
    .selectFrom('companies')
    .select(['has_factoring', 'factoring_rate', 'credit_line', 'credit_used'])
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
}

/** Grants (or changes) a company's line: has_factoring, credit_line and rate. */
export async function grantFactoringLine(
  trx: Db,
  companyId: number,
  line: { creditLine: string; rate: string },
): Promise<void> {
  await trx
    .updateTable('companies')
    .set({ has_factoring: true, credit_line: line.creditLine, factoring_rate: line.rate })
    .where('id', '=', companyId)
    .execute();
}

/**
 * Holds `amount` on the line if it fits: one guarded UPDATE (credit_used + amount <= credit_line), so two
 * transfers racing for the last of a line cannot both pass. True when held.
 */
export async function holdOnLine(trx: Db, companyId: number, amount: string): Promise<boolean> {
  const row = await trx
    .updateTable('companies')
    .set({ credit_used: sql<string>`credit_used + ${amount}::numeric` })
    .where('id', '=', companyId)
    .where(sql<SqlBool>`credit_used + ${amount}::numeric <= credit_line`)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Frees `amount` of the line (an instalment was paid). */
export async function releaseFromLine(trx: Db, companyId: number, amount: string): Promise<void> {
  await trx
    .updateTable('companies')
    .set({ credit_used: sql<string>`credit_used - ${amount}::numeric` })
    .where('id', '=', companyId)
    .execute();
}

/** The account Flujo deposits a company's advances to (a verified CLABE); false when no company has this RFC. */
export async function setDisbursementClabe(db: Db, rfc: string, clabe: string): Promise<boolean> {
  const result = await db
    .updateTable('companies')
    .set({ disbursement_clabe: clabe })
    .where('rfc', '=', rfc)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
