import { sql } from 'kysely';
import type { Db } from '../../db/database';

// The corporate quotation flow's SQL: what a quote line shows of its invoice, the alliances' rates, the
// quotations the buyer decided (pre-approved, accepted, rejected) and the zero-cost figures of a buyer-paid advance.

/** The columns a quote line shows beyond an InvoiceRow's, by invoice id. */
export async function findQuoteDetails(
  trx: Db,
  invoiceIds: readonly number[],
): Promise<Map<number, { emitter_rfc: string; description: string }>> {
  if (invoiceIds.length === 0) return new Map();
  const rows = await trx
    .selectFrom('invoices')
    .select(['id', 'emitter_rfc', 'description'])
    .where('id', 'in', invoiceIds)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** The active alliances' max_rate between the corporate and each of these providers, by provider id. */
export async function findActiveAllianceRates(
  trx: Db,
  corporateId: number,
  providerIds: readonly number[],
): Promise<Map<number, string>> {
  if (providerIds.length === 0) return new Map();
  const rows = await trx
    .selectFrom('alliances')
    .select(['provider_id', 'max_rate'])
    .where('corporate_id', '=', corporateId)
    .where('provider_id', 'in', providerIds)
    .where('is_active', '=', true)
    // Matched on provider_id above, so never a pending alliance's null (migration 011).
    .$narrowType<{ provider_id: number }>()
    .execute();
  return new Map(rows.map((row) => [row.provider_id, row.max_rate]));
}

export interface QuotationRecord {
  corporateId: number;
  createdBy: number;
  costPayer: 'provider' | 'corporate';
  status: 'accepted' | 'pre_approved';
  rate: string;
  total: string;
  totalFinancing: string;
  totalConsultancy: string;
  lines: readonly {
    invoiceId: number;
    paymentDate: string;
    amount: string;
    costFinancing: string;
    costConsultancy: string;
  }[];
}

/** Records the buyer's decision on a quotation and its lines: two statements whatever the batch's size. */
export async function insertQuotation(trx: Db, quotation: QuotationRecord): Promise<number> {
  const { id } = await trx
    .insertInto('quotations')
    .values({
      corporate_id: quotation.corporateId,
      created_by: quotation.createdBy,
      cost_payer: quotation.costPayer,
      status: quotation.status,
      rate: quotation.rate,
      total: quotation.total,
      total_financing: quotation.totalFinancing,
      total_consultancy: quotation.totalConsultancy,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('quotation_lines')
    .values(
      quotation.lines.map((line) => ({
        quotation_id: id,
        invoice_id: line.invoiceId,
        payment_date: line.paymentDate,
        amount: line.amount,
        cost_financing: line.costFinancing,
        cost_consultancy: line.costConsultancy,
      })),
    )
    .execute();
  return id;
}

/** The corporate's accepted quotations that hold any of these invoices are rejected ('Rechazar Cotización'). */
export async function rejectAcceptedQuotations(
  trx: Db,
  corporateId: number,
  invoiceIds: readonly number[],
): Promise<void> {
  if (invoiceIds.length === 0) return;
  await trx
    .updateTable('quotations')
    .set({ status: 'rejected' })
    .where('corporate_id', '=', corporateId)
    .where('status', '=', 'accepted')
    .where('id', 'in', (eb) =>
      eb.selectFrom('quotation_lines').select('quotation_id').where('invoice_id', 'in', invoiceIds),
    )
    .execute();
}

/**
 * The advance the buyer funds costs its provider nothing: zero costs, the alliance's rate and today's date are
 * stored with each invoice in one statement, so the disbursement pays the whole amount.
 */
export async function saveBuyerFundedAdvances(
  trx: Db,
  advances: readonly { invoiceId: number; rate: string }[],
  today: string,
): Promise<void> {
  if (advances.length === 0) return;
  const values = sql.join(advances.map((a) => sql`(${a.invoiceId}::integer, ${a.rate}::numeric)`));
  await sql`
    update invoices as i
    set cost_financing = 0, cost_consultancy = 0, factoring_rate = v.rate, factoring_date = ${today}::date
    from (values ${values}) as v (id, rate)
    where i.id = v.id`.execute(trx);
}
