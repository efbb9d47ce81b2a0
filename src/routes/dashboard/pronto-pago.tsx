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

  const list = useInfiniteQuery(alliancesQueryOptions(role, filters));
  const rows = useMemo(() => list.data?.pages.flatMap((page) => page.results) ?? [], [list.data]);

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
      list={{
        rows,
        // A retry after an error shows the spinner again until the server answers.
        loading: !list.data && !(list.isError && !list.isFetching),
        error: !list.data && list.isError && !list.isFetching,
        onRetry: () => void list.refetch(),
        hasMore: list.hasNextPage,
        loadingMore: list.isFetchingNextPage,
        moreFailed: list.isFetchNextPageError,
        onEndReached: () => void list.fetchNextPage(),
      }}
      trail={trail}
    />
  );
}
