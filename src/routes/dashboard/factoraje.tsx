import { useInfiniteQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useMemo, useRef } from 'react';
import { paths } from '../../domain/paths';
import type { Indicators } from '../../domain/schemas/invoices';
import { invoiceListQueryOptions } from '../../services/invoice-queries';
import { PROVIDER_SECTIONS } from '../../views/dashboard/dashboard-sections';
import { FactoringPage } from '../../views/factoring/factoring-page';
import { wireFactoringMachine } from '../-factoring-machines';
import { type InvoiceListDefinition, invoiceListRoute } from '../-invoice-list-route';
import { useInvoiceListScreen } from '../-invoice-list-screen';
import { requireProvider, requireSatLink } from './-guards';

const HELP = PROVIDER_SECTIONS.find((section) => section.path === paths.factoring)?.help ?? '';
const FACTORING_LIST: InvoiceListDefinition = { list: 'factoring' };

// Spec §2 'Factoring screen': the provider's invoices with 'Solicitar Factoraje'; filters live in the URL.
export const Route = createFileRoute('/dashboard/factoraje')({
  ...invoiceListRoute(FACTORING_LIST),
  beforeLoad: () => {
    requireProvider();
    requireSatLink();
  },
  component: FactoringRoute,
});

function FactoringRoute() {
  const { queryClient } = Route.useRouteContext();
  const screen = useInvoiceListScreen(FACTORING_LIST, Route.useSearch(), Route.useNavigate());
  // The machine reads the current scope when a transfer ends; it is built once per page.
  const scope = useRef({ role: screen.role, filters: screen.filters });
  scope.current = { role: screen.role, filters: screen.filters };
  const machine = useMemo(() => wireFactoringMachine(queryClient, () => scope.current), [queryClient]);
  // The cards read the indicators of the list's first page (the same cached query as the table).
  const first = useInfiniteQuery({
    ...invoiceListQueryOptions(screen.role, FACTORING_LIST.list, screen.filters),
    select: (data) => (data.pageParams[0] === 1 ? (data.pages[0]?.indicators ?? null) : null),
  });
  // Past 40 pages the list drops its first one: the cards keep the figures they showed.
  const last = useRef<Indicators | undefined>(undefined);
  if (first.data) last.current = first.data;
  if (first.isPending) last.current = undefined;
  return (
    <FactoringPage
      help={HELP}
      screen={screen}
      indicators={{ indicators: last.current, isPending: first.isPending, isError: first.isError }}
      machine={machine}
    />
  );
}
