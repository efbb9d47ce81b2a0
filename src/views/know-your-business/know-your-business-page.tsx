import { H1, Tab, Tabs } from '@blueprintjs/core';
import type { ReactElement } from 'react';
import { paths } from '../../domain/paths';
import { PROVIDER_SECTIONS } from '../dashboard/dashboard-sections';
import { SectionHelp } from '../dashboard/section-help';
import {
  amountColumn,
  dateColumn,
  emitterRfcColumn,
  folioColumn,
  type InvoiceColumn,
  PROVIDER_INVOICE_COLUMNS,
  providerStatusColumn,
  textColumn,
} from '../invoices/invoice-columns';
import type { InvoiceListFilters } from '../invoices/invoice-filters';
import { InvoiceFiltersBar } from '../invoices/invoice-filters-bar';
import { type InvoiceListProps, InvoiceTable } from '../invoices/invoice-table';
import { KNOW_YOUR_BUSINESS_TABS, type KnowYourBusinessTab, TAB_LABELS } from './know-your-business-tabs';
import './know-your-business.css';

const SECTION = PROVIDER_SECTIONS.find((section) => section.path === paths.knowYourCompany);

/** Received CFDI: the other party is the supplier that issued them. */
export const PAYABLE_COLUMNS: readonly InvoiceColumn[] = [
  folioColumn,
  emitterRfcColumn,
  textColumn('client', 'Proveedor', (invoice) => invoice.emitter_name),
  dateColumn('emission', 'Fecha de emisión', (invoice) => invoice.date_of_emission, 'secondary'),
  amountColumn,
  textColumn('description', 'Descripción', (invoice) => invoice.description, { priority: 'secondary' }),
  providerStatusColumn,
];

export const RECEIVABLE_COLUMNS = PROVIDER_INVOICE_COLUMNS;

export interface CfdiListPanelProps {
  label: string;
  columns: readonly InvoiceColumn[];
  filters: InvoiceListFilters;
  onFiltersChange: (filters: InvoiceListFilters) => void;
  list: InvoiceListProps;
}

/** One side's CFDI with search and period. */
export function CfdiListPanel({ label, columns, filters, onFiltersChange, list }: CfdiListPanelProps) {
  return (
    <>
      <InvoiceFiltersBar filters={filters} onChange={onFiltersChange} statusOptions={null} />
      <InvoiceTable label={label} {...list} selection={null} columns={columns} />
    </>
  );
}

/**
 * /dashboard/conoce-tu-empresa/ (spec §2): the CFDI the company issued (receivable accounts) and received
 * (payable accounts), and its monthly indicators with charts and their table (decision 0038).
 */
export function KnowYourBusinessPage({
  tab,
  onTabChange,
  panels,
}: {
  tab: KnowYourBusinessTab;
  onTabChange: (tab: KnowYourBusinessTab) => void;
  /** Each tab's content; only the open one is mounted, so only its data is fetched. */
  panels: Record<KnowYourBusinessTab, ReactElement>;
}) {
  return (
    <section aria-labelledby="conoce-titulo" className="flujo-know-your-business">
      <H1 id="conoce-titulo">{SECTION?.label ?? 'Conoce tu empresa'}</H1>
      {SECTION && <SectionHelp>{SECTION.help}</SectionHelp>}
      <Tabs
        id="conoce-tu-empresa"
        selectedTabId={tab}
        onChange={(id) => {
          const next = KNOW_YOUR_BUSINESS_TABS.find((candidate) => candidate === id);
          if (next) onTabChange(next);
        }}
        large
        renderActiveTabPanelOnly
      >
        {KNOW_YOUR_BUSINESS_TABS.map((id) => (
          <Tab key={id} id={id} title={TAB_LABELS[id]} panel={panels[id]} />
        ))}
      </Tabs>
    </section>
  );
}
