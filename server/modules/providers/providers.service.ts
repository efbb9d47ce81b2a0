import { beyondMaxDaysMessage } from '../../../src/domain/alliance-terms';
import type { IsoDate } from '../../../src/domain/calendar-date';
import { providerQuote } from '../../../src/domain/corporate-quote';
import { formatCurrency, formatMoneyAmount, parseMoney } from '../../../src/domain/money';
import { paths } from '../../../src/domain/paths';
import { type AdvanceQuote, daysUntil, isQuotable, toQuoteResponse } from '../../../src/domain/quote';
import type { Indicators, MessageResponse } from '../../../src/domain/schemas/invoices';
import { INVOICE_REFUSALS } from '../../../src/machines/invoice-actions';
import type { Db } from '../../db/database';
import type { Mailer } from '../../mail/mailer';
import { findCompanyBalances } from '../accounts/company.repository';
import type { CallOutcome } from '../idempotency/idempotency.service';
import { findActiveAllianceRate, findActiveAllianceTerms } from '../invoices/alliance.repository';
import { type InvoiceRow, saveAdvanceQuote } from '../invoices/invoice.repository';
import {
  actorRecord,
  findCompanyInvoice,
  type InvoiceCaller,
  InvoiceRequestError,
  invoiceLabel,
  lifecycleActor,
} from '../invoices/invoice-access';
import type { InvoiceListResult } from '../invoices/invoice-list';
import { companyRecipients, moneyText, sendToAll } from '../invoices/invoice-notifications';
import { applyInvoiceEvent, requireAcceptedEvent } from '../invoices/lifecycle.service';

export interface ProvidersDeps {
  db: Db;
  mailer: Mailer;
  /** Public origin for links in e-mails, no trailing slash. */
  appBaseUrl: string;
}

export const PROVIDER_MESSAGES = {
  requestSent:
    'Solicitud enviada correctamente. Tu cliente fue notificado y responderá en un plazo máximo de 24 horas.',
  // The lifecycle's refusals are the machine's table's; named here for the provider calls' tests and models.
  alreadyRequested: INVOICE_REFUSALS['invoice.requestAuthorization'].pending,
  advanceInProcess: INVOICE_REFUSALS['invoice.approveAdvance'].process,
  noAlliance:
    'Tu cliente no tiene una alianza de pronto pago activa contigo; no es posible adelantar esta factura.',
  paymentDatePassed: 'La fecha de pago de esta factura ya llegó; no es posible adelantarla.',
  notQuotable:
    'No es posible cotizar el adelanto de esta factura: sus costos superarían su importe. Escríbenos para revisarla.',
} as const;

/** The alliance's max_rate between the invoice's receiver (corporate) and emitter (provider), if active. */
export function activeAllianceRate(db: Db, row: InvoiceRow): Promise<string | null> {
  return findActiveAllianceRate(db, row.receiver_company_id, row.emitter_company_id);
}

/**
 * The first page's extras of providers/alliances/ (spec §3): totals of the matches and the company's balances
 * (read with the list when it was asked for them, else here).
 */
export async function allianceListExtras(
  db: Db,
  caller: InvoiceCaller,
  result: InvoiceListResult,
): Promise<{ indicators: Indicators; has_factoring: boolean }> {
  const company = result.balances ?? (await findCompanyBalances(db, caller.companyId));
  const available = parseMoney(company.credit_line) - parseMoney(company.credit_used);
  return {
    indicators: {
      total: result.total,
      count: result.count,
      suppliers_customers: result.counterparts,
      available_credit: formatMoneyAmount(Math.max(0, available)),
      credit_used: company.credit_used,
      spei_balance: company.spei_balance,
    },
    has_factoring: company.has_factoring,
  };
}

/**
 * POST providers/request-payment/: AVAILABLE → PENDING, and the corporate's users are told by e-mail
 * (after the commit, so a rolled-back request sends nothing).
 */
export async function requestAuthorization(
  deps: ProvidersDeps,
  trx: Db,
  caller: InvoiceCaller,
  invoiceId: number,
): Promise<CallOutcome> {
  const row = await findCompanyInvoice(trx, invoiceId, caller.companyId, 'emitter', { lock: true });
  const actor = lifecycleActor(caller, 'provider');
  // The machine's refusal ('Ya solicitaste…') comes before the alliance rule, as the provider expects.
  requireAcceptedEvent(row, 'invoice.requestAuthorization', actor);
  if ((await activeAllianceRate(trx, row)) === null) {
    throw new InvoiceRequestError(409, PROVIDER_MESSAGES.noAlliance);
  }
  await applyInvoiceEvent(trx, row.id, { type: 'invoice.requestAuthorization', actor }, actorRecord(caller));
  const recipients = await companyRecipients(trx, row.receiver_company_id);
  const label = invoiceLabel(row);
  const body: MessageResponse = { message: PROVIDER_MESSAGES.requestSent, message_type: 'success' };
  return {
    statusCode: 200,
    body,
    afterCommit: () =>
      sendToAll(deps.mailer, recipients, {
        subject: `${row.emitter_name} solicita autorizar la factura ${label}`,
        text: [
          `${row.emitter_name} solicitó que autorices su factura ${label} por ${moneyText(row.amount, row.currency)} para adelantar su pago.`,
          'Por favor respóndele en un plazo máximo de 24 horas.',
          `Revisa la solicitud en ${deps.appBaseUrl}${paths.requests}`,
        ].join('\n\n'),
      }),
  };
}

interface ComputedQuote {
  maxRate: string;
  quote: AdvanceQuote;
}

/**
 * The advance's quote, after asking the machine whether the provider may advance this invoice now (a quote
 * has no transition of its own, so the machine is asked without one) and the alliance and date rules.
 */
async function quoteFor(
  db: Db,
  caller: InvoiceCaller,
  row: InvoiceRow,
  today: IsoDate,
): Promise<ComputedQuote> {
  requireAcceptedEvent(row, 'invoice.approveAdvance', lifecycleActor(caller, 'provider'));
  const terms = await findActiveAllianceTerms(db, row.receiver_company_id, row.emitter_company_id);
  if (terms === null) throw new InvoiceRequestError(409, PROVIDER_MESSAGES.noAlliance);
  const { maxRate, maxDays } = terms;
  // An APPROVED invoice always has the payment date its corporate set (the machine's authorize event carries it).
  const days = row.payment_date === null ? 0 : daysUntil(row.payment_date, today);
  if (days <= 0) throw new InvoiceRequestError(409, PROVIDER_MESSAGES.paymentDatePassed);
  // The operator's alliance finances up to max_days (decision 0053): no quote, and so no advance, beyond them.
  if (maxDays !== null && days > maxDays) throw new InvoiceRequestError(409, beyondMaxDaysMessage(maxDays));
  // NOTE: the advance is paid by SPEI in pesos, so a USD invoice is quoted on its MXN value at the CFDI's
  // TipoCambio (docs/decisions/0012-pronto-pago-api.md).
  const input = { amount: parseMoney(row.amount_with_exchange_rate), maxRate, days };
  // When the buyer absorbs the cost (decision 0028) the provider is quoted none: its whole amount.
  if (!row.buyer_funds_advance && !isQuotable(input))
    throw new InvoiceRequestError(409, PROVIDER_MESSAGES.notQuotable);
  return { maxRate, quote: providerQuote(input, row.buyer_funds_advance) };
}

/** GET providers/forward-payment/<id>/: the quote of an APPROVED invoice, from the domain's quote functions. */
export async function forwardPaymentQuote(db: Db, caller: InvoiceCaller, invoiceId: number, today: IsoDate) {
  const row = await findCompanyInvoice(db, invoiceId, caller.companyId, 'emitter');
  const { quote } = await quoteFor(db, caller, row, today);
  return toQuoteResponse(quote, today);
}

/**
 * POST providers/forward-payment/: APPROVED → PROCESS. The quote is computed again under the row lock and
 * its figures are stored with the transition, in the same transaction: what the provider is paid is what
 * the server quoted today, whatever the browser showed.
 */
export async function approveForwardPayment(
  trx: Db,
  caller: InvoiceCaller,
  invoiceId: number,
  today: IsoDate,
): Promise<CallOutcome> {
  const row = await findCompanyInvoice(trx, invoiceId, caller.companyId, 'emitter', { lock: true });
  const { maxRate, quote } = await quoteFor(trx, caller, row, today);
  await applyInvoiceEvent(
    trx,
    row.id,
    { type: 'invoice.approveAdvance', actor: lifecycleActor(caller, 'provider') },
    actorRecord(caller),
    { today },
  );
  const response = toQuoteResponse(quote, today);
  await saveAdvanceQuote(trx, row.id, {
    cost_financing: response.cost_financing,
    cost_consultancy: response.cost_consultancy,
    factoring_rate: maxRate,
    factoring_date: today,
  });
  const body: MessageResponse = {
    message: `Tu adelanto de pago está en trámite. Recibirás ${formatCurrency(quote.total, 'MXN')} MXN por la factura ${invoiceLabel(row)} en tu cuenta registrada.`,
    message_type: 'success',
  };
  return { statusCode: 200, body };
}
