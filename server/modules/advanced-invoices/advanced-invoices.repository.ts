import type { InvoiceStatusCode } from '../../../src/domain/invoice-status';
import type { Db } from '../../db/database';

/** What an advanced invoice's download needs: the stored CFDI and the figures its PDF shows. */
export interface DownloadableInvoice {
  id: number;
  cfdi_uuid: string;
  serie: string | null;
  folio: string | null;
  status: InvoiceStatusCode;
  emitter_name: string;
  emitter_rfc: string;
  receiver_name: string;
  receiver_rfc: string;
  date_of_emission: string;
  payment_date: string | null;
  subtotal: string;
  amount: string;
  currency: string;
  exchange_rate: string | null;
  amount_with_exchange_rate: string;
  payment_method: string | null;
  description: string;
  factoring_date: string | null;
  factoring_rate: string | null;
  cost_financing: string | null;
  cost_consultancy: string | null;
  cfdi_xml: string;
  disbursed_amount: string | null;
  disbursement_reference: string | null;
  disbursed_at: string | null;
}

/** The company's issued invoices among `ids` (any status; the caller tells missing from not advanced). */
export async function findIssuedInvoices(
  db: Db,
  companyId: number,
  ids: readonly number[],
): Promise<DownloadableInvoice[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('invoices')
    .leftJoin('disbursements', 'disbursements.invoice_id', 'invoices.id')
    .select([
      'invoices.id',
      'invoices.cfdi_uuid',
      'invoices.serie',
      'invoices.folio',
      'invoices.status',
      'invoices.emitter_name',
      'invoices.emitter_rfc',
      'invoices.receiver_name',
      'invoices.receiver_rfc',
      'invoices.date_of_emission',
      'invoices.payment_date',
      'invoices.subtotal',
      'invoices.amount',
      'invoices.currency',
      'invoices.exchange_rate',
      'invoices.amount_with_exchange_rate',
      'invoices.payment_method',
      'invoices.description',
      'invoices.factoring_date',
      'invoices.factoring_rate',
      'invoices.cost_financing',
      'invoices.cost_consultancy',
      'invoices.cfdi_xml',
      'disbursements.amount as disbursed_amount',
      'disbursements.reference as disbursement_reference',
      'disbursements.at as disbursed_at',
    ])
    .where('invoices.id', 'in', [...ids])
    .where('invoices.emitter_company_id', '=', companyId)
    .execute();
  return rows.map((row) => ({ ...row, status: row.status as InvoiceStatusCode }));
}
