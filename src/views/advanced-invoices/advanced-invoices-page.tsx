import { Button, ButtonGroup, H1 } from '@blueprintjs/core';
import { useMachine } from '@xstate/react';
import { ADVANCED_STATUS_FILTER_OPTIONS } from '../../domain/advanced-invoices';
import { paths } from '../../domain/paths';
import type { invoiceDownloadMachine } from '../../machines/invoice-download.machine';
import { PROVIDER_SECTIONS } from '../dashboard/dashboard-sections';
import { SectionHelp } from '../dashboard/section-help';
import { AuditTrailDrawer, HistoryButton } from '../invoices/audit-trail-drawer';
import { InvoiceFiltersBar } from '../invoices/invoice-filters-bar';
import type { InvoiceListScreen } from '../invoices/invoice-list-screen';
import { allSelected, toggleAll, toggleOne } from '../invoices/invoice-selection';
import { InvoiceTable } from '../invoices/invoice-table';
import { DownloadSelectedButton, DownloadStatus } from './invoice-download-controls';

export const ADVANCED_INVOICES_TITLE = 'Resumen de tus Facturas Adelantadas';
const HELP = PROVIDER_SECTIONS.find((section) => section.path === paths.advancedInvoices)?.help;

export interface AdvancedInvoicesPageProps {
  machine: typeof invoiceDownloadMachine;
  /** The advanced invoices: filters (status within En trámite and Pagada), pages, selection, audit trail. */
  screen: InvoiceListScreen;
}

/**
 * /dashboard/facturas-pronto-pago/ (spec §2): the provider's advanced invoices with the list filters,
 * 'Seleccionar todos' and 'Descargar seleccionados' (one ZIP with XML and PDF per invoice) with its progress,
 * and each row's audit trail.
 */
export function AdvancedInvoicesPage(props: AdvancedInvoicesPageProps) {
  const [state, send] = useMachine(props.machine);
  const { filters, onFiltersChange, list, selection, onSelectionChange: setSelection, trail } = props.screen;
  const ids = list.rows.map((row) => row.id);
  const selectedIds = [...selection];

  return (
    <section aria-labelledby="facturas-adelantadas-titulo" className="flujo-advanced-invoices">
      <H1 id="facturas-adelantadas-titulo">{ADVANCED_INVOICES_TITLE}</H1>
      {HELP && <SectionHelp>{HELP}</SectionHelp>}
      <InvoiceFiltersBar
        filters={filters}
        onChange={onFiltersChange}
        statusOptions={ADVANCED_STATUS_FILTER_OPTIONS}
      />
      <ButtonGroup className="flujo-invoice-toolbar">
        <Button
          text="Seleccionar todos"
          disabled={ids.length === 0}
          aria-pressed={allSelected(selection, ids)}
          onClick={() => setSelection((current) => toggleAll(current, ids))}
        />
        <DownloadSelectedButton state={state} send={send} invoiceIds={selectedIds} />
      </ButtonGroup>
      <DownloadStatus state={state} send={send} selectedCount={selectedIds.length} />
      <InvoiceTable
        label="Facturas adelantadas"
        {...list}
        selection={selection}
        onToggleRow={(id) => setSelection((current) => toggleOne(current, id))}
        renderActions={(invoice) => <HistoryButton invoice={invoice} trail={trail} />}
      />
      <AuditTrailDrawer
        invoice={trail.invoice}
        proof={trail.proof}
        state={trail.state}
        items={trail.items}
        onRetry={trail.onRetry}
        onClose={trail.onClose}
      />
    </section>
  );
}
