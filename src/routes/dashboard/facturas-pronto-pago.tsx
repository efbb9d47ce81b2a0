import { createFileRoute } from '@tanstack/react-router';
import { advancedStatusFilter } from '../../domain/advanced-invoices';
import { AdvancedInvoicesPage } from '../../views/advanced-invoices/advanced-invoices-page';
import { wiredInvoiceDownloadMachine } from '../-advanced-invoices-machines';
import { type InvoiceListDefinition, invoiceListRoute } from '../-invoice-list-route';
import { useInvoiceListScreen } from '../-invoice-list-screen';
import { requireProvider, requireSatLink } from './-guards';

// Only En trámite and Pagada are advanced; any other status in the URL means both.
const ADVANCED_LIST: InvoiceListDefinition = {
  list: 'advanced',
  narrow: (filters) => ({ ...filters, status: advancedStatusFilter(filters.status) }),
};

// Spec §2: 'Resumen de tus Facturas Adelantadas', guarded by the SAT link like every provider screen; its
// filters live in the URL as on Pronto Pago.
export const Route = createFileRoute('/dashboard/facturas-pronto-pago')({
  ...invoiceListRoute(ADVANCED_LIST),
  beforeLoad: () => {
    requireProvider();
    requireSatLink();
  },
  component: AdvancedInvoicesRoute,
});

function AdvancedInvoicesRoute() {
  const screen = useInvoiceListScreen(ADVANCED_LIST, Route.useSearch(), Route.useNavigate());
  return <AdvancedInvoicesPage machine={wiredInvoiceDownloadMachine} screen={screen} />;
}
