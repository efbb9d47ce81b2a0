import type { QueryClient } from '@tanstack/react-query';
import type { InvoiceListName } from '../services/invoice-queries';
import { userStore } from '../stores/user.store';
import {
  filtersFromSearch,
  type InvoiceListFilters,
  type InvoiceListSearch,
  validateInvoiceListSearch,
} from '../views/invoices/invoice-filters';

// What every invoice list route is (decision 0018): filters in the URL, the first page started by the route's
// loader, bounded infinite pages, the selection and the audit trail. A list route declares which list it
// shows and spreads `invoiceListRoute(...)` into its options; its component calls `useInvoiceListScreen`.
// (The '-' prefix keeps this file out of the route tree.)

/** Which server list a screen shows, and how it narrows the URL's filters (say, to its own statuses). */
export interface InvoiceListDefinition {
  list: InvoiceListName;
  narrow?: (filters: InvoiceListFilters) => InvoiceListFilters;
}

export function listFilters(
  definition: InvoiceListDefinition,
  search: InvoiceListSearch,
): InvoiceListFilters {
  const read = filtersFromSearch(search);
  return definition.narrow ? definition.narrow(read) : read;
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
      // The query's module is imported here, not at the top: what a route's options import stays in the app's
      // first chunk (autoCodeSplitting splits the component only), which every page evaluates (decision 0065).
      const role = userStore.role;
      void import('../services/invoice-queries')
        .then(({ invoiceListQueryOptions }) =>
          context.queryClient.ensureInfiniteQueryData(
            invoiceListQueryOptions(role, definition.list, listFilters(definition, deps.search)),
          ),
        )
        .catch(() => undefined);
    },
  };
}
