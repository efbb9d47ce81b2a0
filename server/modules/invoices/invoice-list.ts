import type { FastifyRequest } from 'fastify';
import { daysBetween, type IsoDate } from '../../../src/domain/calendar-date';
import {
  InvoiceStatus,
  type InvoiceStatusCode,
  type InvoiceStatusFilter,
} from '../../../src/domain/invoice-status';
import { cappedCount, EXACT_COUNT_LIMIT } from '../../../src/domain/list-count';
import { formatMoneyAmount, parseMoney } from '../../../src/domain/money';
import { type PeriodCode, periodsToRanges } from '../../../src/domain/period';
import {
  type Indicators,
  type Invoice,
  InvoiceListQueryNoStatus,
  InvoiceListQuery as InvoiceListQueryStruct,
  MAX_INVOICE_PAGE_SIZE,
  MAX_SEARCH_LENGTH,
  PAGE_SIZE,
} from '../../../src/domain/schemas/invoices';
import type { Db } from '../../db/database';
import type { ParameterDoc } from '../../http/openapi';
import { PAGE_PARAM, pageLinks } from '../../http/paging';
import {
  findInvoiceListPage,
  type InvoiceListFilter,
  type InvoiceListRow,
  type InvoiceSide,
  type ListCompanyBalances,
} from './invoice.repository';

/** Filters and paging of an invoice list (spec §7: search, period, status, page, page_size 25). */
export interface InvoiceListQuery {
  search: string;
  /** Empty: every month. */
  periods: PeriodCode[];
  status: InvoiceStatusFilter;
  page: number;
  pageSize: number;
}

/** The filters of an invoice list's query string, for the OpenAPI document; `status` only where the list has it. */
export function invoiceListQueryDoc(
  options: { status: boolean } = { status: true },
): Record<string, ParameterDoc> {
  return {
    search: {
      description: `Folio, RFC, cliente o palabra de la descripción (máximo ${MAX_SEARCH_LENGTH} caracteres).`,
      schema: { type: 'string', maxLength: MAX_SEARCH_LENGTH },
    },
    period: {
      description:
        'Meses de emisión: códigos separados por comas o repetidos (10,20); sin valor, todos los meses.',
      schema: { type: 'string' },
    },
    ...(options.status
      ? {
          status: {
            description: `Estado de la factura; ${InvoiceStatus.ALL} (o sin valor) para todos.`,
            schema: { type: 'integer' },
          },
        }
      : {}),
    page: PAGE_PARAM,
    page_size: {
      description: `Facturas por página (máximo ${MAX_INVOICE_PAGE_SIZE}).`,
      schema: { type: 'integer', minimum: 1, maximum: MAX_INVOICE_PAGE_SIZE, default: PAGE_SIZE },
    },
  };
}

/** An invoice list's query string after the request hook: with or without the status filter. */
export type InvoiceListQueryString = InvoiceListQueryNoStatus & { status?: InvoiceStatusFilter };

/**
 * The list's filters from its query string, as the request hook left it (InvoiceListQuery or
 * InvoiceListQueryNoStatus, declared on the route): a bad value was already a 400 {field: ['Valor no válido']}.
 * A list without a status filter reads every status.
 */
export function invoiceListQuery(query: InvoiceListQueryString): InvoiceListQuery {
  return {
    search: query.search,
    periods: query.period,
    status: query.status ?? InvoiceStatus.ALL,
    page: query.page,
    pageSize: query.page_size,
  };
}

/** An invoice list route's query declaration: the OpenAPI descriptions and the struct the request hook checks. */
export function invoiceListQueryDecl(options: { status: boolean } = { status: true }) {
  return {
    query: invoiceListQueryDoc(options),
    queryStruct: options.status ? InvoiceListQueryStruct : InvoiceListQueryNoStatus,
  };
}

export interface InvoiceListScope {
  companyId: number;
  /** emitter: the provider's own invoices; receiver: the corporate's. */
  side: InvoiceSide;
  /** Restricts the list to one status whatever the filter says (the corporate's requests: PENDING). */
  onlyStatus?: InvoiceStatusCode;
  /** Restricts the list to these statuses; the status filter narrows within them (advanced invoices). */
  statuses?: readonly InvoiceStatusCode[];
  today: IsoDate;
}

export interface InvoiceListResult {
  /** The matches; past EXACT_COUNT_LIMIT a search's count is that limit and countIsEstimate is true. */
  count: number;
  /**
   * True when a search the kept words cannot answer matched more than `count` invoices (decisions 0074, 0075):
   * the sums below are then null.
   */
  countIsEstimate: boolean;
  rows: InvoiceListRow[];
  /** Sum of the MXN amounts of every matching invoice (not only this page). */
  total: string | null;
  /** Distinct counterparts (customers of a provider, providers of a corporate) among the matches. */
  counterparts: number | null;
  /** Sums of the matches' own amounts, USD invoices apart from the rest (the corporate summary's cards). */
  byCurrency: { mxn: string; usd: string } | null;
  /** The company's balances and factoring flag, when the caller asked for them (a first page's extras). */
  balances: ListCompanyBalances | null;
}

/** The repository's filter for a list: the scope's restrictions and the query's filters, resolved. */
export function listFilter(scope: InvoiceListScope, query: InvoiceListQuery): InvoiceListFilter {
  return {
    companyId: scope.companyId,
    side: scope.side,
    status: scope.onlyStatus ?? (query.status === InvoiceStatus.ALL ? null : query.status),
    statuses: scope.statuses,
    emissionRanges: periodsToRanges(query.periods, scope.today),
    search: query.search,
  };
}

/**
 * A row as the invoice's buyer may see it: the price its provider pays for an advance (cost_consultancy,
 * factoring_rate) is a deal the buyer is not party to, so it goes empty (the list item allows null); when the
 * buyer funds the advance itself those are its own terms and stay.
 */
function asTheBuyerSeesIt(row: InvoiceListRow): InvoiceListRow {
  return row.buyer_funds_advance ? row : { ...row, cost_consultancy: null, factoring_rate: null };
}

/**
 * A list browsed rather than searched: no search and no period. Its answers repeat (the first page, a status tab),
 * so a process keeps them (decision 0077), and its statement has one good plan whatever its values, so PostgreSQL
 * keeps that prepared (decision 0076); a search's right plan depends on its pattern.
 */
export function isBrowsing(query: Pick<InvoiceListQuery, 'search' | 'periods'>): boolean {
  return query.search === '' && query.periods.length === 0;
}

/**
 * One page of a company's invoices, newest emission first, with the totals of every match and, when asked, the
 * company's balances: one query (decision 0039). A search counts at most `countLimit` matches exactly (the
 * product's EXACT_COUNT_LIMIT; a test may lower it): past it the count is the limit, flagged as an estimate, and
 * the sums are left out (decision 0074), unless the search is one word the kept words answer exactly at any size
 * (decision 0075). The page's rows are exact either way.
 */
export async function listInvoices(
  db: Db,
  scope: InvoiceListScope,
  query: InvoiceListQuery,
  options: { balances?: boolean; countLimit?: number } = {},
): Promise<InvoiceListResult> {
  const countLimit = options.countLimit ?? EXACT_COUNT_LIMIT;
  const { summary, rows, balances } = await findInvoiceListPage(
    db,
    listFilter(scope, query),
    { limit: query.pageSize, offset: (query.page - 1) * query.pageSize },
    { balances: options.balances === true, countLimit, prepared: isBrowsing(query) },
  );
  // Only a search's recheck is capped; any other list's count, and a one-word search's, is exact whatever its size.
  const { count, isEstimate } = summary.exact
    ? { count: summary.count, isEstimate: false }
    : cappedCount(summary.count, countLimit);
  return {
    count,
    countIsEstimate: isEstimate,
    rows: scope.side === 'receiver' ? rows.map(asTheBuyerSeesIt) : rows,
    total: isEstimate ? null : formatMoneyAmount(parseMoney(summary.total)),
    counterparts: isEstimate ? null : summary.counterparts,
    byCurrency: isEstimate ? null : { mxn: summary.ownMxn, usd: summary.ownUsd },
    balances,
  };
}

/**
 * The indicators every invoice list's first page shares: the count, whether it is a lower bound, and the sums
 * of the matches (total, suppliers_customers), which are left out when the count is one (decision 0074).
 */
export function matchIndicators(result: InvoiceListResult): {
  count: number;
  count_is_estimate: boolean;
  total?: string;
  suppliers_customers?: number;
} {
  return {
    count: result.count,
    count_is_estimate: result.countIsEstimate,
    ...(result.total === null ? {} : { total: result.total }),
    ...(result.counterparts === null ? {} : { suppliers_customers: result.counterparts }),
  };
}

/** numeric(18,6) '17.245000' → '17.245'; at least two decimals are kept ('20.00'). */
/** The CFDI TipoCambio as the lists send it: '16.7948', '-' for none (spec §3). */
export function exchangeRateText(rate: string | null): string {
  if (rate === null) return '-';
  const [whole, fraction = ''] = rate.split('.');
  return `${whole}.${fraction.replace(/0+$/, '').padEnd(2, '0')}`;
}

/** The CFDI's own numbering as people quote it: 'A-1234', '1234' without a serie, null without a folio. */
export function serieFolio(serie: string | null, folio: string | null): string | null {
  if (!folio) return null;
  return serie ? `${serie}-${folio}` : folio;
}

/**
 * An invoice as the lists send it (spec §3). `amount` is in the CFDI's currency; amount_with_exchange_rate
 * is its MXN value and amount_with_exchange_rate_usd the dollar amount of a USD invoice (null for MXN);
 * days_payable counts calendar days from today to the payment date.
 */
export function toInvoiceItem(row: InvoiceListRow, today: IsoDate): Invoice {
  return {
    id: row.id,
    fiscal_folio: row.cfdi_uuid,
    serie_folio: serieFolio(row.serie, row.folio),
    emitter_name: row.emitter_name,
    emitter_rfc: row.emitter_rfc,
    receiver_name: row.receiver_name,
    receiver_rfc: row.receiver_rfc,
    date_of_emission: row.date_of_emission,
    payment_date: row.payment_date,
    amount: row.amount,
    description: row.description,
    status: row.status as InvoiceStatusCode,
    days_payable: row.payment_date === null ? null : daysBetween(today, row.payment_date),
    factoring_date: row.factoring_date,
    amount_with_exchange_rate: row.amount_with_exchange_rate,
    amount_with_exchange_rate_usd: row.currency === 'USD' ? row.amount : null,
    exchange_rate: exchangeRateText(row.exchange_rate),
    cost_consultancy: row.cost_consultancy,
    factoring_rate: row.factoring_rate === null ? null : Number(row.factoring_rate),
  };
}

export interface InvoicePageBody {
  count: number;
  count_is_estimate: boolean;
  next: string | null;
  previous: string | null;
  results: Invoice[];
  indicators?: Indicators;
  has_factoring?: boolean;
}

/**
 * The paged body (spec §3). A page past the end answers an empty `results` rather than DRF's 404, so an
 * infinite list whose filter just lost rows never shows an error. The first page carries the extras. When the
 * count is a lower bound, a full page links to the next one even past it (the matches go on).
 */
export function invoicePage(
  request: FastifyRequest,
  query: InvoiceListQuery,
  result: InvoiceListResult,
  today: IsoDate,
  firstPageExtras: { indicators: Indicators; has_factoring: boolean } | null,
): InvoicePageBody {
  // The matches known to exist: past a lower-bound count, those up to this page and one more if it is full.
  const seen = (query.page - 1) * query.pageSize + result.rows.length;
  const known = result.countIsEstimate
    ? Math.max(result.count, seen + (result.rows.length === query.pageSize ? 1 : 0))
    : result.count;
  const body: InvoicePageBody = {
    ...pageLinks(request, query, known),
    count: result.count,
    count_is_estimate: result.countIsEstimate,
    results: result.rows.map((row) => toInvoiceItem(row, today)),
  };
  return query.page === 1 && firstPageExtras ? { ...body, ...firstPageExtras } : body;
}
