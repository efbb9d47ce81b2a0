import { InvoiceStatus, type InvoiceStatusFilter, isInvoiceStatusFilter } from '../../domain/invoice-status';
import { isPeriodCode, PERIOD_CODES, type PeriodCode } from '../../domain/period';

/** Spec §5 and §9: the search box waits 500 ms after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 500;
/** The server's limit on the search text (docs/decisions/0012-pronto-pago-api.md). */
export const MAX_SEARCH_LENGTH = 100;

/** Filters of an invoice list (spec §2): search text, months of issue (empty = all), status (80 = all). */
export interface InvoiceListFilters {
  search: string;
  periods: readonly PeriodCode[];
  status: InvoiceStatusFilter;
}

export const DEFAULT_FILTERS: InvoiceListFilters = { search: '', periods: [], status: InvoiceStatus.ALL };

/** The filters as URL search params (TanStack Router validateSearch); absent keys are the defaults. */
export interface InvoiceListSearch {
  search?: string;
  period?: string;
  status?: number;
}

/** Reads untrusted URL params: unknown periods and statuses are dropped, never an error page. */
export function validateInvoiceListSearch(raw: Record<string, unknown>): InvoiceListSearch {
  const out: InvoiceListSearch = {};
  if (typeof raw.search === 'string' && raw.search.trim())
    out.search = raw.search.slice(0, MAX_SEARCH_LENGTH);
  if (typeof raw.search === 'number') out.search = String(raw.search);
  const periods = parsePeriods(raw.period);
  if (periods.length > 0 && periods.length < PERIOD_CODES.length) out.period = periods.join(',');
  const status = Number(raw.status);
  if (isInvoiceStatusFilter(status) && status !== InvoiceStatus.ALL) out.status = status;
  return out;
}

function parsePeriods(value: unknown): PeriodCode[] {
  const parts = typeof value === 'number' ? [value] : typeof value === 'string' ? value.split(',') : [];
  const codes = parts.map(Number).filter(isPeriodCode);
  return [...new Set(codes)].sort((a, b) => a - b);
}

export function filtersFromSearch(search: InvoiceListSearch): InvoiceListFilters {
  const status = search.status;
  return {
    search: search.search ?? '',
    periods: parsePeriods(search.period),
    status: isInvoiceStatusFilter(status) ? status : InvoiceStatus.ALL,
  };
}

export function searchFromFilters(filters: InvoiceListFilters): InvoiceListSearch {
  return validateInvoiceListSearch({
    search: filters.search,
    period: filters.periods.join(','),
    status: filters.status,
  });
}

/** Spec §4: after an action, a row leaves the list when exactly one status filter is active and it no longer matches. */
export function matchesStatusFilter(status: number, filter: InvoiceStatusFilter): boolean {
  return filter === InvoiceStatus.ALL || status === filter;
}

/**
 * Period checkboxes: none stored means every month checked (spec §2: all by default). Unchecking from
 * "all" keeps the others; the last checked month cannot be unchecked (an empty filter would mean all).
 */
export function togglePeriod(periods: readonly PeriodCode[], period: PeriodCode): PeriodCode[] {
  const checked = periods.length === 0 ? [...PERIOD_CODES] : [...periods];
  const next = checked.includes(period) ? checked.filter((p) => p !== period) : [...checked, period];
  if (next.length === 0) return [...checked];
  if (next.length === PERIOD_CODES.length) return [];
  return next.sort((a, b) => a - b);
}

export function isPeriodChecked(periods: readonly PeriodCode[], period: PeriodCode): boolean {
  return periods.length === 0 || periods.includes(period);
}
