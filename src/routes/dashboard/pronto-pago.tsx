import { useInfiniteQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useCallback, useMemo, useRef } from 'react';
import { useSnapshot } from 'valtio';
import { userStore } from '../../stores/user.store';
import { PROVIDER_SECTIONS } from '../../views/dashboard/dashboard-sections';
import {
  filtersFromSearch,
  type InvoiceListFilters,
  searchFromFilters,
  validateInvoiceListSearch,
} from '../../views/invoices/invoice-filters';
import { useInvoicePages } from '../../views/invoices/invoice-pages';
import { ProntoPagoPage } from '../../views/pronto-pago/pronto-pago-page';
import { useInvoiceTrail } from '../-invoice-trail';
import { alliancesQueryOptions, wireProntoPagoMachines } from '../-pronto-pago-machines';
import { requireProvider, requireSatLink } from './-guards';

const HELP = PROVIDER_SECTIONS.find((section) => section.path === '/dashboard/pronto-pago/')?.help ?? '';

// Spec §2: the provider's alliances invoices with the advance actions; filters live in the URL.
export const Route = createFileRoute('/dashboard/pronto-pago')({
  validateSearch: validateInvoiceListSearch,
  beforeLoad: () => {
    requireProvider();
    requireSatLink();
  },
  component: ProntoPagoRoute,
});

function ProntoPagoRoute() {
  const { queryClient } = Route.useRouteContext();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const { role } = useSnapshot(userStore);
  const filters = useMemo(() => filtersFromSearch(search), [search]);

  // The machines read the current scope when an action ends; they are built once per page.
  const scope = useRef({ role, filters });
  scope.current = { role, filters };
  const machines = useMemo(() => wireProntoPagoMachines(queryClient, () => scope.current), [queryClient]);

  const options = alliancesQueryOptions(role, filters);
  const list = useInvoicePages(useInfiniteQuery(options), options.queryKey);

  const trail = useInvoiceTrail();

  const onFiltersChange = useCallback(
    (next: InvoiceListFilters) => void navigate({ search: searchFromFilters(next), replace: true }),
    [navigate],
  );

  return (
    <ProntoPagoPage
      help={HELP}
      filters={filters}
      onFiltersChange={onFiltersChange}
      machines={machines}
      list={list}
      trail={trail}
    />
  );
}
