import type { IsoDate } from '../../../src/domain/calendar-date';
import {
  FACTORING_ALREADY_ENABLED,
  FACTORING_NOT_ENABLED,
  FACTORING_REQUEST_PENDING,
} from '../../../src/domain/factoring-messages';
import {
  availableLine,
  expectedFactoringRequest,
  type FactoredInvoice,
  factoringFiguresDiffer,
  factoringQuote,
  financingCost,
  instalmentSchedule,
} from '../../../src/domain/factoring-quote';
import { DEFAULT_FACTORING_RATE } from '../../../src/domain/factoring-terms';
import { type Centavos, formatCurrency, formatMoneyAmount, parseMoney } from '../../../src/domain/money';
import type {
  FactoringQuote,
  FactoringRecord,
  FactoringRequest,
  FactoringTransferResponse,
} from '../../../src/domain/schemas/factoring';
import type { Indicators, MessageResponse } from '../../../src/domain/schemas/invoices';
import type { Db } from '../../db/database';
import { findFactoringLine, holdOnLine } from '../accounts/company.repository';
import type { CallOutcome } from '../idempotency/idempotency.service';
import { type InvoiceRow, saveAdvanceQuote } from '../invoices/invoice.repository';
import {
  actorRecord,
  findCompanyInvoice,
  type InvoiceCaller,
  InvoiceRequestError,
  invoiceLabel,
  lifecycleActor,
} from '../invoices/invoice-access';
import type { InvoiceListResult, InvoicePageBody } from '../invoices/invoice-list';
import { applyInvoiceEvent, requireAcceptedEvent } from '../invoices/lifecycle.service';
import { allianceListExtras } from '../providers/providers.service';
import {
  fileEnrolment,
  findFactoringRecord,
  findInstalments,
  insertFactoringRecord,
  recordIdsByInvoice,
} from './factoring.repository';

/**
 * Server-only texts of factoring (the client shows them as the server sends them). The enable answers, which
 * the client also knows, live in src/domain/factoring-messages.ts.
 */
export const FACTORING_MESSAGES = {
  notEnabled:
    'Tu cuenta no tiene una línea de factoraje activa. Solicita tu alta en Factoraje y nos pondremos en contacto contigo.',
  quoteChanged:
    'La cotización de factoraje cambió: la tasa o los montos ya no son los vigentes. Revisa la nueva cotización y confirma de nuevo.',
  noAmount: 'Esta factura no tiene un importe en pesos que pueda enviarse a factoraje.',
  recordNotFound: 'Solicitud de factoraje no encontrada.',
} as const;

/** 409 when the line cannot hold the invoice: what is left and what the invoice needs, in pesos. */
export function lineShortMessage(available: Centavos, needed: Centavos): string {
  return `Tu línea de factoraje no alcanza para esta factura: tienes ${formatCurrency(available, 'MXN')} MXN disponibles y se necesitan ${formatCurrency(needed, 'MXN')} MXN.`;
}

/** 200 of POST factoring/: what the provider receives and what it repays. */
export function transferredMessage(label: string, toTransfer: Centavos, instalments: number, each: Centavos) {
  const repay =
    instalments === 1
      ? `un pago de ${formatCurrency(each, 'MXN')} MXN en 30 días`
      : `${instalments} pagos mensuales de ${formatCurrency(each, 'MXN')} MXN`;
  return `Tu factura ${label} se transfirió a factoraje. Recibirás ${formatCurrency(toTransfer, 'MXN')} MXN en tu cuenta registrada y cubrirás ${repay}.`;
}

/**
 * POST factoring-enable/: files an enable request unless the company has its line (ALREADY_ENABLED) or one is
 * pending (REQUEST_PENDING, nothing filed). Every answer is informative: nothing failed (decision 0036).
 */
export async function requestFactoringEnable(db: Db, caller: InvoiceCaller): Promise<MessageResponse> {
  const line = await findFactoringLine(db, caller.companyId);
  if (line.has_factoring) return { message: FACTORING_ALREADY_ENABLED, message_type: 'info' };
  const filed = await fileEnrolment(db, caller.companyId, caller.userId);
  return { message: filed ? FACTORING_NOT_ENABLED : FACTORING_REQUEST_PENDING, message_type: 'info' };
}

interface GrantedLine {
  rate: string;
  creditLine: Centavos;
  creditUsed: Centavos;
}

/** The company's line, read fresh (not from the session); 403 when it has none. */
async function requireFactoringLine(db: Db, companyId: number): Promise<GrantedLine> {
  const line = await findFactoringLine(db, companyId);
  if (!line.has_factoring) throw new InvoiceRequestError(403, FACTORING_MESSAGES.notEnabled);
  return {
    // A line granted before its rate existed (migration 004) is priced at the default.
    rate: line.factoring_rate ?? DEFAULT_FACTORING_RATE,
    creditLine: parseMoney(line.credit_line),
    creditUsed: parseMoney(line.credit_used),
  };
}

/**
 * The provider's own invoice if the lifecycle machine lets it go to factoring now (403/404/409 otherwise),
 * as the plan sees it: its MXN value (a USD invoice at its CFDI TipoCambio: the line is in pesos).
 */
async function factorableInvoice(
  db: Db,
  caller: InvoiceCaller,
  invoiceId: number,
  options: { lock?: boolean } = {},
): Promise<{ row: InvoiceRow; invoice: FactoredInvoice }> {
  const row = await findCompanyInvoice(db, invoiceId, caller.companyId, 'emitter', options);
  requireAcceptedEvent(row, 'invoice.transferToFactoring', lifecycleActor(caller, 'provider'));
  const amount = parseMoney(row.amount_with_exchange_rate);
  if (amount <= 0) throw new InvoiceRequestError(409, FACTORING_MESSAGES.noAmount);
  return { row, invoice: { id: row.id, fiscalFolio: row.cfdi_uuid, amount } };
}

/** GET factoring-calculations/<id>/: every instalment option at the line's current rate. */
export async function factoringQuoteFor(
  db: Db,
  caller: InvoiceCaller,
  invoiceId: number,
  today: IsoDate,
): Promise<FactoringQuote> {
  const line = await requireFactoringLine(db, caller.companyId);
  const { invoice } = await factorableInvoice(db, caller, invoiceId);
  return factoringQuote({
    invoice,
    ratePercent: line.rate,
    today,
    availableCredit: availableLine(line.creditLine, line.creditUsed),
  });
}

/**
 * POST factoring/, in the idempotent call's transaction: lock the invoice, let the machine decide, recompute
 * the plan at the line's current rate and refuse figures that differ (409), hold the invoice's MXN value on
 * the line with a guarded UPDATE (409 when short), then the transition with its audit row, the invoice's
 * factoring figures, the record and its schedule. All or nothing.
 */
export async function transferToFactoring(
  trx: Db,
  caller: InvoiceCaller,
  body: FactoringRequest,
  today: IsoDate,
): Promise<CallOutcome> {
  const line = await requireFactoringLine(trx, caller.companyId);
  const { row, invoice } = await factorableInvoice(trx, caller, body.invoice_id, { lock: true });
  const { plan, request } = expectedFactoringRequest(invoice, line.rate, body.installments);
  if (factoringFiguresDiffer(body, request)) {
    throw new InvoiceRequestError(409, FACTORING_MESSAGES.quoteChanged);
  }
  const lineAmount = formatMoneyAmount(invoice.amount);
  if (!(await holdOnLine(trx, caller.companyId, lineAmount))) {
    const now = await findFactoringLine(trx, caller.companyId);
    const available = availableLine(parseMoney(now.credit_line), parseMoney(now.credit_used));
    throw new InvoiceRequestError(409, lineShortMessage(available, invoice.amount));
  }
  await applyInvoiceEvent(
    trx,
    row.id,
    { type: 'invoice.transferToFactoring', actor: lifecycleActor(caller, 'provider') },
    actorRecord(caller),
  );
  // The list's columns for what the invoice cost (cost_consultancy, factoring_rate, factoring_date), as an
  // advance stores them; cost_financing is the chosen plan's interest.
  await saveAdvanceQuote(trx, row.id, {
    cost_financing: formatMoneyAmount(financingCost(plan, invoice.amount)),
    cost_consultancy: formatMoneyAmount(plan.advisoryFee),
    factoring_rate: line.rate,
    factoring_date: today,
  });
  const recordId = await insertFactoringRecord(
    trx,
    {
      invoiceId: row.id,
      providerId: caller.companyId,
      createdBy: caller.userId,
      rate: line.rate,
      installments: plan.instalments,
      installmentPayment: formatMoneyAmount(plan.instalmentAmount),
      totalPayment: formatMoneyAmount(plan.totalPayment),
      advisoryFee: formatMoneyAmount(plan.advisoryFee),
      amountToTransfer: formatMoneyAmount(plan.amountToTransfer),
      lineAmount,
    },
    instalmentSchedule(plan, invoice.amount, today).map((item) => ({
      number: item.number,
      dueDate: item.dueDate,
      amount: formatMoneyAmount(item.amount),
      lineRelease: formatMoneyAmount(item.lineRelease),
    })),
  );
  const answer: FactoringTransferResponse = {
    message: transferredMessage(
      invoiceLabel(row),
      plan.amountToTransfer,
      plan.instalments,
      plan.instalmentAmount,
    ),
    message_type: 'success',
    factoring_request_id: recordId,
  };
  return { statusCode: 200, body: answer };
}

/** GET factoring-request/<id>/: the record with its schedule, for the provider that owns it only (else 404). */
export async function factoringRecordOf(db: Db, caller: InvoiceCaller, id: number): Promise<FactoringRecord> {
  // The route's IdParams already answered this message for an id no record can have.
  const record = await findFactoringRecord(db, id, { providerId: caller.companyId });
  if (!record) throw new InvoiceRequestError(404, FACTORING_MESSAGES.recordNotFound);
  const schedule = await findInstalments(db, record.id);
  return {
    id: record.id,
    invoice_id: record.invoice_id,
    fiscal_folio: record.cfdi_uuid,
    receiver_name: record.receiver_name,
    rate: Number(record.rate),
    installments: record.installments,
    installment_payment: record.installment_payment,
    total_payment: record.total_payment,
    advisory_fee: record.advisory_fee,
    amount_to_transfer: record.amount_to_transfer,
    line_amount: record.line_amount,
    status: record.status === 'settled' ? 'settled' : 'active',
    created_at: record.created_at,
    schedule: schedule.map((item) => ({
      number: item.number,
      due_date: item.due_date,
      amount: item.amount,
      paid_at: item.paid_at,
    })),
  };
}

/** The factoring list's first-page extras: the alliances list's, plus the line granted (the balance card). */
export async function factoringListExtras(
  db: Db,
  caller: InvoiceCaller,
  result: InvoiceListResult,
): Promise<{ indicators: Indicators; has_factoring: boolean }> {
  const extras = await allianceListExtras(db, caller, result);
  const line = await findFactoringLine(db, caller.companyId);
  return { ...extras, indicators: { ...extras.indicators, credit_line: line.credit_line } };
}

/** A page of the factoring list: each row names the record holding it (null when none does). */
export async function withRecordIds(db: Db, page: InvoicePageBody): Promise<InvoicePageBody> {
  const ids = await recordIdsByInvoice(
    db,
    page.results.map((item) => item.id),
  );
  return {
    ...page,
    results: page.results.map((item) => ({ ...item, factoring_request_id: ids.get(item.id) ?? null })),
  };
}
