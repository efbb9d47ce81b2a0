import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useRef } from 'react';
import { InvoiceStatus } from '../../domain/invoice-status';
import { paths } from '../../domain/paths';
import type { Indicators } from '../../domain/schemas/invoices';
import { invoiceListQueryOptions } from '../../services/invoice-queries';
import { listMonthlyStatements } from '../../services/monthly-statements.service';
import { sectionsFor } from '../../views/dashboard/dashboard-sections';
import { StatementPage } from '../../views/statement/statement-page';
import { auditTrailDownloadMachine } from '../-audit-trail-machines';
import { type InvoiceListDefinition, invoiceListRoute } from '../-invoice-list-route';
import { useInvoiceListScreen } from '../-invoice-list-screen';
import { monthlyStatementDownloadMachine, wiredStatementReportMachine } from '../-statement-machines';
import { requireSatLink } from './-guards';

// The statement has search and period filters only; a status in the URL is ignored.
const STATEMENT_LIST: InvoiceListDefinition = {
  list: 'statement',
  narrow: (filters) => ({ ...filters, status: InvoiceStatus.ALL }),
};

// Spec §2: /dashboard/estado-de-cuenta/ for both roles (the provider's sidebar lists it only for corporate
// accounts); a provider needs an authorized SAT link like every provider screen. Filters live in the URL.
export const Route = createFileRoute('/dashboard/estado-de-cuenta')({
  ...invoiceListRoute(STATEMENT_LIST),
  beforeLoad: () => requireSatLink(),
  component: StatementRoute,
});

function StatementRoute() {
  const screen = useInvoiceListScreen(STATEMENT_LIST, Route.useSearch(), Route.useNavigate());
  const help =
    sectionsFor(screen.role).find((section) => section.path === paths.accountStatement)?.help ?? '';
  // The cards read the first page's indicators (the same cached query as the table).
  const first = useInfiniteQuery({
    ...invoiceListQueryOptions(screen.role, STATEMENT_LIST.list, screen.filters),
    select: (data) => (data.pageParams[0] === 1 ? (data.pages[0]?.indicators ?? null) : null),
  });
  // Past 40 pages the list drops its first one: the cards keep the figures they showed.
  const last = useRef<Indicators | null>(null);
  if (first.data) last.current = first.data;
  if (first.isPending) last.current = null;
  // The months Flujo produced (decision 0071), below the list.
  const monthly = useQuery({
    queryKey: ['monthly-statements', screen.role],
    queryFn: () => listMonthlyStatements(screen.role),
  });
  return (
    <StatementPage
      role={screen.role}
      help={help}
      machine={wiredStatementReportMachine}
      auditTrail={auditTrailDownloadMachine}
      monthly={{
        state: { months: monthly.data?.results, isPending: monthly.isPending, isError: monthly.isError },
        machineFor: monthlyStatementDownloadMachine,
      }}
      screen={screen}
      indicators={{
        indicators: last.current ?? undefined,
        isPending: first.isPending,
        isError: first.isError,
      }}
    />
  );
}
