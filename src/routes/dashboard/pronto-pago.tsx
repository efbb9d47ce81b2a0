import { createFileRoute } from '@tanstack/react-router';
import { useMemo, useRef } from 'react';
import { paths } from '../../domain/paths';
import { PROVIDER_SECTIONS } from '../../views/dashboard/dashboard-sections';
import { ProntoPagoPage } from '../../views/pronto-pago/pronto-pago-page';
import { type InvoiceListDefinition, invoiceListRoute } from '../-invoice-list-route';
import { useInvoiceListScreen } from '../-invoice-list-screen';
import { wireProntoPagoMachines } from '../-pronto-pago-machines';
import { requireProvider, requireSatLink } from './-guards';

const HELP = PROVIDER_SECTIONS.find((section) => section.path === paths.prontoPago)?.help ?? '';
const ALLIANCES_LIST: InvoiceListDefinition = { list: 'alliances' };

// Spec §2: the provider's alliances invoices with the advance actions; filters live in the URL.
export const Route = createFileRoute('/dashboard/pronto-pago')({
  ...invoiceListRoute(ALLIANCES_LIST),
  beforeLoad: () => {
    requireProvider();
    requireSatLink();
  },
  component: ProntoPagoRoute,
});

function ProntoPagoRoute() {
  const { queryClient } = Route.useRouteContext();
  const screen = useInvoiceListScreen(ALLIANCES_LIST, Route.useSearch(), Route.useNavigate());
  // The machines read the current scope when an action ends; they are built once per page.
  const scope = useRef({ role: screen.role, filters: screen.filters });
  scope.current = { role: screen.role, filters: screen.filters };
  const machines = useMemo(() => wireProntoPagoMachines(queryClient, () => scope.current), [queryClient]);
  return <ProntoPagoPage help={HELP} screen={screen} machines={machines} />;
}
