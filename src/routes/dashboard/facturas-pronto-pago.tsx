import { useInfiniteQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useCallback, useMemo } from 'react';
import { advancedStatusFilter } from '../../domain/advanced-invoices';
import { AdvancedInvoicesPage } from '../../views/advanced-invoices/advanced-invoices-page';
import {
  filtersFromSearch,
  type InvoiceListFilters,
  searchFromFilters,
  validateInvoiceListSearch,
} from '../../views/invoices/invoice-filters';
import { advancedInvoicesQueryOptions, wiredInvoiceDownloadMachine } from '../-advanced-invoices-machines';
import { useInvoiceTrail } from '../-invoice-trail';
import { requireProvider, requireSatLink } from './-guards';

// Spec §2: 'Resumen de tus Facturas Adelantadas', guarded by the SAT link like every provider screen; its
// filters live in the URL as on Pronto Pago.
export const Route = createFileRoute('/dashboard/facturas-pronto-pago')({
  validateSearch: validateInvoiceListSearch,
  beforeLoad: () => {
    requireProvider();
    requireSatLink();
  },
  component: AdvancedInvoicesRoute,
});

function AdvancedInvoicesRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const filters = useMemo(() => {
    const read = filtersFromSearch(search);
    return { ...read, status: advancedStatusFilter(read.status) };
  }, [search]);
  const onFiltersChange = useCallback(
    (next: InvoiceListFilters) => void navigate({ search: searchFromFilters(next), replace: true }),
    [navigate],
  );
  const query = useInfiniteQuery(advancedInvoicesQueryOptions(filters));
  const rows = useMemo(() => query.data?.pages.flatMap((page) => page.results) ?? [], [query.data]);
  const trail = useInvoiceTrail();
  return (
    <AdvancedInvoicesPage
      machine={wiredInvoiceDownloadMachine}
      filters={filters}
      onFiltersChange={onFiltersChange}
      trail={trail}
      rows={rows}
      // A retry after an error shows the spinner again until the server answers.
      loading={!query.data && !(query.isError && !query.isFetching)}
      error={!query.data && query.isError && !query.isFetching}
      onRetry={() => void query.refetch()}
      hasMore={query.hasNextPage}
      loadingMore={query.isFetchingNextPage}
      moreFailed={query.isFetchNextPageError}
      onEndReached={() => void query.fetchNextPage()}
    />
  );
}
