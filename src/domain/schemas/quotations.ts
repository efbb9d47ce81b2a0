import {
  array,
  type Infer,
  integer,
  number,
  optional,
  record,
  size,
  string,
  type,
  union,
  unknown,
} from 'superstruct';
import { isoDate, moneyAmount } from './common';
import { batchOf, bulkPaymentDate, payload, paymentDate } from './fields';

// Corporate quotation payloads and responses (spec §3, §7).

/** Invoice reference in quotation lists: the folio (quotation resume/fetch) or the numeric id. */
const invoiceRef = union([string(), integer()]);

/** One line of the list payload sent to the quote, accept, pre-approve and authorize calls. */
/**
 * The quotation calls, relative to the invoices API's base (`/api` unless the build says otherwise): the browser's
 * service, the model tests and the browser paths name them from here. ('qoute' is the spec's spelling.)
 */
export const QUOTATION_PATHS = {
  quote: '/corporates/quotes/',
  preApprove: '/corporates/quotes/pre-approved/',
  accept: '/corporates/quotes/accepted/',
  payProviders: '/corporates/full-payment/qoute/',
  reject: '/corporates/quotes/rejected/',
} as const;

export const QuotationListItem = payload({ invoice_id: invoiceRef, payment_date: isoDate });
export type QuotationListItem = Infer<typeof QuotationListItem>;

export const QuotationList = array(QuotationListItem);
export type QuotationList = Infer<typeof QuotationList>;

/** The reject calls send only the invoice ids. */
export const RejectListItem = payload({ invoice_id: invoiceRef });
export type RejectListItem = Infer<typeof RejectListItem>;

export const RejectList = array(RejectListItem);
export type RejectList = Infer<typeof RejectList>;

/** NOTE: a request is one transaction holding a row lock per invoice; a bigger batch belongs to bulk upload. */
export const MAX_INVOICES_PER_REQUEST = 500;
export const MAX_REASON_LENGTH = 500;

/** What a list of at most `max` selected invoices says when it is empty or too long. */
export function invoiceBatchMessages(max: number) {
  return {
    empty: 'Selecciona al menos una factura.',
    tooMany: `Puedes enviar como máximo ${max} facturas por solicitud.`,
  } as const;
}

/** What a list of selected invoices says when it is empty or too long (corporate requests, downloads). */
export const INVOICE_BATCH_MESSAGES = invoiceBatchMessages(MAX_INVOICES_PER_REQUEST);

/** An invoice in a corporate request: its numeric id, or its folio fiscal (UUID). */
export const requestRef = union([integer(), string()]);

/** POST corporates/manually-requests/authorize/: 1..500 × {invoice_id, payment_date}. */
export const AuthorizeRequestsBody = batchOf(
  payload({ invoice_id: requestRef, payment_date: paymentDate() }),
  MAX_INVOICES_PER_REQUEST,
  INVOICE_BATCH_MESSAGES,
);
export type AuthorizeRequestsBody = Infer<typeof AuthorizeRequestsBody>;

/** POST corporates/manually-requests/reject/: 1..500 × {invoice_id} and, optionally, why. */
export const RejectRequestsBody = batchOf(
  payload({ invoice_id: requestRef, reason: optional(size(string(), 0, MAX_REASON_LENGTH)) }),
  MAX_INVOICES_PER_REQUEST,
  INVOICE_BATCH_MESSAGES,
);
export type RejectRequestsBody = Infer<typeof RejectRequestsBody>;

/** Variant A (POST /corporates/quotes/): invoices to quote and their totals. */
export const QuotationA = type({
  quotes: array(
    type({
      id: integer(),
      emitter_name: string(),
      description: string(),
      fiscal_folio: string(),
      amount: moneyAmount,
      payment_date: isoDate,
      emitter_rfc: string(),
      remaining_days: integer(),
    }),
  ),
  resume: type({
    total_quote: moneyAmount,
    total_quote_usd: moneyAmount,
    total_invoices: integer(),
  }),
});
export type QuotationA = Infer<typeof QuotationA>;

/** Variant B: the quotation resume of a buyer-paid quote, with financing costs. */
export const QuotationB = type({
  quotes: array(
    type({
      fiscal_folio: string(),
      amount: moneyAmount,
      cost_financing: moneyAmount,
      remaining_days: integer(),
    }),
  ),
  resume: type({
    /** Annual percent. */
    rate: number(),
    total_invoices: integer(),
    total_financing: moneyAmount,
    total_consultancy: moneyAmount,
    total: moneyAmount,
  }),
});
export type QuotationB = Infer<typeof QuotationB>;

/** POST /corporates/quotes/pre-approved/. */
export const PreApprovedResponse = type({
  message: string(),
  payment_date_message: string(),
  total_quote: moneyAmount,
  total_invoices: integer(),
});
export type PreApprovedResponse = Infer<typeof PreApprovedResponse>;

/** Authorize or reject requests. */
export const AuthorizeRejectResponse = type({ message: string(), payment_date_message: string() });
export type AuthorizeRejectResponse = Infer<typeof AuthorizeRejectResponse>;

/** The non-file field of the bulk (zip) authorization form; payment_date sent as 'YYYY-MM-DD'. */
export const BulkAuthorizationForm = payload({ payment_date: bulkPaymentDate() });
export type BulkAuthorizationForm = Infer<typeof BulkAuthorizationForm>;

/** POST /corporates/upload/zip/: must be an array, else it is an error (spec §5). */
export const ZipUploadResponse = array(type({ invoice_id: invoiceRef, payment_date: isoDate }));
export type ZipUploadResponse = Infer<typeof ZipUploadResponse>;

/** POST /corporates/upload/excel/: a non-empty validation_errors means the upload failed; its bounds are not specified. */
export const ExcelUploadResponse = type({
  validation_errors: union([array(unknown()), record(string(), unknown())]),
});
export type ExcelUploadResponse = Infer<typeof ExcelUploadResponse>;

/** Quotation template (xlsx) upload. */
export const TemplateUploadResponse = type({
  processed_invoices: array(type({ fiscal_folio: string(), payment_date: isoDate })),
});
export type TemplateUploadResponse = Infer<typeof TemplateUploadResponse>;
