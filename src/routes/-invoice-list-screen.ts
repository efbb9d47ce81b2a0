import { useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useSnapshot } from 'valtio';
import { invoiceListQueryOptions } from '../services/invoice-queries';
import type { Role } from '../stores/user.store';
import { userStore } from '../stores/user.store';
import {
  type InvoiceListFilters,
  type InvoiceListSearch,
  searchFromFilters,
} from '../views/invoices/invoice-filters';
import type { InvoiceListScreen } from '../views/invoices/invoice-list-screen';
import { useInvoicePages } from '../views/invoices/invoice-pages';
import { useListSelection } from '../views/invoices/invoice-selection';
import { type InvoiceListDefinition, listFilters } from './-invoice-list-route';
import { useInvoiceTrail } from './-invoice-trail';

// The component side of an invoice list route (see -invoice-list-route.ts): kept apart so that the services,
// the pages and the selection load with the page's split component, not with the route tree (decision 0065).
// (The '-' prefix keeps this file out of the route tree.)

/**
 * Everything a list screen reads, for the route's current search: the list's pages for the table, its
 * filters (changing them replaces the URL's search), the selection and the audit trail.
 */
export function useInvoiceListScreen(
  definition: InvoiceListDefinition,
  search: InvoiceListSearch,
  navigate: (options: { search: InvoiceListSearch; replace: boolean }) => unknown,
): InvoiceListScreen & { role: Role } {
  const { role } = useSnapshot(userStore);
  const filters = useMemo(() => listFilters(definition, search), [definition, search]);
  const onFiltersChange = useCallback(
    (next: InvoiceListFilters) => void navigate({ search: searchFromFilters(next), replace: true }),
    [navigate],
  );
  const options = invoiceListQueryOptions(role, definition.list, filters);
  const list = useInvoicePages(useInfiniteQuery(options), options.queryKey);
  const [selection, setSelection] = useListSelection(list, filters);
  const trail = useInvoiceTrail();
  return { role, filters, onFiltersChange, list, selection, onSelectionChange: setSelection, trail };
}
