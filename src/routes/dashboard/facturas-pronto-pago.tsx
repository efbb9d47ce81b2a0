import { useInfiniteQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { AdvancedInvoicesPage } from '../../views/advanced-invoices/advanced-invoices-page';
import { advancedInvoicesQueryOptions, wiredInvoiceDownloadMachine } from '../-advanced-invoices-machines';
import { requireSatLink } from './-guards';

// Spec §2: 'Resumen de tus Facturas Adelantadas', guarded by the SAT link like every provider screen.
export const Route = createFileRoute('/dashboard/facturas-pronto-pago')({
  beforeLoad: () => requireSatLink(),
  component: AdvancedInvoicesRoute,
});

function AdvancedInvoicesRoute() {
  const query = useInfiniteQuery(advancedInvoicesQueryOptions());
  const rows = query.data?.pages.flatMap((page) => page.results) ?? [];
  return (
    <AdvancedInvoicesPage
      machine={wiredInvoiceDownloadMachine}
      rows={rows}
      loading={query.isPending}
      error={query.isError && rows.length === 0}
      onRetry={() => void query.refetch()}
      hasMore={query.hasNextPage}
      loadingMore={query.isFetchingNextPage}
      moreFailed={query.isFetchNextPageError}
      onEndReached={() => void query.fetchNextPage()}
    />
  );
}
