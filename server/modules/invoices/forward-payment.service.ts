import type { IsoDate } from '../../../src/domain/calendar-date';
import { type ForwardPaymentPricing, priceForwardPayment } from '../../../src/domain/forward-payment';
import { formatCurrency } from '../../../src/domain/money';
import { toQuoteResponse } from '../../../src/domain/quote';
import type { ForwardPaymentQuote, MessageResponse } from '../../../src/domain/schemas/invoices';
import type { Db } from '../../db/database';
import type { CallOutcome } from '../idempotency/idempotency.service';
import { findActiveAllianceTerms } from './alliance.repository';
import type { InvoiceRow } from './invoice.repository';
import {
  actorRecord,
  findCompanyInvoice,
  type InvoiceCaller,
  InvoiceRequestError,
  invoiceLabel,
  lifecycleActor,
} from './invoice-access';
import { applyInvoiceEvent, requireAcceptedEvent } from './lifecycle.service';

// The provider's 'Adelantar pago' (spec §4 APPROVED → PROCESS), its quote and its routes, all in the invoices
// module: the invoice, the machine's word, the alliance's terms, the price (src/domain/forward-payment.ts), then one
// transition that stores the status and the quote together. The call never leaves the module to come back.

export type PricedAdvance = Extract<ForwardPaymentPricing, { ok: true }>;

/**
 * The quote of the caller's APPROVED invoice, after asking the machine whether the provider may advance it now
 * (a quote has no transition of its own). Refusals are 409s.
 */
export async function quoteForwardPayment(
  db: Db,
  caller: InvoiceCaller,
  invoiceId: number,
  today: IsoDate,
  options: { lock?: boolean } = {},
): Promise<{ row: InvoiceRow; pricing: PricedAdvance }> {
  // Everything read first, then judged: the machine's word before the price's ("no alliance" must not hide
  // "already in process").
  const row = await findCompanyInvoice(db, invoiceId, caller.companyId, 'emitter', options);
  const terms = await findActiveAllianceTerms(db, row.receiver_company_id, row.emitter_company_id);
  requireAcceptedEvent(row, 'invoice.approveAdvance', lifecycleActor(caller, 'provider'));
  // NOTE: the advance is paid by SPEI in pesos, so a USD invoice is quoted on its MXN value at the CFDI's
  // TipoCambio (docs/decisions/0012-pronto-pago-api.md).
  const pricing = priceForwardPayment(
    {
      amountMxn: row.amount_with_exchange_rate,
      paymentDate: row.payment_date,
      buyerFundsAdvance: row.buyer_funds_advance,
      terms,
    },
    today,
  );
  if (!pricing.ok) throw new InvoiceRequestError(409, pricing.refusal);
  return { row, pricing };
}

/** The advance itself: the quote under the row's lock, then the transition that stores it with the status. */
export async function advanceForwardPayment(
  trx: Db,
  caller: InvoiceCaller,
  invoiceId: number,
  today: IsoDate,
): Promise<{ row: InvoiceRow; pricing: PricedAdvance }> {
  const priced = await quoteForwardPayment(trx, caller, invoiceId, today, { lock: true });
  await applyInvoiceEvent(
    trx,
    priced.row.id,
    {
      type: 'invoice.approveAdvance',
      actor: lifecycleActor(caller, 'provider'),
      quote: priced.pricing.figures,
    },
    actorRecord(caller),
    { today },
  );
  return priced;
}

/** GET providers/forward-payment/<id>/: the quote of an APPROVED invoice. */
export async function forwardPaymentQuote(
  db: Db,
  caller: InvoiceCaller,
  invoiceId: number,
  today: IsoDate,
): Promise<ForwardPaymentQuote> {
  const { pricing } = await quoteForwardPayment(db, caller, invoiceId, today);
  return toQuoteResponse(pricing.quote, today);
}

/**
 * POST providers/forward-payment/ ('Adelantar pago'): the advance and its answer, naming what the provider
 * receives.
 */
export async function approveForwardPayment(
  trx: Db,
  caller: InvoiceCaller,
  invoiceId: number,
  today: IsoDate,
): Promise<CallOutcome> {
  const { row, pricing } = await advanceForwardPayment(trx, caller, invoiceId, today);
  const body: MessageResponse = {
    message: `Tu adelanto de pago está en trámite. Recibirás ${formatCurrency(pricing.quote.total, 'MXN')} MXN por la factura ${invoiceLabel(row)} en tu cuenta registrada.`,
    message_type: 'success',
  };
  return { statusCode: 200, body };
}
