import { createFileRoute } from '@tanstack/react-router';
import { useMemo, useRef } from 'react';
import { InvoiceStatus } from '../../domain/invoice-status';
import { paths } from '../../domain/paths';
import { SupplierRequestsPage } from '../../views/corporate/supplier-requests-page';
import { CORPORATE_SECTIONS } from '../../views/dashboard/dashboard-sections';
import { type InvoiceListDefinition, invoiceListRoute } from '../-invoice-list-route';
import { useInvoiceListScreen } from '../-invoice-list-screen';
import { wireSupplierRequestsMachine } from '../-supplier-requests-machines';
import { requireCorporate } from './-guards';

const HELP = CORPORATE_SECTIONS.find((section) => section.path === paths.requests)?.help ?? '';
// Every request is Solicitado: a status in the URL means nothing here.
const REQUESTS_LIST: InvoiceListDefinition = {
  list: 'supplierRequests',
  narrow: (filters) => ({ ...filters, status: InvoiceStatus.ALL }),
};

// Spec §2: the suppliers' manual advance requests; search and period live in the URL like every list.
export const Route = createFileRoute('/dashboard/solicitudes')({
  ...invoiceListRoute(REQUESTS_LIST),
  beforeLoad: () => requireCorporate(),
  component: SupplierRequestsRoute,
});

function SupplierRequestsRoute() {
  const { queryClient } = Route.useRouteContext();
  const screen = useInvoiceListScreen(REQUESTS_LIST, Route.useSearch(), Route.useNavigate());
  // The machine reads the current list when an answer arrives; it is built once per page.
  const scope = useRef({ role: screen.role, filters: screen.filters });
  scope.current = { role: screen.role, filters: screen.filters };
  const machine = useMemo(() => wireSupplierRequestsMachine(queryClient, () => scope.current), [queryClient]);
  return <SupplierRequestsPage help={HELP} screen={screen} machine={machine} />;
}
