import { sql } from 'kysely';
import type { Db } from '../../db/database';

// The operator's alliances (decision 0053): the price and pending columns of `alliances` and the price history
// in `alliance_prices`. The SAT sync's default alliances stay with modules/invoices/alliance.repository.ts.

export interface AllianceTerms {
  annualRate: string;
  maxRate: string;
  maxDays: number;
  maxAmount: string | null;
}

const LOCKED_COLUMNS = ['id', 'is_active', 'pending', 'annual_rate', 'max_days', 'max_amount'] as const;

/** The pair's alliance with a known supplier, locked FOR UPDATE until the transaction ends. */
export function lockAllianceByProvider(trx: Db, corporateId: number, providerId: number) {
  return trx
    .selectFrom('alliances')
    .select(LOCKED_COLUMNS)
    .where('corporate_id', '=', corporateId)
    .where('provider_id', '=', providerId)
    .forUpdate()
    .executeTakeFirst();
}

/** The pair's pending alliance with a supplier RFC, locked FOR UPDATE until the transaction ends. */
export function lockPendingAlliance(trx: Db, corporateId: number, providerRfc: string) {
  return trx
    .selectFrom('alliances')
    .select(LOCKED_COLUMNS)
    .where('corporate_id', '=', corporateId)
    .where('provider_rfc', '=', providerRfc)
    .where('pending', '=', true)
    .forUpdate()
    .executeTakeFirst();
}

function termColumns(terms: AllianceTerms) {
  return {
    annual_rate: terms.annualRate,
    max_rate: terms.maxRate,
    max_days: terms.maxDays,
    max_amount: terms.maxAmount,
  };
}

/** A new alliance: active with a supplier company, or pending on an RFC (provider null). Its id. */
export async function insertAlliance(
  trx: Db,
  alliance: { corporateId: number; providerId: number | null; providerRfc: string; terms: AllianceTerms },
): Promise<number> {
  const pending = alliance.providerId === null;
  const row = await trx
    .insertInto('alliances')
    .values({
      corporate_id: alliance.corporateId,
      provider_id: alliance.providerId,
      provider_rfc: alliance.providerRfc,
      pending,
      is_active: !pending,
      ...termColumns(alliance.terms),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Sets an alliance's current price; `activateFor` also binds a pending one to its supplier and activates it. */
export async function updateAllianceTerms(
  trx: Db,
  allianceId: number,
  terms: AllianceTerms,
  activateFor?: number,
): Promise<void> {
  await trx
    .updateTable('alliances')
    .set({
      ...termColumns(terms),
      ...(activateFor === undefined ? {} : { provider_id: activateFor, pending: false, is_active: true }),
    })
    .where('id', '=', allianceId)
    .execute();
}

/**
 * Pauses every active alliance of these suppliers (is_active false: no new quotation or advance reads it; an
 * operator resumes one by setting its price again, which activates it). The paused rows.
 */
export async function deactivateProviderAlliances(
  trx: Db,
  providerIds: readonly number[],
): Promise<{ id: number; provider_id: number }[]> {
  if (providerIds.length === 0) return [];
  return trx
    .updateTable('alliances')
    .set({ is_active: false })
    .where('provider_id', 'in', providerIds)
    .where('is_active', '=', true)
    .returning(['id', 'provider_id'])
    .$narrowType<{ provider_id: number }>()
    .execute();
}

/** Appends a price to the alliance's history, effective from `at`. */
export async function insertAlliancePrice(
  trx: Db,
  price: { allianceId: number; terms: AllianceTerms; at: string; setBy: number | null },
): Promise<void> {
  await trx
    .insertInto('alliance_prices')
    .values({
      alliance_id: price.allianceId,
      ...termColumns(price.terms),
      effective_from: price.at,
      set_by: price.setBy,
    })
    .execute();
}

export interface PendingAllianceRow {
  id: number;
  corporate_id: number;
  corporate_name: string;
  corporate_rfc: string | null;
  annual_rate: string | null;
  max_days: number | null;
}

/**
 * Binds every pending alliance on this RFC to the supplier company and activates it, unless the pair already
 * has an alliance (that one keeps its price; the pending one stays for the operator to see). The activated rows.
 */
export async function activatePendingAlliances(
  trx: Db,
  supplier: { companyId: number; rfc: string },
): Promise<PendingAllianceRow[]> {
  const rows = await trx
    .updateTable('alliances as a')
    .set({ provider_id: supplier.companyId, pending: false, is_active: true })
    .from('companies as c')
    .whereRef('c.id', '=', 'a.corporate_id')
    .where('a.pending', '=', true)
    .where('a.provider_rfc', '=', supplier.rfc)
    .where('a.corporate_id', '<>', supplier.companyId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('alliances as other')
            .select('other.id')
            .whereRef('other.corporate_id', '=', 'a.corporate_id')
            .where('other.provider_id', '=', supplier.companyId),
        ),
      ),
    )
    .returning([
      'a.id',
      'a.corporate_id',
      'c.name as corporate_name',
      'c.rfc as corporate_rfc',
      'a.annual_rate',
      'a.max_days',
    ])
    .execute();
  return rows;
}

/** The supplier's open alliance requests for this client RFC become 'allied'; how many. */
export async function markAllianceRequestsAllied(
  trx: Db,
  providerId: number,
  clientRfc: string,
): Promise<number> {
  const result = await trx
    .updateTable('alliance_requests')
    .set({ status: 'allied' })
    .where('provider_id', '=', providerId)
    .where('client_rfc', '=', clientRfc)
    .where('status', '=', 'requested')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export interface AllianceListFilter {
  corporateId?: number;
  state?: 'activa' | 'pendiente' | 'inactiva';
}

export interface AllianceListRow {
  id: number;
  corporate_id: number;
  corporate_name: string;
  provider_id: number | null;
  provider_rfc: string;
  provider_name: string | null;
  annual_rate: string | null;
  max_rate: string;
  max_days: number | null;
  max_amount: string | null;
  is_active: boolean;
  pending: boolean;
  created_at: string;
}

function filtered(db: Db, filter: AllianceListFilter) {
  let query = db.selectFrom('alliances as a');
  if (filter.corporateId !== undefined) query = query.where('a.corporate_id', '=', filter.corporateId);
  if (filter.state === 'pendiente') query = query.where('a.pending', '=', true);
  if (filter.state === 'activa') query = query.where('a.is_active', '=', true);
  if (filter.state === 'inactiva')
    query = query.where('a.is_active', '=', false).where('a.pending', '=', false);
  return query;
}

function withColumns(query: ReturnType<typeof filtered>) {
  return query
    .innerJoin('companies as corp', 'corp.id', 'a.corporate_id')
    .leftJoin('companies as prov', 'prov.id', 'a.provider_id')
    .select([
      'a.id',
      'a.corporate_id',
      'corp.name as corporate_name',
      'a.provider_id',
      // An alliance made before migration 011 has no provider_rfc: its supplier's RFC is the company's.
      sql<string>`coalesce(prov.rfc, a.provider_rfc, '')`.as('provider_rfc'),
      'prov.name as provider_name',
      'a.annual_rate',
      'a.max_rate',
      'a.max_days',
      'a.max_amount',
      'a.is_active',
      'a.pending',
      'a.created_at',
    ]);
}

/** One page of alliances, newest first, with the count of every match. */
export async function findAlliancePage(
  db: Db,
  filter: AllianceListFilter,
  page: { limit: number; offset: number },
): Promise<{ count: number; rows: AllianceListRow[] }> {
  const [total, rows] = await Promise.all([
    filtered(db, filter).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    withColumns(filtered(db, filter)).orderBy('a.id', 'desc').limit(page.limit).offset(page.offset).execute(),
  ]);
  return { count: Number(total.n), rows };
}

export function findAllianceById(db: Db, id: number): Promise<AllianceListRow | undefined> {
  return withColumns(db.selectFrom('alliances as a')).where('a.id', '=', id).executeTakeFirst();
}

export interface AlliancePriceRow {
  annual_rate: string | null;
  max_rate: string;
  max_days: number | null;
  max_amount: string | null;
  effective_from: string;
  set_by: string | null;
}

/** An alliance's prices, newest first, with who set each. */
export function findAlliancePrices(db: Db, allianceId: number): Promise<AlliancePriceRow[]> {
  return db
    .selectFrom('alliance_prices as p')
    .leftJoin('users as u', 'u.id', 'p.set_by')
    .select([
      'p.annual_rate',
      'p.max_rate',
      'p.max_days',
      'p.max_amount',
      'p.effective_from',
      'u.username as set_by',
    ])
    .where('p.alliance_id', '=', allianceId)
    .orderBy('p.effective_from', 'desc')
    .orderBy('p.id', 'desc')
    .execute();
}
