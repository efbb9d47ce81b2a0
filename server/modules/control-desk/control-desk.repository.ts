import { sql } from 'kysely';
import type { DeskState } from '../../../src/domain/control-desk';
import { InvoiceStatus } from '../../../src/domain/invoice-status';
import type { Db } from '../../db/database';
import type { ProgrammeState, ProofState } from '../../db/schema';

// All SQL of the control desk and its SPEI batches (decision 0054).

/**
 * The desk state of an invoice, derived: an invoice En trámite with no desk row is queued, and so is one
 * whose last decision was a rejection (the provider asked again); otherwise the desk row's state.
 */
const DESK_STATE = sql<DeskState>`case
  when d.invoice_id is null then 'queued'
  when d.state = 'rejected' and i.status = ${InvoiceStatus.PROCESS} then 'queued'
  else d.state end`;

export interface DeskRow {
  invoice_id: number;
  cfdi_uuid: string;
  serie: string | null;
  folio: string | null;
  status: number;
  emitter_company_id: number;
  receiver_company_id: number;
  emitter_name: string;
  emitter_rfc: string;
  receiver_name: string;
  receiver_rfc: string;
  date_of_emission: string;
  payment_date: string | null;
  amount_with_exchange_rate: string;
  /** The CFDI's own amount, currency ('MXN', 'USD'…) and TipoCambio (null for pesos). */
  amount: string;
  currency: string;
  exchange_rate: string | null;
  /** The advance's saved quote (null for an invoice put in process without one, the demo's). */
  cost_financing: string | null;
  cost_consultancy: string | null;
  sat_cancelled_at: string | null;
  proof_state: ProofState;
  desk_state: DeskState;
  /** The stored desk row's state (null while queued with no row). */
  stored_state: DeskState | null;
  reason: string | null;
  decided_by_username: string | null;
  forced_checks: string[] | null;
}

function deskQuery(db: Db) {
  return db
    .selectFrom('invoices as i')
    .leftJoin('desk_items as d', 'd.invoice_id', 'i.id')
    .where((eb) => eb.or([eb('i.status', '=', InvoiceStatus.PROCESS), eb('d.invoice_id', 'is not', null)]));
}

const DESK_COLUMNS = [
  'i.id as invoice_id',
  'i.cfdi_uuid',
  'i.serie',
  'i.folio',
  'i.status',
  'i.emitter_company_id',
  'i.receiver_company_id',
  'i.emitter_name',
  'i.emitter_rfc',
  'i.receiver_name',
  'i.receiver_rfc',
  'i.date_of_emission',
  'i.payment_date',
  'i.amount_with_exchange_rate',
  'i.amount',
  'i.currency',
  'i.exchange_rate',
  'i.cost_financing',
  'i.cost_consultancy',
  'i.sat_cancelled_at',
  'i.proof_state',
  'd.state as stored_state',
  'd.reason',
  'd.decided_by_username',
  'd.forced_checks',
] as const;

/** One page of the desk, oldest advance first, optionally of one state. */
export async function listDeskRows(
  db: Db,
  query: { state: DeskState | null; page: number; pageSize: number },
): Promise<{ count: number; rows: DeskRow[] }> {
  const base = query.state === null ? deskQuery(db) : deskQuery(db).where(DESK_STATE, '=', query.state);
  const [{ count } = { count: 0 }] = await base
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .execute()
    .then((rows) => rows.map((row) => ({ count: Number(row.count) })));
  const rows = await base
    .select([...DESK_COLUMNS, DESK_STATE.as('desk_state')])
    .orderBy('i.id')
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  return { count, rows: rows as DeskRow[] };
}

/** One desk item; `lock` locks the invoice row (the lifecycle's lock order: invoice first). */
export async function findDeskRow(db: Db, invoiceId: number, options: { lock?: boolean } = {}) {
  let query = deskQuery(db)
    .select([...DESK_COLUMNS, DESK_STATE.as('desk_state')])
    .where('i.id', '=', invoiceId);
  if (options.lock) query = query.forUpdate('i');
  return (await query.executeTakeFirst()) as DeskRow | undefined;
}

/** The desk rows of these invoices, locked in id order (a batch's items). */
export async function lockDeskRows(db: Db, invoiceIds: readonly number[]): Promise<DeskRow[]> {
  if (invoiceIds.length === 0) return [];
  const rows = await deskQuery(db)
    .select([...DESK_COLUMNS, DESK_STATE.as('desk_state')])
    .where('i.id', 'in', invoiceIds)
    .orderBy('i.id')
    .forUpdate('i')
    .execute();
  return rows as DeskRow[];
}

/** Writes the desk's decision about an invoice (one row per invoice, the latest decision). */
export async function saveDeskItem(
  db: Db,
  item: {
    invoiceId: number;
    state: Exclude<DeskState, 'queued'>;
    reason?: string | null;
    decidedBy?: { id: number | null; username: string };
    forcedChecks?: readonly string[] | null;
  },
): Promise<void> {
  const values = {
    state: item.state,
    ...(item.reason === undefined ? {} : { reason: item.reason }),
    ...(item.decidedBy === undefined
      ? {}
      : { decided_by: item.decidedBy.id, decided_by_username: item.decidedBy.username }),
    ...(item.forcedChecks === undefined
      ? {}
      : { forced_checks: item.forcedChecks === null ? null : JSON.stringify(item.forcedChecks) }),
    updated_at: sql<string>`now()`,
  };
  await db
    .insertInto('desk_items')
    .values({ invoice_id: item.invoiceId, ...values })
    .onConflict((oc) => oc.column('invoice_id').doUpdateSet(values))
    .execute();
}

/** What the checks read about these invoices' parties, in one query per kind. */
export interface CheckFactsRow {
  invoice_id: number;
  sat_status: number;
  disbursement_clabe: string | null;
  provider_rfc: string | null;
  provider_name: string;
  alliance_active: boolean | null;
  alliance_max_amount: string | null;
  alliance_max_days: number | null;
  programme_state: ProgrammeState | null;
  programme_ends_on: string | null;
  programme_frozen_for: 'morosidad' | null;
  same_uuid_elsewhere: boolean;
  already_paid: boolean;
}

export async function checkFacts(db: Db, invoiceIds: readonly number[]): Promise<Map<number, CheckFactsRow>> {
  if (invoiceIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('invoices as i')
    .innerJoin('companies as p', 'p.id', 'i.emitter_company_id')
    .leftJoin('alliances as a', (join) =>
      join
        .onRef('a.corporate_id', '=', 'i.receiver_company_id')
        .onRef('a.provider_id', '=', 'i.emitter_company_id'),
    )
    .leftJoin('credit_programmes as cp', 'cp.corporate_id', 'i.receiver_company_id')
    .select((eb) => [
      'i.id as invoice_id',
      'p.sat_status',
      'p.disbursement_clabe',
      'p.rfc as provider_rfc',
      'p.name as provider_name',
      'a.is_active as alliance_active',
      'a.max_amount as alliance_max_amount',
      'a.max_days as alliance_max_days',
      'cp.state as programme_state',
      'cp.ends_on as programme_ends_on',
      'cp.frozen_for as programme_frozen_for',
      eb
        .exists(
          eb
            .selectFrom('invoices as o')
            .select('o.id')
            .whereRef(sql`upper(o.cfdi_uuid)`, '=', sql`upper(i.cfdi_uuid)`)
            .whereRef('o.id', '<>', 'i.id'),
        )
        .as('same_uuid_elsewhere'),
      eb
        .exists(eb.selectFrom('disbursements as x').select('x.id').whereRef('x.invoice_id', '=', 'i.id'))
        .as('already_paid'),
    ])
    .where('i.id', 'in', invoiceIds)
    .execute();
  return new Map(rows.map((row) => [row.invoice_id, row as CheckFactsRow]));
}

// --- SPEI batches ---

export interface NewSpeiOrder {
  invoiceId: number;
  trackingKey: string;
  numericReference: number;
  beneficiaryName: string;
  beneficiaryClabe: string | null;
  beneficiaryRfc: string;
  amount: string;
  concepto: string;
}

export async function insertBatch(db: Db, by: { id: number | null; username: string }): Promise<number> {
  const row = await db
    .insertInto('disbursement_batches')
    .values({ created_by: by.id, created_by_username: by.username })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertSpeiOrders(
  db: Db,
  batchId: number,
  orders: readonly NewSpeiOrder[],
): Promise<void> {
  if (orders.length === 0) return;
  await db
    .insertInto('spei_orders')
    .values(
      orders.map((order) => ({
        batch_id: batchId,
        invoice_id: order.invoiceId,
        clave_rastreo: order.trackingKey,
        referencia_numerica: order.numericReference,
        beneficiary_name: order.beneficiaryName,
        beneficiary_clabe: order.beneficiaryClabe,
        beneficiary_rfc: order.beneficiaryRfc,
        amount: order.amount,
        concepto: order.concepto,
      })),
    )
    .execute();
}

const ORDER_COLUMNS = [
  'o.id',
  'o.batch_id',
  'o.invoice_id',
  'o.clave_rastreo',
  'o.referencia_numerica',
  'o.beneficiary_name',
  'o.beneficiary_clabe',
  'o.beneficiary_rfc',
  'o.amount',
  'o.concepto',
  'o.state',
  'o.return_reason',
  'o.confirmed_by_username',
  'o.confirmed_at',
] as const;

export function batchOrders(db: Db, batchId: number) {
  return db
    .selectFrom('spei_orders as o')
    .select(ORDER_COLUMNS)
    .where('o.batch_id', '=', batchId)
    .orderBy('o.id')
    .execute();
}

export type SpeiOrderRow = Awaited<ReturnType<typeof batchOrders>>[number];

/** A batch's orders, locked (a result file is applied under the lock, so two uploads serialize). */
export function lockBatchOrders(db: Db, batchId: number) {
  return db
    .selectFrom('spei_orders as o')
    .select(ORDER_COLUMNS)
    .where('o.batch_id', '=', batchId)
    .orderBy('o.id')
    .forUpdate()
    .execute();
}

export async function confirmOrder(
  db: Db,
  orderId: number,
  result: {
    state: 'liquidada' | 'devuelta';
    reason: string | null;
    by: { id: number | null; username: string };
  },
): Promise<void> {
  await db
    .updateTable('spei_orders')
    .set({
      state: result.state,
      return_reason: result.reason,
      confirmed_by: result.by.id,
      confirmed_by_username: result.by.username,
      confirmed_at: sql<string>`now()`,
    })
    .where('id', '=', orderId)
    .execute();
}

export function findBatch(db: Db, batchId: number) {
  return db
    .selectFrom('disbursement_batches')
    .select(['id', 'created_by_username', 'created_at'])
    .where('id', '=', batchId)
    .executeTakeFirst();
}

/** A batch with its creator, locked for the transaction that settles its orders (null when there is none). */
export function lockBatch(db: Db, batchId: number) {
  return db
    .selectFrom('disbursement_batches')
    .select(['id', 'created_by', 'created_by_username'])
    .where('id', '=', batchId)
    .forUpdate()
    .executeTakeFirst();
}

/** One page of batches, newest first, with their order counts per state and total. */
export async function listBatches(db: Db, query: { page: number; pageSize: number }) {
  const [{ count } = { count: '0' }] = await db
    .selectFrom('disbursement_batches')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .execute();
  const rows = await db
    .selectFrom('disbursement_batches as b')
    .leftJoin('spei_orders as o', 'o.batch_id', 'b.id')
    .select((eb) => [
      'b.id',
      'b.created_by_username',
      'b.created_at',
      eb.fn.count<string>('o.id').as('orders'),
      sql<string>`coalesce(sum(o.amount), 0)`.as('total'),
      sql<string>`count(o.id) filter (where o.state = 'pendiente')`.as('pending'),
      sql<string>`count(o.id) filter (where o.state = 'liquidada')`.as('settled'),
      sql<string>`count(o.id) filter (where o.state = 'devuelta')`.as('returned'),
    ])
    .groupBy(['b.id', 'b.created_by_username', 'b.created_at'])
    .orderBy('b.id', 'desc')
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  return { count: Number(count), rows };
}
