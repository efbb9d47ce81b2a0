import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useRef } from 'react';
import { is } from 'superstruct';
import { paths } from '../../domain/paths';
import { CorporateSummaryIndicators } from '../../domain/schemas/corporates';
import { corporateMaturitiesQueryOptions } from '../../services/corporate-maturities.service';
import { invoiceListQueryOptions } from '../../services/invoice-queries';
import { InvoiceSummaryPage } from '../../views/corporate/invoice-summary-page';
import { CORPORATE_SECTIONS } from '../../views/dashboard/dashboard-sections';
import { type InvoiceListDefinition, invoiceListRoute } from '../-invoice-list-route';
import { useInvoiceListScreen } from '../-invoice-list-screen';
import { requireCorporate } from './-guards';

const HELP = CORPORATE_SECTIONS.find((section) => section.path === paths.invoiceSummary)?.help ?? '';
const SUMMARY_LIST: InvoiceListDefinition = { list: 'corporateSummary' };

// Spec §2: the corporate's received invoices; search, period and status live in the URL like every list.
export const Route = createFileRoute('/dashboard/resumen-de-facturas')({
  ...invoiceListRoute(SUMMARY_LIST),
  beforeLoad: () => requireCorporate(),
  component: InvoiceSummaryRoute,
});

function InvoiceSummaryRoute() {
  const screen = useInvoiceListScreen(SUMMARY_LIST, Route.useSearch(), Route.useNavigate());
  // The cards read the indicators of the list's first page (the same cached query as the table).
  const first = useInfiniteQuery({
    ...invoiceListQueryOptions(screen.role, SUMMARY_LIST.list, screen.filters),
    select: (data) => {
      const indicators = data.pageParams[0] === 1 ? data.pages[0]?.indicators : undefined;
      return is(indicators, CorporateSummaryIndicators) ? indicators : null;
    },
  });
  // Past 40 pages the list drops its first one: the cards keep the figures they showed.
  const last = useRef<CorporateSummaryIndicators | undefined>(undefined);
  if (first.data) last.current = first.data;
  if (first.isPending) last.current = undefined;
  const maturities = useQuery(corporateMaturitiesQueryOptions());
  return (
    <InvoiceSummaryPage
      help={HELP}
      screen={screen}
      indicators={{ indicators: last.current, isPending: first.isPending, isError: first.isError }}
      maturities={{ data: maturities.data, isPending: maturities.isPending, isError: maturities.isError }}
    />
  );
}
