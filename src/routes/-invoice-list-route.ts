import { type QueryClient, useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useSnapshot } from 'valtio';
import { type InvoiceListName, invoiceListQueryOptions } from '../services/invoice-queries';
import { type Role, userStore } from '../stores/user.store';
import {
  filtersFromSearch,
  type InvoiceListFilters,
  type InvoiceListSearch,
  searchFromFilters,
  validateInvoiceListSearch,
} from '../views/invoices/invoice-filters';
import type { InvoiceListScreen } from '../views/invoices/invoice-list-screen';
import { useInvoicePages } from '../views/invoices/invoice-pages';
import { useListSelection } from '../views/invoices/invoice-selection';
import { useInvoiceTrail } from './-invoice-trail';

// What every invoice list route is (decision 0018): filters in the URL, the first page started by the route's
// loader, bounded infinite pages, the selection and the audit trail. A list route declares which list it
// shows and spreads `invoiceListRoute(...)` into its options; its component calls `useInvoiceListScreen`.
// (The '-' prefix keeps this file out of the route tree.)

/** Which server list a screen shows, and how it narrows the URL's filters (say, to its own statuses). */
export interface InvoiceListDefinition {
  list: InvoiceListName;
  narrow?: (filters: InvoiceListFilters) => InvoiceListFilters;
}

function listFilters(definition: InvoiceListDefinition, search: InvoiceListSearch): InvoiceListFilters {
  const read = filtersFromSearch(search);
  return definition.narrow ? definition.narrow(read) : read;
}

function listOptions(definition: InvoiceListDefinition, role: Role, search: InvoiceListSearch) {
  return invoiceListQueryOptions(role, definition.list, listFilters(definition, search));
}

/**
 * Route options of an invoice list: the filters validated from the URL and a loader that starts the first page
 * (TanStack Router's `loader: ({ context }) => context.queryClient.ensureQueryData(...)`), so a cached page is
 * there on the first render and an uncached one is already on its way while the route's code mounts.
 */
export function invoiceListRoute(definition: InvoiceListDefinition) {
  return {
    validateSearch: validateInvoiceListSearch,
    loaderDeps: ({ search }: { search: InvoiceListSearch }) => ({ search }),
    loader: ({
      context,
      deps,
    }: {
      context: { queryClient: QueryClient };
      deps: { search: InvoiceListSearch };
    }) => {
      // Not awaited: the table shows its skeleton rows, and a failure its own message with 'Reintentar' (spec §8),
      // instead of the router holding the navigation or showing its error page. The table's query shares
      // this request (same key) and retries it as every query does.
      // NOTE: @tanstack/query-core 5.108 marks ensureInfiniteQueryData deprecated in favour of
      // infiniteQuery({ ...options, staleTime: 'static' }); it still behaves as documented until v6.
      context.queryClient
        .ensureInfiniteQueryData(listOptions(definition, userStore.role, deps.search))
        .catch(() => undefined);
    },
  };
}

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
  const options = listOptions(definition, role, search);
  const list = useInvoicePages(useInfiniteQuery(options), options.queryKey);
  const [selection, setSelection] = useListSelection(list, filters);
  const trail = useInvoiceTrail();
  return { role, filters, onFiltersChange, list, selection, onSelectionChange: setSelection, trail };
}
