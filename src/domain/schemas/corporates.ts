import {
  array,
  enums,
  type Infer,
  integer,
  nullable,
  number,
  optional,
  record,
  size,
  string,
  type,
} from 'superstruct';
import { countIsEstimate, isoDate, moneyAmount } from './common';
import { batchOf, payload, paymentDate } from './fields';
import { Invoice, InvoicePage } from './invoices';
import {
  AuthorizeRejectResponse,
  BulkAuthorizationForm,
  invoiceBatchMessages,
  MAX_REASON_LENGTH,
  PreApprovedResponse,
  requestRef,
} from './quotations';

// The corporate buyer's calls of issue 13 (spec §7 "Corporate"): summary, pre-authorization list, the quote
// and its outcomes. Responses use `type()`; request bodies `payload()` and `batchOf()` (fields.ts).

/**
 * Lines per quote, accept, pre-approve, reject or full-payment call: each call is one transaction that locks
 * every listed invoice, all or nothing.
 */
export const MAX_QUOTATION_INVOICES = 1000;

/** What a quotation batch says when it is empty or longer than MAX_QUOTATION_INVOICES. */
export const QUOTATION_BATCH_MESSAGES = invoiceBatchMessages(MAX_QUOTATION_INVOICES);

/** Currencies an invoice can carry (others are converted to MXN on import). */
export const QuoteCurrency = enums(['MXN', 'USD']);
export type QuoteCurrency = Infer<typeof QuoteCurrency>;

/**
 * One line of the body of POST corporates/quotes/, …/quotes/pre-approved/, …/quotes/accepted/ and
 * corporates/full-payment/qoute/: the invoice (numeric id or folio fiscal) and its payment date 'YYYY-MM-DD'
 * ('Requerido' / 'Debe ser una fecha válida'; the 150-day rule is the lifecycle machine's).
 */
export const QuotationLine = payload({ invoice_id: requestRef, payment_date: paymentDate() });
export type QuotationLine = Infer<typeof QuotationLine>;

/** The body of the quote, pre-approve, accept and full-payment calls: 1..1,000 lines. */
export const QuotationLinesBody = batchOf(QuotationLine, MAX_QUOTATION_INVOICES, QUOTATION_BATCH_MESSAGES);
export type QuotationLinesBody = Infer<typeof QuotationLinesBody>;

/** POST corporates/quotes/rejected/ ('Rechazar Cotización'): 1..1,000 × {invoice_id} and, optionally, why. */
export const RejectQuotationBody = batchOf(
  payload({ invoice_id: requestRef, reason: optional(size(string(), 0, MAX_REASON_LENGTH)) }),
  MAX_QUOTATION_INVOICES,
  QUOTATION_BATCH_MESSAGES,
);
export type RejectQuotationBody = Infer<typeof RejectQuotationBody>;

/**
 * A quoted invoice (POST corporates/quotes/): the spec's variant A line plus the figures of the early payment,
 * all in the invoice's own currency. max_rate is the alliance's IVA-inclusive annual percent; annual_rate is
 * what users see ('tasa + IVA', max_rate / 1.16, two decimals); remaining_days counts from today to the
 * payment date; cost_consultancy includes its IVA, shown apart as `iva`; net_amount is what the provider
 * receives when it absorbs the cost (amount − cost_financing − cost_consultancy).
 */
export const CorporateQuote = type({
  id: integer(),
  fiscal_folio: string(),
  serie_folio: optional(nullable(string())),
  emitter_name: string(),
  emitter_rfc: string(),
  description: string(),
  currency: QuoteCurrency,
  amount: moneyAmount,
  payment_date: isoDate,
  remaining_days: integer(),
  max_rate: number(),
  annual_rate: string(),
  cost_financing: moneyAmount,
  cost_consultancy: moneyAmount,
  iva: moneyAmount,
  net_amount: moneyAmount,
});
export type CorporateQuote = Infer<typeof CorporateQuote>;

/**
 * Totals of a quote, per currency (the MXN figure without suffix, the USD one with `_usd`): invoice amounts
 * (total_quote), financing, consultancy (IVA included), its IVA and the net to the providers. Removing a line
 * lowers each by that line's figures and total_invoices by one (src/domain/corporate-quote.ts quoteResume).
 */
export const CorporateQuoteResume = type({
  total_quote: moneyAmount,
  total_quote_usd: moneyAmount,
  total_invoices: integer(),
  total_financing: moneyAmount,
  total_financing_usd: moneyAmount,
  total_consultancy: moneyAmount,
  total_consultancy_usd: moneyAmount,
  total_iva: moneyAmount,
  total_iva_usd: moneyAmount,
  total_net: moneyAmount,
  total_net_usd: moneyAmount,
});
export type CorporateQuoteResume = Infer<typeof CorporateQuoteResume>;

/** POST corporates/quotes/: the quoted lines, in the order sent, and their totals. */
export const CorporateQuotation = type({
  quotes: array(CorporateQuote),
  resume: CorporateQuoteResume,
});
export type CorporateQuotation = Infer<typeof CorporateQuotation>;

/**
 * POST corporates/quotes/pre-approved/ (the provider absorbs the cost): every line → Autorizada with its
 * payment date. message, payment_date_message, and the spec's total_quote (MXN amounts) and total_invoices.
 */
export const PreApprovedQuotationResponse = PreApprovedResponse;
export type PreApprovedQuotationResponse = Infer<typeof PreApprovedQuotationResponse>;

/**
 * A line of the quotation resume the buyer accepted (spec §3 variant B, plus id, folio, provider and currency):
 * what the buyer pays for advancing this invoice, in its currency.
 */
export const BuyerCostLine = type({
  id: integer(),
  fiscal_folio: string(),
  serie_folio: optional(nullable(string())),
  emitter_name: string(),
  currency: QuoteCurrency,
  amount: moneyAmount,
  payment_date: isoDate,
  remaining_days: integer(),
  cost_financing: moneyAmount,
  cost_consultancy: moneyAmount,
});
export type BuyerCostLine = Infer<typeof BuyerCostLine>;

/**
 * The resume of a buyer-paid quotation (spec §3 variant B): rate is the highest alliance max_rate of the lines
 * (annual percent, IVA included); total = total_financing + total_consultancy, the buyer's cost; MXN without
 * suffix, USD with `_usd`.
 */
export const BuyerCostResume = type({
  rate: number(),
  total_invoices: integer(),
  total_financing: moneyAmount,
  total_consultancy: moneyAmount,
  total: moneyAmount,
  total_financing_usd: moneyAmount,
  total_consultancy_usd: moneyAmount,
  total_usd: moneyAmount,
});
export type BuyerCostResume = Infer<typeof BuyerCostResume>;

/**
 * POST corporates/quotes/accepted/ (the buyer absorbs the cost): every line → Autorizada with its payment date,
 * its advance funded by the buyer (docs/decisions/0028); the answer carries the quotation resume the dialog
 * shows with 'Pagar a Proveedores' and 'Rechazar Cotización'.
 */
export const AcceptedQuotationResponse = type({
  message: string(),
  payment_date_message: string(),
  quotes: array(BuyerCostLine),
  resume: BuyerCostResume,
});
export type AcceptedQuotationResponse = Infer<typeof AcceptedQuotationResponse>;

/** POST corporates/quotes/rejected/ and corporates/full-payment/qoute/: message and payment_date_message. */
export const QuotationOutcomeResponse = AuthorizeRejectResponse;
export type QuotationOutcomeResponse = Infer<typeof QuotationOutcomeResponse>;

/** The three indicators of the corporate summary's first page: invoices, clients, total amount per currency. */
export const CorporateSummaryIndicators = type({
  count: integer(),
  /** The count is a lower bound (decision 0074): a search matched more; the sums below are then absent. */
  count_is_estimate: optional(countIsEstimate),
  suppliers_customers: optional(integer()),
  /** Sum of the MXN invoices' amounts. */
  total: optional(moneyAmount),
  /** Sum of the USD invoices' amounts. */
  total_usd: optional(moneyAmount),
});
export type CorporateSummaryIndicators = Infer<typeof CorporateSummaryIndicators>;

/**
 * GET corporates/summary/ (search, period, status, page, page_size 25): received invoices, newest emission
 * first; rows are the provider list's Invoice (emitter_rfc, emitter_name and receiver_rfc included); the first
 * page carries the indicators.
 */
export const CorporateSummaryPage = type({
  count: integer(),
  /** As every invoice list's (PagedList): the count is a lower bound (decision 0074). */
  count_is_estimate: optional(countIsEstimate),
  next: nullable(string()),
  previous: nullable(string()),
  results: array(Invoice),
  indicators: optional(CorporateSummaryIndicators),
});
export type CorporateSummaryPage = Infer<typeof CorporateSummaryPage>;

/**
 * GET corporates/pre-authorization/ (search, page, page_size 25): received invoices the corporate may still
 * pre-authorize (Por Autorizar, Solicitado, Rechazada), newest emission first.
 */
export const PreAuthorizationPage = InvoicePage;
export type PreAuthorizationPage = Infer<typeof PreAuthorizationPage>;

// Bulk authorization by file (issue 14, docs/decisions/0032-bulk-uploads.md).

/** A line an upload hands to the quotation: the invoice's id and its payment date ('YYYY-MM-DD'). */
export const BulkUploadLine = type({ invoice_id: integer(), payment_date: isoDate });
export type BulkUploadLine = Infer<typeof BulkUploadLine>;

/**
 * The non-file field of POST corporates/upload/zip/ (multipart, beside zip_file): the one payment date of
 * every invoice of the ZIP ('Requerido', 'Debe ser una fecha válida', 1900-01-01 to 2099-12-31).
 */
export const ZipUploadForm = BulkAuthorizationForm;
export type ZipUploadForm = Infer<typeof ZipUploadForm>;

/** POST corporates/upload/zip/: one line per XML of the ZIP, in the ZIP's order (spec §3: an array). */
export const ZipBulkUploadResponse = array(BulkUploadLine);
export type ZipBulkUploadResponse = Infer<typeof ZipBulkUploadResponse>;

/** A file of the ZIP that was refused, and why (Spanish). */
export const RefusedZipFile = type({ name: string(), reason: string() });
export type RefusedZipFile = Infer<typeof RefusedZipFile>;

/**
 * The 400 of POST corporates/upload/zip/ when entries are bad: detail names every bad file, one per line (what
 * the error dialog shows), files lists them for a client that wants a table. Nothing was imported.
 */
export const ZipUploadRefusal = type({ detail: string(), files: array(RefusedZipFile) });
export type ZipUploadRefusal = Infer<typeof ZipUploadRefusal>;

/** A processed row of the template: the invoice (id and folio fiscal) and the payment date written for it. */
export const TemplateUploadLine = type({
  invoice_id: integer(),
  fiscal_folio: string(),
  payment_date: isoDate,
});
export type TemplateUploadLine = Infer<typeof TemplateUploadLine>;

/**
 * POST corporates/upload/excel/ (also the spec's quotation template upload): the rows with a payment date, or,
 * when any row is wrong, no rows and validation_errors: '<row>.<column>' → [Spanish message naming the row and
 * the column] ('_form' for the sheet as a whole). Non-empty validation_errors means nothing was processed.
 */
export const TemplateUploadResult = type({
  processed_invoices: array(TemplateUploadLine),
  validation_errors: record(string(), array(string())),
});
export type TemplateUploadResult = Infer<typeof TemplateUploadResult>;
