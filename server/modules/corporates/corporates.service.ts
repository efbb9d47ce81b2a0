import type { IsoDate } from '../../../src/domain/calendar-date';
import { invoiceNotFoundNamed } from '../../../src/domain/invoice-label';
import { formatMoneyAmount, parseMoney } from '../../../src/domain/money';
import { paths } from '../../../src/domain/paths';
import { paymentDateNotAfterToday, paymentDateNotAfterTodayOf } from '../../../src/domain/payment-date';
import type { CorporateSummaryIndicators } from '../../../src/domain/schemas/corporates';
import { MAX_SERIAL_ID } from '../../../src/domain/schemas/fields';
import type {
  AuthorizeRejectResponse,
  AuthorizeRequestsBody,
  RejectRequestsBody,
} from '../../../src/domain/schemas/quotations';
import type { Db } from '../../db/database';
import { FieldErrors } from '../../http/errors';
import type { Mailer } from '../../mail/mailer';
import { findCompanyBalances } from '../accounts/company.repository';
import type { CallOutcome } from '../idempotency/idempotency.service';
import { findInvoicesReceivedBy, type InvoiceRow } from '../invoices/invoice.repository';
import {
  actorRecord,
  type InvoiceCaller,
  InvoiceRequestError,
  invoiceLabel,
  lifecycleActor,
} from '../invoices/invoice-access';
import { type InvoiceListResult, matchIndicators } from '../invoices/invoice-list';
import { companyRecipients, displayDate, sendToAll } from '../invoices/invoice-notifications';
import {
  applyInvoiceEvents,
  invoiceEventRefusalOf,
  requireAcceptedEvent,
} from '../invoices/lifecycle.service';

export interface CorporatesDeps {
  db: Db;
  mailer: Mailer;
  appBaseUrl: string;
}

export const CORPORATE_MESSAGES = {
  authorizedOne: 'Se aprobó correctamente la factura',
  authorizedMany: 'Se aprobaron correctamente las facturas',
  rejectedOne: 'Se rechazó correctamente la factura',
  rejectedMany: 'Se rechazaron correctamente las facturas',
  rejectedPaymentDate: 'Tus proveedores fueron notificados; las facturas rechazadas no se adelantarán.',
} as const;

/** A 400 answered as {detail}: input the rules refuse (dates), not stored by the idempotency layer. */
export class InvalidRequestError extends Error {
  readonly statusCode = 400;
}

/** The summary's three cards: invoices, clients (the providers that issued them), total amount per currency. */
export function corporateSummaryExtras(result: InvoiceListResult): CorporateSummaryIndicators {
  const { byCurrency } = result;
  return {
    ...matchIndicators(result),
    // Past the exact count the sums are left out (decision 0074).
    ...(byCurrency === null
      ? {}
      : {
          total: formatMoneyAmount(parseMoney(byCurrency.mxn)),
          total_usd: formatMoneyAmount(parseMoney(byCurrency.usd)),
        }),
  };
}

/** The first page's extras of corporates/manually-requests/. */
export async function requestsListExtras(db: Db, caller: InvoiceCaller, result: InvoiceListResult) {
  const company = result.balances ?? (await findCompanyBalances(db, caller.companyId));
  return {
    indicators: matchIndicators(result),
    has_factoring: company.has_factoring,
  };
}

/** An invoice as a batch names it: its numeric id or its folio fiscal. */
export type Ref = string | number;

function refText(ref: Ref): string {
  return String(ref);
}

function refId(ref: Ref): number | null {
  if (typeof ref === 'number') return ref;
  return /^\d{1,10}$/.test(ref.trim()) ? Number(ref.trim()) : null;
}

/**
 * The caller's received invoices named by the refs. A ref that is not one of them is a 404 naming it; the
 * same invoice twice is a 400. Not locked: applyInvoiceEvents locks them all at once and the machine decides
 * on the locked rows.
 */
export async function findReceivedInvoices(trx: Db, caller: InvoiceCaller, refs: readonly Ref[]) {
  const ids = refs.map(refId).filter((id): id is number => id !== null && id > 0 && id <= MAX_SERIAL_ID);
  const uuids = refs.filter((ref): ref is string => typeof ref === 'string' && refId(ref) === null);
  const rows = await findInvoicesReceivedBy(trx, caller.companyId, {
    ids,
    uuids: uuids.map((uuid) => uuid.trim().toUpperCase()),
  });
  const byRef = new Map<Ref, InvoiceRow>();
  const seen = new Set<number>();
  for (const ref of refs) {
    const id = refId(ref);
    const row = rows.find((r) =>
      id !== null ? r.id === id : r.cfdi_uuid === String(ref).trim().toUpperCase(),
    );
    if (!row) throw new InvoiceRequestError(404, invoiceNotFoundNamed(refText(ref)));
    if (seen.has(row.id)) {
      throw new FieldErrors({ _form: [`La factura ${invoiceLabel(row)} aparece más de una vez.`] });
    }
    seen.add(row.id);
    byRef.set(ref, row);
  }
  return byRef;
}

/** Groups the invoices per provider company and reads their users' addresses (inside the transaction). */
export async function providerNotices(trx: Db, rows: readonly InvoiceRow[]) {
  const byProvider = new Map<number, InvoiceRow[]>();
  for (const row of rows)
    byProvider.set(row.emitter_company_id, [...(byProvider.get(row.emitter_company_id) ?? []), row]);
  return Promise.all(
    [...byProvider.entries()].map(async ([companyId, invoices]) => ({
      recipients: await companyRecipients(trx, companyId),
      invoices,
    })),
  );
}

export function paymentDateMessage(items: readonly { row: InvoiceRow; paymentDate: IsoDate }[]): string {
  const dates = [...new Set(items.map((item) => item.paymentDate))];
  if (dates.length === 1) {
    const date = displayDate(dates[0] as IsoDate);
    return items.length === 1
      ? `La fecha de pago de la factura es el ${date}.`
      : `La fecha de pago de las facturas es el ${date}.`;
  }
  return `Fechas de pago: ${items.map((item) => `${invoiceLabel(item.row)} el ${displayDate(item.paymentDate)}`).join('; ')}.`;
}

/**
 * POST corporates/manually-requests/authorize/: every listed request PENDING → APPROVED with its payment
 * date, or none (one transaction, one batch transition). The 150-day rule is the lifecycle machine's guard;
 * its refusal (400) names the invoice and its emission date.
 */
export async function authorizeRequests(
  deps: CorporatesDeps,
  trx: Db,
  caller: InvoiceCaller,
  items: AuthorizeRequestsBody,
  today: IsoDate,
): Promise<CallOutcome> {
  const rows = await findReceivedInvoices(
    trx,
    caller,
    items.map((item) => item.invoice_id),
  );
  const actor = lifecycleActor(caller, 'corporate');
  const authorized = items.map((item) => ({
    row: rows.get(item.invoice_id) as InvoiceRow,
    paymentDate: item.payment_date,
    event: { type: 'invoice.authorize', actor, paymentDate: item.payment_date } as const,
  }));
  // Item by item, as before the batch: the machine on the state (409), the date rule it does not know, then
  // the machine's 150-day guard, whose refusal is invalid input here (400, the table's words).
  for (const { row, paymentDate, event } of authorized) {
    requireAcceptedEvent(row, event.type, actor);
    if (paymentDateNotAfterToday(paymentDate, today)) {
      throw new InvalidRequestError(paymentDateNotAfterTodayOf(invoiceLabel(row)));
    }
    const refusal = invoiceEventRefusalOf(row, event);
    if (refusal) throw new InvalidRequestError(refusal.message);
  }
  // The machine decides again on the rows it locks: a request answered meanwhile is a 409.
  await applyInvoiceEvents(
    trx,
    authorized.map(({ row, event }) => ({ invoiceId: row.id, event })),
    actorRecord(caller),
  );
  const notices = await providerNotices(
    trx,
    authorized.map((a) => a.row),
  );
  const dateOf = new Map(authorized.map((a) => [a.row.id, a.paymentDate]));
  const body: AuthorizeRejectResponse = {
    message: authorized.length === 1 ? CORPORATE_MESSAGES.authorizedOne : CORPORATE_MESSAGES.authorizedMany,
    payment_date_message: paymentDateMessage(authorized),
  };
  return {
    statusCode: 200,
    body,
    afterCommit: async () => {
      for (const notice of notices) {
        await sendToAll(deps.mailer, notice.recipients, {
          subject: `${notice.invoices[0]?.receiver_name ?? 'Tu cliente'} autorizó tu solicitud de adelanto`,
          text: [
            `${notice.invoices[0]?.receiver_name ?? 'Tu cliente'} autorizó estas facturas:`,
            ...notice.invoices.map(
              (row) => `- ${invoiceLabel(row)}, fecha de pago ${displayDate(dateOf.get(row.id) ?? '')}`,
            ),
            `Ya puedes adelantar su pago en ${deps.appBaseUrl}${paths.prontoPago}`,
          ].join('\n'),
        });
      }
    },
  };
}

/** POST corporates/manually-requests/reject/: every listed request PENDING → REJECTED, or none (one batch transition). */
export async function rejectRequests(
  deps: CorporatesDeps,
  trx: Db,
  caller: InvoiceCaller,
  items: RejectRequestsBody,
): Promise<CallOutcome> {
  const rows = await findReceivedInvoices(
    trx,
    caller,
    items.map((item) => item.invoice_id),
  );
  const actor = lifecycleActor(caller, 'corporate');
  const rejected = items.map((item) => rows.get(item.invoice_id) as InvoiceRow);
  await applyInvoiceEvents(
    trx,
    items.map((item) => ({
      invoiceId: (rows.get(item.invoice_id) as InvoiceRow).id,
      event: { type: 'invoice.reject', actor, reason: item.reason?.trim() || undefined },
    })),
    actorRecord(caller),
  );
  const notices = await providerNotices(trx, rejected);
  const body: AuthorizeRejectResponse = {
    message: rejected.length === 1 ? CORPORATE_MESSAGES.rejectedOne : CORPORATE_MESSAGES.rejectedMany,
    payment_date_message: CORPORATE_MESSAGES.rejectedPaymentDate,
  };
  return {
    statusCode: 200,
    body,
    afterCommit: async () => {
      for (const notice of notices) {
        await sendToAll(deps.mailer, notice.recipients, {
          subject: `${notice.invoices[0]?.receiver_name ?? 'Tu cliente'} no autorizó tu solicitud de adelanto`,
          text: [
            `${notice.invoices[0]?.receiver_name ?? 'Tu cliente'} no autorizó el adelanto de estas facturas:`,
            ...notice.invoices.map((row) => `- ${invoiceLabel(row)}`),
            `Consulta el estado de tus facturas en ${deps.appBaseUrl}${paths.prontoPago}`,
          ].join('\n'),
        });
      }
    },
  };
}
