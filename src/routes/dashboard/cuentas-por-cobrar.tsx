import { createFileRoute } from '@tanstack/react-router';
import { InvoiceStatus } from '../../domain/invoice-status';
import { ReceivablesPage } from '../../views/receivables/receivables-page';
import { auditTrailDownloadMachine } from '../-audit-trail-machines';
import { type InvoiceListDefinition, invoiceListRoute } from '../-invoice-list-route';
import { useInvoiceListScreen } from '../-invoice-list-screen';
import { requireProvider, requireSatLink } from './-guards';

// The list has search and period only: the server decides which statuses are still owed (decision 0038).
const RECEIVABLES_LIST: InvoiceListDefinition = {
  list: 'receivables',
  narrow: (filters) => ({ ...filters, status: InvoiceStatus.ALL }),
};

// Spec §2: 'Cuentas por cobrar', guarded by the SAT link like every provider screen; filters in the URL.
export const Route = createFileRoute('/dashboard/cuentas-por-cobrar')({
  ...invoiceListRoute(RECEIVABLES_LIST),
  beforeLoad: () => {
    requireProvider();
    requireSatLink();
  },
  component: ReceivablesRoute,
});

function ReceivablesRoute() {
  const screen = useInvoiceListScreen(RECEIVABLES_LIST, Route.useSearch(), Route.useNavigate());
  return <ReceivablesPage screen={screen} auditTrail={auditTrailDownloadMachine} />;
}
