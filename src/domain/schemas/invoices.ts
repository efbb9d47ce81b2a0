import {
  array,
  boolean,
  coerce,
  enums,
  type Infer,
  integer,
  nullable,
  number,
  optional,
  type Struct,
  string,
  type,
  unknown,
} from 'superstruct';
import {
  CORPORATE_STATUS_FILTER_OPTIONS,
  InvoiceStatus,
  type InvoiceStatusFilter,
  isInvoiceStatusFilter,
} from '../invoice-status';
import { isPeriodCode, type PeriodCode } from '../period';
import { PROVIDER_REQUEST_MESSAGES } from '../provider-requests';
import { countIsEstimate, invoiceStatusCode, isoDate, moneyAmount } from './common';
import { checkedField, MESSAGES, pageNumber, pageSize, payload } from './fields';

// Invoices-service payloads and responses (spec §3, §7). Responses use `type()` (extra fields
// tolerated); request bodies use `payload()` (unknown fields stripped on coercion).

/** Indicators that accompany the first page of several lists (spec §3); each list carries a subset. */
export const Indicators = type({
  available_credit: optional(moneyAmount),
  used_credit_percentage: optional(number()),
  payment_date: optional(nullable(isoDate)),
  total_by_date: optional(moneyAmount),
  has_cost_center: optional(boolean()),
  spei_balance: optional(moneyAmount),
  credit_used: optional(moneyAmount),
  total: optional(moneyAmount),
  count: optional(integer()),
  /** The count is a lower bound: a search matched more invoices; total and suppliers_customers are then absent. */
  count_is_estimate: optional(countIsEstimate),
  suppliers_customers: optional(integer()),
  /** The factoring line granted (factoring list, provider statement: the balance card). */
  credit_line: optional(moneyAmount),
  /** Corporate statement only. */
  providers: optional(integer()),
  /** Corporate statement only. */
  cut_off_dates: optional(array(isoDate)),
});
export type Indicators = Infer<typeof Indicators>;

/**
 * A page of an infinite list (page_size 25); the first page also carries indicators and has_factoring.
 * Example: PagedList(Invoice).
 */
export function PagedList<T, S>(item: Struct<T, S>) {
  return type({
    count: integer(),
    /**
     * The invoice lists' answer (decision 0074): true when a search matched more than EXACT_COUNT_LIMIT
     * invoices; `count` is then that limit (there are more) and the indicators leave out the sums.
     */
    count_is_estimate: optional(countIsEstimate),
    next: nullable(string()),
    previous: nullable(string()),
    results: array(item),
    indicators: optional(Indicators),
    has_factoring: optional(boolean()),
  });
}

/** Spec §7: list calls take page and page_size 25. */
export const PAGE_SIZE = 25;

/** The largest page of an invoice list: a page of more is a scraper, not a screen. */
export const MAX_INVOICE_PAGE_SIZE = 100;

/** The paging of an invoice list (spec §7: page, page_size 25). */
export const InvoiceListPaging = payload({
  page: pageNumber(),
  page_size: pageSize(MAX_INVOICE_PAGE_SIZE, PAGE_SIZE),
});

/** The longest search an invoice list takes. */
export const MAX_SEARCH_LENGTH = 100;

/** A query parameter given twice reads as its last value. */
const lastOf = (value: unknown): unknown => (Array.isArray(value) ? value.at(-1) : value);

/** `search`: folio, RFC, client or a word of the description, trimmed; missing is ''. */
function listSearch() {
  return coerce(
    checkedField<string>('listSearch', (value) =>
      typeof value !== 'string'
        ? MESSAGES.invalid
        : value.length <= MAX_SEARCH_LENGTH ||
          `La búsqueda admite como máximo ${MAX_SEARCH_LENGTH} caracteres.`,
    ),
    unknown(),
    (value) => {
      const text = lastOf(value) ?? '';
      return typeof text === 'string' ? text.trim() : text;
    },
  );
}

/** `period`: months of emission, a comma list ('10,20') or repeated; none is every month. */
function listPeriods() {
  return coerce(
    checkedField<PeriodCode[]>(
      'listPeriods',
      (value) => (Array.isArray(value) && value.every(isPeriodCode)) || MESSAGES.invalid,
    ),
    unknown(),
    (value) =>
      [value ?? []]
        .flat()
        .flatMap((text) => (typeof text === 'string' ? text.split(',') : [text]))
        .map((text) => (typeof text === 'string' ? text.trim() : text))
        .filter((text) => text !== '')
        .map((text) => (typeof text === 'string' && /^\d+$/.test(text) ? Number(text) : Number.NaN)),
  );
}

/** `status`: one status code, or 80 (or nothing) for every status; `allowed` narrows the codes a list takes. */
function listStatus(allowed: (code: InvoiceStatusFilter) => boolean = () => true) {
  return coerce(
    checkedField<InvoiceStatusFilter>(
      'listStatus',
      (value) => (isInvoiceStatusFilter(value) && allowed(value)) || MESSAGES.invalid,
    ),
    unknown(),
    (value) => {
      const text = lastOf(value);
      if (typeof text !== 'string' || text.trim() === '') return text ?? InvoiceStatus.ALL;
      return /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
    },
  );
}

/** The query string of an invoice list without a status filter (spec §7): search, period, page, page_size. */
const INVOICE_LIST_FIELDS = {
  search: listSearch(),
  period: listPeriods(),
  page: pageNumber(),
  page_size: pageSize(MAX_INVOICE_PAGE_SIZE, PAGE_SIZE),
};

/** An invoice list's query string with the status filter. */
export const InvoiceListQuery = payload({ ...INVOICE_LIST_FIELDS, status: listStatus() });
export type InvoiceListQuery = Infer<typeof InvoiceListQuery>;

/** An invoice list's query string where the list has no status filter (a status sent is ignored). */
export const InvoiceListQueryNoStatus = payload(INVOICE_LIST_FIELDS);
export type InvoiceListQueryNoStatus = Infer<typeof InvoiceListQueryNoStatus>;

/** The corporate summary's query string: its status among the corporate's filter options (spec §4). */
export const CorporateSummaryQuery = payload({
  ...INVOICE_LIST_FIELDS,
  status: listStatus((code) => CORPORATE_STATUS_FILTER_OPTIONS.some((option) => option.value === code)),
});

/** An invoice as the server lists it (spec §3 'Invoice'). */
export const Invoice = type({
  id: integer(),
  fiscal_folio: string(),
  /**
   * Flujo's addition to the spec's item: the CFDI's Serie and Folio as people quote them ('A-1234'), the folio
   * alone without a serie, null without a folio; absent from servers that follow the spec's item exactly.
   */
  serie_folio: optional(nullable(string())),
  emitter_name: string(),
  emitter_rfc: string(),
  receiver_name: string(),
  receiver_rfc: string(),
  date_of_emission: isoDate,
  payment_date: nullable(isoDate),
  amount: moneyAmount,
  description: string(),
  status: invoiceStatusCode,
  days_payable: nullable(integer()),
  factoring_date: nullable(isoDate),
  amount_with_exchange_rate: nullable(moneyAmount),
  amount_with_exchange_rate_usd: nullable(moneyAmount),
  /** The CFDI TipoCambio as text, '-' when the invoice has none. */
  exchange_rate: string(),
  /** The advance's advisory fee; null on the buyer's lists unless the buyer funds the advance (issue 31). */
  cost_consultancy: nullable(moneyAmount),
  /** Annual percent; null on the buyer's lists unless the buyer funds the advance. */
  factoring_rate: nullable(number()),
  /** Factoring list only (GET providers/factoring/): the record holding a factored invoice, else null. */
  factoring_request_id: optional(nullable(integer())),
});
export type Invoice = Infer<typeof Invoice>;

/** A page of invoices; the first page carries indicators and has_factoring. */
export const InvoicePage = PagedList(Invoice);
export type InvoicePage = Infer<typeof InvoicePage>;

/** A row of providers/know-your-business/ (type resume_indicators). */
export const KnowYourBusinessRow = type({
  indicator_date: string(),
  incomes_mxn: moneyAmount,
  expenses_mxn: moneyAmount,
  incomes_usd: moneyAmount,
  expenses_usd: moneyAmount,
  net_capital_mxn: moneyAmount,
  net_capital_usd: moneyAmount,
  incomes_canceled: moneyAmount,
  expenses_canceled: moneyAmount,
});
export type KnowYourBusinessRow = Infer<typeof KnowYourBusinessRow>;

export const KnowYourBusinessPage = PagedList(KnowYourBusinessRow);
export type KnowYourBusinessPage = Infer<typeof KnowYourBusinessPage>;

/**
 * Early-payment (pronto pago) quote. max_rate is the stored, IVA-inclusive annual percent
 * (display it with displayedAnnualRate); `total` is what the provider receives; `now` is the
 * date the quote was computed, 'YYYY-MM-DD'. Built by quote.ts toQuoteResponse.
 */
export const ForwardPaymentQuote = type({
  max_rate: number(),
  days: integer(),
  cost_financing: moneyAmount,
  cost_consultancy: moneyAmount,
  total: moneyAmount,
  now: string(),
});
export type ForwardPaymentQuote = Infer<typeof ForwardPaymentQuote>;

/** POST providers/request-payment/: ask the customer to authorize an invoice. */
export const RequestPaymentBody = payload({ id_request_factoring: integer() });
export type RequestPaymentBody = Infer<typeof RequestPaymentBody>;

/** Approve an early payment (confirm 'Adelantar pago'). */
export const ApproveForwardPaymentBody = payload({ id_execute_factoring: integer() });
export type ApproveForwardPaymentBody = Infer<typeof ApproveForwardPaymentBody>;

/** Dialog variants (spec §8). */
export const MessageType = enums(['success', 'error', 'info', 'warning']);
export type MessageType = Infer<typeof MessageType>;

/** Replies shown in a dialog: request payment, approve, factoring, factoring-enable. */
export const MessageResponse = type({ message: string(), message_type: MessageType });
export type MessageResponse = Infer<typeof MessageResponse>;

/**
 * One step of an invoice's audit trail (GET /api/invoices/<id>/events/), oldest first: `event` is the lifecycle
 * event ('invoice.authorize') or 'invoice.imported'; `from_status` is null for the import; `actor` is the user
 * name, 'operador Flujo', 'SAT' or 'sincronización SAT'; `at` is an ISO 8601 instant.
 */
export const InvoiceEvent = type({
  event: string(),
  from_status: nullable(integer()),
  to_status: integer(),
  actor: string(),
  reason: nullable(string()),
  at: string(),
});
export type InvoiceEvent = Infer<typeof InvoiceEvent>;

/** GET /api/invoices/<id>/events/: the whole trail, oldest first. */
export const InvoiceEventList = array(InvoiceEvent);

/** GET providers/know-your-business/?type=…: which figures the call answers (spec §7). */
export const KNOW_YOUR_BUSINESS_TYPES = ['income_invoices', 'expense_invoices', 'resume_indicators'] as const;
export type KnowYourBusinessType = (typeof KNOW_YOUR_BUSINESS_TYPES)[number];

export function isKnowYourBusinessType(value: unknown): value is KnowYourBusinessType {
  return typeof value === 'string' && (KNOW_YOUR_BUSINESS_TYPES as readonly string[]).includes(value);
}

/** Know your business's query string: what to read, and the list's filters. */
export const KnowYourBusinessQuery = payload({
  ...INVOICE_LIST_FIELDS,
  type: coerce(
    checkedField<KnowYourBusinessType>(
      'knowYourBusinessType',
      (value) => isKnowYourBusinessType(value) || PROVIDER_REQUEST_MESSAGES.knowYourBusinessType,
    ),
    unknown(),
    lastOf,
  ),
});
export type KnowYourBusinessQuery = Infer<typeof KnowYourBusinessQuery>;
