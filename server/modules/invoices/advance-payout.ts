import type { IsoDate } from '../../../src/domain/calendar-date';
import { formatMoneyAmount, parseMoney, subtractMoney } from '../../../src/domain/money';
import { advanceQuote, daysUntil } from '../../../src/domain/quote';
import type { Db } from '../../db/database';
import { findActiveAllianceRate } from './alliance.repository';
import { type InvoiceRow, saveAdvanceQuote } from './invoice.repository';
import { invoiceLabel } from './invoice-access';

/** An advance cannot be paid out (no quote and no alliance to quote it with); the message is Spanish. */
export class PayoutError extends Error {}

/** What the payout reads of an invoice: its parties, payment date, MXN amount and its saved quote, if any. */
export type PayoutInvoice = Pick<
  InvoiceRow,
  | 'id'
  | 'cfdi_uuid'
  | 'serie'
  | 'folio'
  | 'emitter_company_id'
  | 'receiver_company_id'
  | 'payment_date'
  | 'amount_with_exchange_rate'
> & { cost_financing: string | null; cost_consultancy: string | null };

interface PayoutQuote {
  payout: string;
  costFinancing: string;
  costConsultancy: string;
  /** The alliance's rate when quoted now (no quote was saved with the advance); null for the saved quote. */
  freshRate: string | null;
}

/**
 * The payout and the quote it comes from, saving nothing: the advance's saved quote, or (invoices put in
 * PROCESS without the advance call, the demo's) the alliance's rate today; null when there is neither.
 */
async function payoutQuote(trx: Db, invoice: PayoutInvoice, today: IsoDate): Promise<PayoutQuote | null> {
  let costFinancing = invoice.cost_financing;
  let costConsultancy = invoice.cost_consultancy;
  let freshRate: string | null = null;
  if (costFinancing === null || costConsultancy === null) {
    const maxRate = await findActiveAllianceRate(
      trx,
      invoice.receiver_company_id,
      invoice.emitter_company_id,
    );
    if (maxRate === null || invoice.payment_date === null) return null;
    const quote = advanceQuote({
      amount: parseMoney(invoice.amount_with_exchange_rate),
      maxRate,
      days: Math.max(0, daysUntil(invoice.payment_date, today)),
    });
    costFinancing = formatMoneyAmount(quote.costFinancing);
    costConsultancy = formatMoneyAmount(quote.costConsultancy);
    freshRate = maxRate;
  }
  const payout = formatMoneyAmount(
    subtractMoney(
      subtractMoney(parseMoney(invoice.amount_with_exchange_rate), parseMoney(costFinancing)),
      parseMoney(costConsultancy),
    ),
  );
  return { payout, costFinancing, costConsultancy, freshRate };
}

/**
 * What the provider would receive if the advance were batched today (the desk and 'Listos para dispersar'
 * show it, issue 33): the same computation as `advancePayout`, read only; null when it cannot be paid out.
 */
export async function payoutPreview(db: Db, invoice: PayoutInvoice, today: IsoDate): Promise<string | null> {
  return (await payoutQuote(db, invoice, today))?.payout ?? null;
}

/**
 * What the provider receives for an advance: the MXN amount less financing and advisory costs (the one home
 * of this computation; the control desk's SPEI orders and `ops disburse` both read it). Invoices put in
 * PROCESS without the advance call (demo data) are quoted now, at the alliance's rate, and the quote saved.
 */
export async function advancePayout(trx: Db, invoice: PayoutInvoice, today: IsoDate): Promise<string> {
  const quote = await payoutQuote(trx, invoice, today);
  if (quote === null) {
    throw new PayoutError(
      `La factura ${invoiceLabel(invoice)} no tiene cotización ni alianza; no se puede dispersar.`,
    );
  }
  if (quote.freshRate !== null) {
    await saveAdvanceQuote(trx, invoice.id, {
      cost_financing: quote.costFinancing,
      cost_consultancy: quote.costConsultancy,
      factoring_rate: quote.freshRate,
      factoring_date: today,
    });
  }
  return quote.payout;
}
