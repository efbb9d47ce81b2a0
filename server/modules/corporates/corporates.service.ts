import { array, type Infer, integer, optional, size, string, union } from 'superstruct';
import type { IsoDate } from '../../../src/domain/calendar-date';
import { InvoiceStatus, PROVIDER_STATUS_LABELS } from '../../../src/domain/invoice-status';
import { paths } from '../../../src/domain/paths';
import { PAYMENT_DATE_TOO_FAR, paymentDateError } from '../../../src/domain/payment-date';
import { payload, paymentDate } from '../../../src/domain/schemas/fields';
import type { AuthorizeRejectResponse } from '../../../src/domain/schemas/quotations';
import type { Db } from '../../db/database';
import { FieldErrors } from '../../http/errors';
import type { Mailer } from '../../mail/mailer';
import { findCompanyBalances } from '../accounts/company.repository';
import type { CallOutcome } from '../idempotency/idempotency.service';
import { type InvoiceRow, lockInvoicesReceivedBy } from '../invoices/invoice.repository';
import {
  actorRecord,
  type InvoiceCaller,
  InvoiceRequestError,
  invoiceLabel,
  lifecycleActor,
  MAX_SERIAL,
} from '../invoices/invoice-access';
import type { InvoiceListResult } from '../invoices/invoice-list';
import { companyRecipients, displayDate, sendToAll } from '../invoices/invoice-notifications';
import { applyInvoiceEvent, IllegalTransitionError } from '../invoices/lifecycle.service';

export interface CorporatesDeps {
  db: Db;
  mailer: Mailer;
  appBaseUrl: string;
}

/** NOTE: a request is one transaction holding a row lock per invoice; a bigger batch belongs to bulk upload. */
export const MAX_INVOICES_PER_REQUEST = 500;
const MAX_REASON_LENGTH = 500;

/** An invoice in a corporate request: its numeric id, or its folio fiscal (UUID). */
const invoiceRef = union([integer(), string()]);

/** POST corporates/manually-requests/authorize/: [{invoice_id, payment_date}]. */
export const AuthorizeRequestsBody = array(payload({ invoice_id: invoiceRef, payment_date: paymentDate() }));
export type AuthorizeRequestsBody = Infer<typeof AuthorizeRequestsBody>;

/** POST corporates/manually-requests/reject/: [{invoice_id}] and, optionally, why. */
export const RejectRequestsBody = array(
  payload({ invoice_id: invoiceRef, reason: optional(size(string(), 0, MAX_REASON_LENGTH)) }),
);
export type RejectRequestsBody = Infer<typeof RejectRequestsBody>;

export const CORPORATE_MESSAGES = {
  empty: 'Selecciona al menos una factura.',
  tooMany: `Puedes enviar como máximo ${MAX_INVOICES_PER_REQUEST} facturas por solicitud.`,
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

/** Checks the list's size; the items themselves were validated by their struct. */
export function assertBatchSize(items: readonly unknown[]): void {
  if (items.length === 0) throw new FieldErrors({ _form: [CORPORATE_MESSAGES.empty] });
  if (items.length > MAX_INVOICES_PER_REQUEST) throw new FieldErrors({ _form: [CORPORATE_MESSAGES.tooMany] });
}

/** The first page's extras of corporates/manually-requests/. */
export async function requestsListExtras(db: Db, caller: InvoiceCaller, result: InvoiceListResult) {
  const company = await findCompanyBalances(db, caller.companyId);
  return {
    indicators: { total: result.total, count: result.count, suppliers_customers: result.counterparts },
    has_factoring: company.has_factoring,
  };
}

type Ref = string | number;

function refText(ref: Ref): string {
  return String(ref);
}

function refId(ref: Ref): number | null {
  if (typeof ref === 'number') return ref;
  return /^\d{1,10}$/.test(ref.trim()) ? Number(ref.trim()) : null;
}

/**
 * Locks the caller's received invoices named by the refs, in id order (two batches over the same invoices
 * then lock them in the same order and cannot deadlock). A ref that is not one of them is a 404 naming it;
 * the same invoice twice is a 400.
 */
async function lockReceivedInvoices(trx: Db, caller: InvoiceCaller, refs: readonly Ref[]) {
  const ids = refs.map(refId).filter((id): id is number => id !== null && id > 0 && id <= MAX_SERIAL);
  const uuids = refs.filter((ref): ref is string => typeof ref === 'string' && refId(ref) === null);
  const rows = await lockInvoicesReceivedBy(trx, caller.companyId, {
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
    if (!row) throw new InvoiceRequestError(404, `Factura no encontrada: ${refText(ref)}.`);
    if (seen.has(row.id)) {
      throw new FieldErrors({ _form: [`La factura ${invoiceLabel(row)} aparece más de una vez.`] });
    }
    seen.add(row.id);
    byRef.set(ref, row);
  }
  return byRef;
}

function notPending(row: InvoiceRow): InvoiceRequestError {
  return new InvoiceRequestError(
    409,
    `La factura ${invoiceLabel(row)} no tiene una solicitud pendiente: su estado es «${PROVIDER_STATUS_LABELS[row.status]}».`,
  );
}

/** Groups the invoices per provider company and reads their users' addresses (inside the transaction). */
async function providerNotices(trx: Db, rows: readonly InvoiceRow[]) {
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

function paymentDateMessage(items: readonly { row: InvoiceRow; paymentDate: IsoDate }[]): string {
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
 * date, or none (one transaction). The 150-day rule is the lifecycle machine's guard; when it refuses, the
 * answer names the invoice.
 */
export async function authorizeRequests(
  deps: CorporatesDeps,
  trx: Db,
  caller: InvoiceCaller,
  items: AuthorizeRequestsBody,
  today: IsoDate,
): Promise<CallOutcome> {
  const rows = await lockReceivedInvoices(
    trx,
    caller,
    items.map((item) => item.invoice_id),
  );
  const authorized: { row: InvoiceRow; paymentDate: IsoDate }[] = [];
  for (const item of items) {
    const row = rows.get(item.invoice_id) as InvoiceRow;
    if (row.status !== InvoiceStatus.PENDING) throw notPending(row);
    if (item.payment_date <= today) {
      throw new InvalidRequestError(
        `La fecha de pago de la factura ${invoiceLabel(row)} debe ser posterior a hoy.`,
      );
    }
    try {
      await applyInvoiceEvent(
        trx,
        row.id,
        {
          type: 'invoice.authorize',
          actor: lifecycleActor(caller, 'corporate'),
          paymentDate: item.payment_date,
        },
        actorRecord(caller),
      );
    } catch (error) {
      if (
        error instanceof IllegalTransitionError &&
        paymentDateError(row.date_of_emission, item.payment_date) === PAYMENT_DATE_TOO_FAR
      ) {
        throw new InvalidRequestError(
          `La fecha de pago de la factura ${invoiceLabel(row)} excede el rango permitido de 150 días desde su emisión (${displayDate(row.date_of_emission)}).`,
        );
      }
      throw error;
    }
    authorized.push({ row, paymentDate: item.payment_date });
  }
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

/** POST corporates/manually-requests/reject/: every listed request PENDING → REJECTED, or none. */
export async function rejectRequests(
  deps: CorporatesDeps,
  trx: Db,
  caller: InvoiceCaller,
  items: RejectRequestsBody,
): Promise<CallOutcome> {
  const rows = await lockReceivedInvoices(
    trx,
    caller,
    items.map((item) => item.invoice_id),
  );
  const rejected: InvoiceRow[] = [];
  for (const item of items) {
    const row = rows.get(item.invoice_id) as InvoiceRow;
    if (row.status !== InvoiceStatus.PENDING) throw notPending(row);
    const reason = item.reason?.trim() || undefined;
    await applyInvoiceEvent(
      trx,
      row.id,
      { type: 'invoice.reject', actor: lifecycleActor(caller, 'corporate'), reason },
      actorRecord(caller),
    );
    rejected.push(row);
  }
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
