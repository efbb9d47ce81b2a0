import type { Db } from '../../db/database';

// The SQL of factoring's own tables (issue 15, docs/decisions/0036): enable requests, records and their instalment
// schedules. The line itself is the company's: modules/accounts/company.repository.ts owns those columns.

// --- Enable requests ---

/**
 * Files an enable request unless one is already pending: INSERT … ON CONFLICT on the partial unique index
 * (one 'requested' row per company), so concurrent clicks file one row and none fails. True when filed.
 */
export async function fileEnrolment(db: Db, companyId: number, userId: number): Promise<boolean> {
  const row = await db
    .insertInto('factoring_enrolments')
    .values({ company_id: companyId, requested_by: userId })
    .onConflict((oc) => oc.column('company_id').where('status', '=', 'requested').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Enable requests, newest first, with the company and the user who asked. */
export function listEnrolments(db: Db, limit: number) {
  return db
    .selectFrom('factoring_enrolments as e')
    .innerJoin('companies as c', 'c.id', 'e.company_id')
    .leftJoin('users as u', 'u.id', 'e.requested_by')
    .select(['e.id', 'e.status', 'e.created_at', 'c.rfc', 'c.name', 'u.username'])
    .orderBy('e.created_at', 'desc')
    .orderBy('e.id', 'desc')
    .limit(limit)
    .execute();
}

/** The company's pending enable requests become 'enabled' (its line was granted); how many there were. */
export async function markEnrolmentsEnabled(trx: Db, companyId: number): Promise<number> {
  const result = await trx
    .updateTable('factoring_enrolments')
    .set({ status: 'enabled' })
    .where('company_id', '=', companyId)
    .where('status', '=', 'requested')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

// --- Records and schedules ---

export interface NewFactoringRecord {
  invoiceId: number;
  providerId: number;
  createdBy: number;
  rate: string;
  installments: number;
  installmentPayment: string;
  totalPayment: string;
  advisoryFee: string;
  amountToTransfer: string;
  lineAmount: string;
}

export interface NewInstalment {
  number: number;
  dueDate: string;
  amount: string;
  lineRelease: string;
}

/** Inserts a record and its schedule; returns the record's id. */
export async function insertFactoringRecord(
  trx: Db,
  record: NewFactoringRecord,
  schedule: readonly NewInstalment[],
): Promise<number> {
  const { id } = await trx
    .insertInto('factoring_requests')
    .values({
      invoice_id: record.invoiceId,
      provider_id: record.providerId,
      created_by: record.createdBy,
      rate: record.rate,
      installments: record.installments,
      installment_payment: record.installmentPayment,
      total_payment: record.totalPayment,
      advisory_fee: record.advisoryFee,
      amount_to_transfer: record.amountToTransfer,
      line_amount: record.lineAmount,
      status: 'active',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('factoring_instalments')
    .values(
      schedule.map((item) => ({
        factoring_request_id: id,
        number: item.number,
        due_date: item.dueDate,
        amount: item.amount,
        line_release: item.lineRelease,
      })),
    )
    .execute();
  return id;
}

const RECORD_COLUMNS = [
  'r.id',
  'r.invoice_id',
  'r.provider_id',
  'r.rate',
  'r.installments',
  'r.installment_payment',
  'r.total_payment',
  'r.advisory_fee',
  'r.amount_to_transfer',
  'r.line_amount',
  'r.status',
  'r.created_at',
  'i.cfdi_uuid',
  'i.receiver_name',
] as const;

/**
 * A record with its invoice's folio and customer; only the owning provider's when `providerId` is given,
 * locked FOR UPDATE (the record row) when asked.
 */
export async function findFactoringRecord(
  db: Db,
  id: number,
  options: { providerId?: number; lock?: boolean } = {},
) {
  let query = db
    .selectFrom('factoring_requests as r')
    .innerJoin('invoices as i', 'i.id', 'r.invoice_id')
    .select(RECORD_COLUMNS)
    .where('r.id', '=', id);
  if (options.providerId !== undefined) query = query.where('r.provider_id', '=', options.providerId);
  if (options.lock) query = query.forUpdate('r');
  return query.executeTakeFirst();
}

/** A record's schedule, first instalment first. */
export function findInstalments(db: Db, recordId: number) {
  return db
    .selectFrom('factoring_instalments')
    .select(['id', 'number', 'due_date', 'amount', 'line_release', 'paid_at'])
    .where('factoring_request_id', '=', recordId)
    .orderBy('number')
    .execute();
}

/** Marks one instalment paid, unless it already was; true when this call paid it. */
export async function markInstalmentPaid(trx: Db, instalmentId: number, at: Date): Promise<boolean> {
  const row = await trx
    .updateTable('factoring_instalments')
    .set({ paid_at: at.toISOString() })
    .where('id', '=', instalmentId)
    .where('paid_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function setRecordStatus(trx: Db, recordId: number, status: 'active' | 'settled') {
  await trx.updateTable('factoring_requests').set({ status }).where('id', '=', recordId).execute();
}

/** The record holding each of these invoices, by invoice id (invoices without one are absent). */
export async function recordIdsByInvoice(
  db: Db,
  invoiceIds: readonly number[],
): Promise<Map<number, number>> {
  if (invoiceIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('factoring_requests')
    .select(['id', 'invoice_id'])
    .where('invoice_id', 'in', invoiceIds)
    .execute();
  return new Map(rows.map((row) => [row.invoice_id, row.id]));
}
