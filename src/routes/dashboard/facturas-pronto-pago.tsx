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
import { useInvoicePages } from '../../views/invoices/invoice-pages';
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
  const options = advancedInvoicesQueryOptions(filters);
  const list = useInvoicePages(useInfiniteQuery(options), options.queryKey);
  const trail = useInvoiceTrail();
  return (
    <AdvancedInvoicesPage
      machine={wiredInvoiceDownloadMachine}
      filters={filters}
      onFiltersChange={onFiltersChange}
      trail={trail}
      list={list}
    />
  );
}
