import { Button, ButtonGroup, H1 } from '@blueprintjs/core';
import { useMachine } from '@xstate/react';
import { ADVANCED_STATUS_FILTER_OPTIONS } from '../../domain/advanced-invoices';
import type { invoiceDownloadMachine } from '../../machines/invoice-download.machine';
import { PROVIDER_SECTIONS } from '../dashboard/dashboard-sections';
import { SectionHelp } from '../dashboard/section-help';
import { AuditTrailDrawer, HistoryButton, type InvoiceTrail } from '../invoices/audit-trail-drawer';
import type { InvoiceListFilters } from '../invoices/invoice-filters';
import { InvoiceFiltersBar } from '../invoices/invoice-filters-bar';
import { allSelected, toggleAll, toggleOne, useListSelection } from '../invoices/invoice-selection';
import { type InvoiceListProps, InvoiceTable } from '../invoices/invoice-table';
import { DownloadSelectedButton, DownloadStatus } from './invoice-download-controls';

export const ADVANCED_INVOICES_TITLE = 'Resumen de tus Facturas Adelantadas';
export const ADVANCED_INVOICES_PATH = '/dashboard/facturas-pronto-pago/';
const HELP = PROVIDER_SECTIONS.find((section) => section.path === ADVANCED_INVOICES_PATH)?.help;

export interface AdvancedInvoicesPageProps {
  machine: typeof invoiceDownloadMachine;
  /** Search, months of issue and status (within En trámite and Pagada), kept in the URL. */
  filters: InvoiceListFilters;
  onFiltersChange: (filters: InvoiceListFilters) => void;
  /** The audit trail of the invoice opened with 'Historial'. */
  trail: InvoiceTrail;
  list: InvoiceListProps;
}

/**
 * /dashboard/facturas-pronto-pago/ (spec §2): the provider's advanced invoices with the list filters,
 * 'Seleccionar todos' and 'Descargar seleccionados' (one ZIP with XML and PDF per invoice) with its progress,
 * and each row's audit trail.
 */
export function AdvancedInvoicesPage(props: AdvancedInvoicesPageProps) {
  const [state, send] = useMachine(props.machine);
  const [selection, setSelection] = useListSelection(props.list, props.filters);
  const ids = props.list.rows.map((row) => row.id);
  const selectedIds = [...selection];

  return (
    <section aria-labelledby="facturas-adelantadas-titulo" className="flujo-advanced-invoices">
      <H1 id="facturas-adelantadas-titulo">{ADVANCED_INVOICES_TITLE}</H1>
      {HELP && <SectionHelp>{HELP}</SectionHelp>}
      <InvoiceFiltersBar
        filters={props.filters}
        onChange={props.onFiltersChange}
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
        {...props.list}
        selection={selection}
        onToggleRow={(id) => setSelection((current) => toggleOne(current, id))}
        renderActions={(invoice) => <HistoryButton invoice={invoice} trail={props.trail} />}
      />
      <AuditTrailDrawer
        folio={props.trail.folio}
        state={props.trail.state}
        items={props.trail.items}
        onRetry={props.trail.onRetry}
        onClose={props.trail.onClose}
      />
    </section>
  );
}
