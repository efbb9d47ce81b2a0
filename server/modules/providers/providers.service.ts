import { FORWARD_PAYMENT_REFUSALS } from '../../../src/domain/forward-payment';
import { formatMoneyAmount, parseMoney } from '../../../src/domain/money';
import { paths } from '../../../src/domain/paths';
import type { Indicators, MessageResponse } from '../../../src/domain/schemas/invoices';
import { INVOICE_REFUSALS } from '../../../src/machines/invoice-actions';
import type { Db } from '../../db/database';
import type { Mailer } from '../../mail/mailer';
import { findCompanyBalances } from '../accounts/company.repository';
import type { CallOutcome } from '../idempotency/idempotency.service';
import { findActiveAllianceRate } from '../invoices/alliance.repository';
import type { InvoiceRow } from '../invoices/invoice.repository';
import {
  actorRecord,
  findCompanyInvoice,
  type InvoiceCaller,
  InvoiceRequestError,
  invoiceLabel,
  lifecycleActor,
} from '../invoices/invoice-access';
import { type InvoiceListResult, matchIndicators } from '../invoices/invoice-list';
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
  ...FORWARD_PAYMENT_REFUSALS,
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
      ...matchIndicators(result),
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
