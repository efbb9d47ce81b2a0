import type { IsoDate } from '../../../src/domain/calendar-date';
import {
  buyerCostLine,
  buyerCostResume,
  corporateQuoteLine,
  quoteResume,
} from '../../../src/domain/corporate-quote';
import { InvoiceStatus } from '../../../src/domain/invoice-status';
import { parseMoney } from '../../../src/domain/money';
import { paths } from '../../../src/domain/paths';
import { paymentDateNotAfterToday } from '../../../src/domain/payment-date';
import { daysUntil, isQuotable } from '../../../src/domain/quote';
import type {
  AcceptedQuotationResponse,
  CorporateQuotation,
  CorporateQuote,
  PreApprovedQuotationResponse,
  QuotationLinesBody,
  QuotationOutcomeResponse,
  QuoteCurrency,
  RejectQuotationBody,
} from '../../../src/domain/schemas/corporates';
import type { InvoiceLifecycleEvent, LifecycleActor } from '../../../src/machines/invoice-lifecycle.machine';
import type { Db } from '../../db/database';
import { FieldErrors } from '../../http/errors';
import type { CallOutcome } from '../idempotency/idempotency.service';
import type { InvoiceRow } from '../invoices/invoice.repository';
import {
  actorRecord,
  type InvoiceCaller,
  InvoiceRequestError,
  invoiceLabel,
  lifecycleActor,
} from '../invoices/invoice-access';
import { serieFolio } from '../invoices/invoice-list';
import { displayDate, moneyText, sendToAll } from '../invoices/invoice-notifications';
import {
  applyInvoiceEvents,
  IllegalTransitionError,
  invoiceEventRefusalOf,
} from '../invoices/lifecycle.service';
import {
  CORPORATE_MESSAGES,
  type CorporatesDeps,
  findReceivedInvoices,
  paymentDateMessage,
  providerNotices,
} from './corporates.service';
import {
  findActiveAllianceRates,
  findQuoteDetails,
  insertQuotation,
  rejectAcceptedQuotations,
  saveBuyerFundedAdvances,
} from './quotations.repository';

// The corporate quotation flow (docs/decisions/0028-buyer-funded-advances.md): quote the invoices the buyer
// may still pre-authorize, then pre-approve them (the provider absorbs the cost), accept them (the buyer
// absorbs it), pay the suppliers ('Pagar a Proveedores') or reject the quotation. Each call is one
// transaction and one batch of lifecycle transitions: all or nothing.

export const QUOTATION_MESSAGES = {
  acceptedOne: 'Se aceptó la cotización: tu empresa absorbe el costo financiero de la factura.',
  acceptedMany: 'Se aceptó la cotización: tu empresa absorbe el costo financiero de las facturas.',
  fullPaymentOne: 'Se programó el pago a tu proveedor: recibirá el monto completo de la factura.',
  fullPaymentMany: 'Se programó el pago a tus proveedores: recibirán el monto completo de las facturas.',
  rejectedOne: 'Se rechazó la cotización de la factura',
  rejectedMany: 'Se rechazó la cotización de las facturas',
  notQuotable: (label: string) =>
    `Los costos del adelanto de la factura ${label} superarían su importe; elige una fecha de pago más cercana.`,
  noAlliance: (label: string) =>
    `La factura ${label} es de un proveedor sin alianza de pronto pago activa contigo; no puede cotizarse.`,
  otherPaymentDate: (date: IsoDate) =>
    `La fecha de pago no coincide con la de la cotización aceptada (${displayDate(date)}).`,
} as const;

/** A line of a batch with its invoice, in the order sent. */
interface Line {
  index: number;
  row: InvoiceRow;
  paymentDate: IsoDate;
}

/** The field of line `index` of a batch, as the body's validation names it ('3.payment_date'). */
function lineField(index: number, field: 'payment_date' | 'invoice_id'): string {
  return `${index}.${field}`;
}

/** The lines' invoices: 404 naming a ref that is not one of the caller's received invoices, 400 for a repeat. */
async function linesOf(trx: Db, caller: InvoiceCaller, body: QuotationLinesBody): Promise<Line[]> {
  const rows = await findReceivedInvoices(
    trx,
    caller,
    body.map((line) => line.invoice_id),
  );
  return body.map((line, index) => ({
    index,
    row: rows.get(line.invoice_id) as InvoiceRow,
    paymentDate: line.payment_date,
  }));
}

/**
 * The event that authorizes this invoice with a payment date: Solicitado answers the provider's request
 * (authorize), Por Autorizar and Rechazada are pre-authorized; any other state is refused by the machine as
 * a pre-authorization.
 */
function authorizeEvent(line: Line, actor: LifecycleActor, buyerFunds: boolean): InvoiceLifecycleEvent {
  const type = line.row.status === InvoiceStatus.PENDING ? 'invoice.authorize' : 'invoice.preAuthorize';
  return { type, actor, paymentDate: line.paymentDate, buyerFunds };
}

/**
 * The machine on each line's state (409 naming the invoice and its state, at the first refused line), then
 * the date rules of every line at once (400 per line: `<index>.payment_date`).
 */
function checkAuthorizations(
  lines: readonly Line[],
  events: readonly InvoiceLifecycleEvent[],
  today: IsoDate,
) {
  const errors: Record<string, string[]> = {};
  lines.forEach((line, i) => {
    const event = events[i] as InvoiceLifecycleEvent;
    const refusal = invoiceEventRefusalOf(line.row, event);
    if (refusal?.cause === 'state') {
      throw new IllegalTransitionError(line.row.id, line.row.status, event.type, refusal);
    }
    const notAfterToday = paymentDateNotAfterToday(line.paymentDate, today);
    if (notAfterToday) {
      errors[lineField(line.index, 'payment_date')] = [notAfterToday];
    } else if (refusal) {
      errors[lineField(line.index, 'payment_date')] = [refusal.message];
    }
  });
  if (Object.keys(errors).length > 0) throw new FieldErrors(errors);
}

/**
 * The quote of every line, from the domain's quote functions at each alliance's rate (409 for a provider
 * without one; 400 for a line whose costs would exceed its amount).
 */
async function quoteLines(
  trx: Db,
  caller: InvoiceCaller,
  lines: readonly Line[],
  today: IsoDate,
): Promise<CorporateQuote[]> {
  const rates = await findActiveAllianceRates(trx, caller.companyId, [
    ...new Set(lines.map((line) => line.row.emitter_company_id)),
  ]);
  const details = await findQuoteDetails(
    trx,
    lines.map((line) => line.row.id),
  );
  const errors: Record<string, string[]> = {};
  const quotes = lines.map((line) => {
    const { row } = line;
    const maxRate = rates.get(row.emitter_company_id);
    if (maxRate === undefined)
      throw new InvoiceRequestError(409, QUOTATION_MESSAGES.noAlliance(invoiceLabel(row)));
    const amount = parseMoney(row.amount);
    if (!isQuotable({ amount, maxRate, days: daysUntil(line.paymentDate, today) })) {
      errors[lineField(line.index, 'payment_date')] = [QUOTATION_MESSAGES.notQuotable(invoiceLabel(row))];
      return null;
    }
    const detail = details.get(row.id);
    const currency: QuoteCurrency = row.currency === 'USD' ? 'USD' : 'MXN';
    return corporateQuoteLine(
      {
        id: row.id,
        fiscal_folio: row.cfdi_uuid,
        serie_folio: serieFolio(row.serie, row.folio),
        emitter_name: row.emitter_name,
        emitter_rfc: detail?.emitter_rfc ?? '',
        description: detail?.description ?? '',
        currency,
        amount: row.amount,
      },
      maxRate,
      line.paymentDate,
      today,
    );
  });
  if (Object.keys(errors).length > 0) throw new FieldErrors(errors);
  return quotes as CorporateQuote[];
}

/** Checks the lines as the pre-authorization would and quotes them. */
async function checkedQuotes(
  trx: Db,
  caller: InvoiceCaller,
  body: QuotationLinesBody,
  today: IsoDate,
  buyerFunds: boolean,
) {
  const lines = await linesOf(trx, caller, body);
  const actor = lifecycleActor(caller, 'corporate');
  const events = lines.map((line) => authorizeEvent(line, actor, buyerFunds));
  checkAuthorizations(lines, events, today);
  const quotes = await quoteLines(trx, caller, lines, today);
  return { lines, events, quotes };
}

/** POST corporates/quotes/: the quote of invoices the corporate may pre-authorize; nothing is written. */
export async function quoteInvoices(
  db: Db,
  caller: InvoiceCaller,
  body: QuotationLinesBody,
  today: IsoDate,
): Promise<CorporateQuotation> {
  const { quotes } = await checkedQuotes(db, caller, body, today, false);
  return { quotes, resume: quoteResume(quotes) };
}

type ProviderNotice = Awaited<ReturnType<typeof providerNotices>>[number];

/** One e-mail per provider company (to each of its users) after the commit. */
function mailProviders(
  deps: CorporatesDeps,
  notices: readonly ProviderNotice[],
  compose: (notice: ProviderNotice, corporate: string) => { subject: string; lines: string[] },
) {
  return async () => {
    for (const notice of notices) {
      const corporate = notice.invoices[0]?.receiver_name ?? 'Tu cliente';
      const { subject, lines } = compose(notice, corporate);
      await sendToAll(deps.mailer, notice.recipients, {
        subject,
        text: [...lines, `Consulta tus facturas en ${deps.appBaseUrl}${paths.prontoPago}`].join('\n'),
      });
    }
  };
}

function invoiceLines(invoices: readonly InvoiceRow[], dateOf: Map<number, IsoDate>): string[] {
  return invoices.map((row) => {
    const date = dateOf.get(row.id) ?? row.payment_date;
    return `- ${invoiceLabel(row)} por ${moneyText(row.amount, row.currency)}${date ? `, fecha de pago ${displayDate(date)}` : ''}`;
  });
}

/** The quotation's record: who pays, the lines and their costs, the highest alliance rate. */
function quotationRecord(
  caller: InvoiceCaller,
  quotes: readonly CorporateQuote[],
  costPayer: 'provider' | 'corporate',
) {
  const resume = buyerCostResume(quotes);
  return {
    corporateId: caller.companyId,
    createdBy: caller.userId,
    costPayer,
    status: costPayer === 'provider' ? ('pre_approved' as const) : ('accepted' as const),
    rate: String(resume.rate),
    total: resume.total,
    totalFinancing: resume.total_financing,
    totalConsultancy: resume.total_consultancy,
    lines: quotes.map((quote) => ({
      invoiceId: quote.id,
      paymentDate: quote.payment_date,
      amount: quote.amount,
      costFinancing: quote.cost_financing,
      costConsultancy: quote.cost_consultancy,
    })),
  };
}

/**
 * POST corporates/quotes/pre-approved/ and …/accepted/: every line → Autorizada with its payment date, the
 * provider or the buyer absorbing the cost; one batch transition, the quotation recorded, the providers told.
 */
async function authorizeQuotation(
  deps: CorporatesDeps,
  trx: Db,
  caller: InvoiceCaller,
  body: QuotationLinesBody,
  today: IsoDate,
  costPayer: 'provider' | 'corporate',
) {
  const buyerFunds = costPayer === 'corporate';
  const { lines, events, quotes } = await checkedQuotes(trx, caller, body, today, buyerFunds);
  // The machine decides again on the rows it locks: a change made meanwhile is a 409.
  await applyInvoiceEvents(
    trx,
    lines.map((line, i) => ({ invoiceId: line.row.id, event: events[i] as InvoiceLifecycleEvent })),
    actorRecord(caller),
  );
  await insertQuotation(trx, quotationRecord(caller, quotes, costPayer));
  const notices = await providerNotices(
    trx,
    lines.map((line) => line.row),
  );
  const dateOf = new Map(lines.map((line) => [line.row.id, line.paymentDate]));
  const afterCommit = mailProviders(deps, notices, (notice, corporate) => ({
    subject: `${corporate} pre-autorizó tus facturas para pronto pago`,
    lines: [
      `${corporate} autorizó el adelanto de estas facturas:`,
      ...invoiceLines(notice.invoices, dateOf),
      buyerFunds
        ? `${corporate} absorbe el costo financiero: si adelantas estas facturas recibirás su monto completo.`
        : 'Ya puedes adelantar su pago.',
    ],
  }));
  return { lines, quotes, afterCommit };
}

/** POST corporates/quotes/pre-approved/ (the provider absorbs the cost). */
export async function preApproveQuotation(
  deps: CorporatesDeps,
  trx: Db,
  caller: InvoiceCaller,
  body: QuotationLinesBody,
  today: IsoDate,
): Promise<CallOutcome> {
  const { lines, quotes, afterCommit } = await authorizeQuotation(deps, trx, caller, body, today, 'provider');
  const resume = quoteResume(quotes);
  const response: PreApprovedQuotationResponse = {
    message: lines.length === 1 ? CORPORATE_MESSAGES.authorizedOne : CORPORATE_MESSAGES.authorizedMany,
    payment_date_message: paymentDateMessage(lines),
    total_quote: resume.total_quote,
    total_invoices: resume.total_invoices,
  };
  return { statusCode: 200, body: response, afterCommit };
}

/** POST corporates/quotes/accepted/ (the buyer absorbs the cost): the answer carries the buyer's resume. */
export async function acceptQuotation(
  deps: CorporatesDeps,
  trx: Db,
  caller: InvoiceCaller,
  body: QuotationLinesBody,
  today: IsoDate,
): Promise<CallOutcome> {
  const { lines, quotes, afterCommit } = await authorizeQuotation(
    deps,
    trx,
    caller,
    body,
    today,
    'corporate',
  );
  const response: AcceptedQuotationResponse = {
    message: lines.length === 1 ? QUOTATION_MESSAGES.acceptedOne : QUOTATION_MESSAGES.acceptedMany,
    payment_date_message: paymentDateMessage(lines),
    quotes: quotes.map(buyerCostLine),
    resume: buyerCostResume(quotes),
  };
  return { statusCode: 200, body: response, afterCommit };
}

/**
 * POST corporates/full-payment/qoute/ ('Pagar a Proveedores'): every line, Autorizada with the buyer absorbing
 * the cost, → En trámite funded by the buyer; each line's payment date must be the one accepted (400 per
 * line). The provider's advance is stored with no cost, so the disbursement pays the whole amount.
 */
export async function payProviders(
  deps: CorporatesDeps,
  trx: Db,
  caller: InvoiceCaller,
  body: QuotationLinesBody,
  today: IsoDate,
): Promise<CallOutcome> {
  const lines = await linesOf(trx, caller, body);
  const actor = lifecycleActor(caller, 'corporate');
  const event: InvoiceLifecycleEvent = { type: 'invoice.fundAdvance', actor };
  const errors: Record<string, string[]> = {};
  for (const line of lines) {
    const refusal = invoiceEventRefusalOf(line.row, event);
    if (refusal) throw new IllegalTransitionError(line.row.id, line.row.status, event.type, refusal);
    if (line.row.payment_date !== null && line.row.payment_date !== line.paymentDate) {
      errors[lineField(line.index, 'payment_date')] = [
        QUOTATION_MESSAGES.otherPaymentDate(line.row.payment_date),
      ];
    }
  }
  if (Object.keys(errors).length > 0) throw new FieldErrors(errors);
  const rates = await findActiveAllianceRates(trx, caller.companyId, [
    ...new Set(lines.map((line) => line.row.emitter_company_id)),
  ]);
  const advances = lines.map((line) => {
    const rate = rates.get(line.row.emitter_company_id);
    if (rate === undefined) {
      throw new InvoiceRequestError(409, QUOTATION_MESSAGES.noAlliance(invoiceLabel(line.row)));
    }
    return { invoiceId: line.row.id, rate };
  });
  await applyInvoiceEvents(
    trx,
    lines.map((line) => ({ invoiceId: line.row.id, event })),
    actorRecord(caller),
    { today },
  );
  await saveBuyerFundedAdvances(trx, advances, today);
  const notices = await providerNotices(
    trx,
    lines.map((line) => line.row),
  );
  const dateOf = new Map(lines.map((line) => [line.row.id, line.paymentDate]));
  const response: QuotationOutcomeResponse = {
    message: lines.length === 1 ? QUOTATION_MESSAGES.fullPaymentOne : QUOTATION_MESSAGES.fullPaymentMany,
    payment_date_message: paymentDateMessage(lines),
  };
  return {
    statusCode: 200,
    body: response,
    afterCommit: mailProviders(deps, notices, (notice, corporate) => ({
      subject: `${corporate} pagará el adelanto de tus facturas`,
      lines: [
        `${corporate} pagará por ti el costo del adelanto de estas facturas; recibirás su monto completo:`,
        ...invoiceLines(notice.invoices, dateOf),
      ],
    })),
  };
}

/**
 * POST corporates/quotes/rejected/ ('Rechazar Cotización'): every line → Rechazada (Por Autorizar and
 * Solicitado, or Autorizada while the buyer absorbs the cost and nobody requested the advance); the buyer's
 * accepted quotations of those invoices are marked rejected and the providers told.
 */
export async function rejectQuotation(
  deps: CorporatesDeps,
  trx: Db,
  caller: InvoiceCaller,
  body: RejectQuotationBody,
): Promise<CallOutcome> {
  const rows = await findReceivedInvoices(
    trx,
    caller,
    body.map((line) => line.invoice_id),
  );
  const actor = lifecycleActor(caller, 'corporate');
  const items = body.map((line) => ({
    invoiceId: (rows.get(line.invoice_id) as InvoiceRow).id,
    event: {
      type: 'invoice.rejectQuotation',
      actor,
      reason: line.reason?.trim() || undefined,
    } as const,
  }));
  await applyInvoiceEvents(trx, items, actorRecord(caller));
  const ids = items.map((item) => item.invoiceId);
  await rejectAcceptedQuotations(trx, caller.companyId, ids);
  const rejected = body.map((line) => rows.get(line.invoice_id) as InvoiceRow);
  const notices = await providerNotices(trx, rejected);
  const response: QuotationOutcomeResponse = {
    message: rejected.length === 1 ? QUOTATION_MESSAGES.rejectedOne : QUOTATION_MESSAGES.rejectedMany,
    payment_date_message: CORPORATE_MESSAGES.rejectedPaymentDate,
  };
  return {
    statusCode: 200,
    body: response,
    afterCommit: mailProviders(deps, notices, (notice, corporate) => ({
      subject: `${corporate} no autorizó el adelanto de tus facturas`,
      lines: [
        `${corporate} rechazó la cotización de estas facturas; no se adelantarán:`,
        ...invoiceLines(notice.invoices, new Map()),
      ],
    })),
  };
}
