import type { InvoiceStatusCode, InvoiceStatusFilter } from '../../domain/invoice-status';
import type { Invoice } from '../../domain/schemas/invoices';
import { matchesStatusFilter } from './invoice-filters';

/** The shape TanStack Query keeps for an infinite list of DRF pages. */
export interface LoadedPages<TPage extends { count: number; results: Invoice[] }> {
  pages: TPage[];
  pageParams: unknown[];
}

/**
 * A row's status changed after an action (spec §4): the row shows its new status, or leaves the list
 * (and the count drops by one) when exactly one status filter is active and the row no longer matches it.
 */
export function applyStatusChange<TPage extends { count: number; results: Invoice[] }>(
  data: LoadedPages<TPage>,
  invoiceId: number,
  status: InvoiceStatusCode,
  filter: InvoiceStatusFilter,
): LoadedPages<TPage> {
  const leaves = !matchesStatusFilter(status, filter);
  const found = data.pages.some((page) => page.results.some((row) => row.id === invoiceId));
  if (!found) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      count: leaves ? Math.max(0, page.count - 1) : page.count,
      results: leaves
        ? page.results.filter((row) => row.id !== invoiceId)
        : page.results.map((row) => (row.id === invoiceId ? { ...row, status } : row)),
    })),
  };
}
