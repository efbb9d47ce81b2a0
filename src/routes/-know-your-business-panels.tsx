import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSnapshot } from 'valtio';
import {
  type InvoiceListName,
  invoiceListQueryOptions,
  knowYourBusinessQueryOptions,
} from '../services/invoice-queries';
import { userStore } from '../stores/user.store';
import { DEFAULT_FILTERS, type InvoiceListFilters } from '../views/invoices/invoice-filters';
import { useInvoicePages } from '../views/invoices/invoice-pages';
import { IndicatorsPanel } from '../views/know-your-business/indicators-panel';
import {
  CfdiListPanel,
  PAYABLE_COLUMNS,
  RECEIVABLE_COLUMNS,
} from '../views/know-your-business/know-your-business-page';
import type { KnowYourBusinessTab } from '../views/know-your-business/know-your-business-tabs';

// The know-your-business tabs wired to their queries: each panel fetches only once its tab is open.
// (The '-' prefix keeps this file out of the route tree.)

function CfdiList({ list, label }: { list: InvoiceListName; label: string }) {
  const { role } = useSnapshot(userStore);
  // The filters stay with the tab while it is open; the page's URL keeps only which tab.
  const [filters, setFilters] = useState<InvoiceListFilters>(DEFAULT_FILTERS);
  const options = invoiceListQueryOptions(role, list, filters);
  const pages = useInvoicePages(useInfiniteQuery(options), options.queryKey);
  return (
    <CfdiListPanel
      label={label}
      columns={list === 'issuedCfdi' ? RECEIVABLE_COLUMNS : PAYABLE_COLUMNS}
      filters={filters}
      onFiltersChange={setFilters}
      list={pages}
    />
  );
}

function Indicators() {
  const { role } = useSnapshot(userStore);
  const query = useInfiniteQuery(knowYourBusinessQueryOptions(role));
  const rows = useMemo(() => query.data?.pages.flatMap((page) => page.results) ?? [], [query.data]);
  return (
    <IndicatorsPanel
      status={query.status}
      rows={rows}
      hasMore={query.hasNextPage}
      loadingMore={query.isFetchingNextPage}
      onMore={() => void query.fetchNextPage()}
      onRetry={() => void query.refetch()}
    />
  );
}

export const KNOW_YOUR_BUSINESS_PANELS: Record<KnowYourBusinessTab, React.ReactElement> = {
  'cuentas-por-cobrar': <CfdiList list="issuedCfdi" label="CFDI emitidos" />,
  'cuentas-por-pagar': <CfdiList list="receivedCfdi" label="CFDI recibidos" />,
  indicadores: <Indicators />,
};
