import { Button, H1 } from '@blueprintjs/core';
import { useMachine } from '@xstate/react';
import { useMemo, useRef } from 'react';
import { ADVANCED_INVOICE_STATUSES, isAdvancedStatus } from '../../domain/advanced-invoices';
import { type InvoiceStatusCode, providerStatusLabel } from '../../domain/invoice-status';
import type { Invoice } from '../../domain/schemas/invoices';
import type { authorizationRequestMachine } from '../../machines/authorization-request.machine';
import type { forwardPaymentMachine } from '../../machines/forward-payment.machine';
import { viewerInvoiceEvents } from '../../machines/invoice-actions';
import type { invoiceDownloadMachine } from '../../machines/invoice-download.machine';
import { DownloadSelectedButton, DownloadStatus } from '../advanced-invoices/invoice-download-controls';
import { SectionHelp } from '../dashboard/section-help';
import { AuditTrailDrawer, HistoryButton } from '../invoices/audit-trail-drawer';
import { InvoiceFiltersBar } from '../invoices/invoice-filters-bar';
import type { InvoiceListScreen } from '../invoices/invoice-list-screen';
import { toggleAll, toggleOne } from '../invoices/invoice-selection';
import { InvoiceTable, SELECT_ALL_TEXT } from '../invoices/invoice-table';
import { MessageDialog } from '../invoices/message-dialog';
import { ADVANCE_TEXT, ForwardPaymentDrawer } from './forward-payment-drawer';

export const REQUEST_TEXT = 'Solicitar adelanto';

export interface ProntoPagoPageProps {
  help: string;
  /** The alliances list: filters, pages, selection and audit trail. */
  screen: InvoiceListScreen;
  machines: {
    authorizationRequest: typeof authorizationRequestMachine;
    forwardPayment: typeof forwardPaymentMachine;
    /** The ZIP of the selected advanced invoices, as on 'Resumen de tus Facturas Adelantadas'. */
    invoiceDownload: typeof invoiceDownloadMachine;
  };
}

const ADVANCED_LABELS = ADVANCED_INVOICE_STATUSES.map(providerStatusLabel).join(' o ');

/**
 * Why 'Descargar seleccionados' leaves some of the selection out (decision 0014): only advanced invoices have
 * the ZIP of XML and PDF. Null when every selected invoice is downloadable or none is selected.
 */
export function downloadableHint(downloadable: number, selected: number): string | null {
  if (selected === 0 || downloadable === selected) return null;
  const only = `Solo las facturas adelantadas (${ADVANCED_LABELS}) tienen XML y PDF para descargar`;
  if (downloadable === 0) return `${only}; ninguna de las seleccionadas lo está.`;
  return `${only}: se descargarán ${downloadable} de las ${selected} seleccionadas.`;
}

/** /dashboard/pronto-pago/ (spec §2): the provider's alliances invoices with the advance actions (§4). */
export function ProntoPagoPage({ help, screen, machines }: ProntoPagoPageProps) {
  const { filters, onFiltersChange, list, selection, onSelectionChange: setSelection, trail } = screen;
  const [request, sendRequest] = useMachine(machines.authorizationRequest);
  const [advance, sendAdvance] = useMachine(machines.forwardPayment);
  const [download, sendDownload] = useMachine(machines.invoiceDownload);
  const ids = useMemo(() => list.rows.map((row) => row.id), [list.rows]);

  // Spec §2 puts 'Descargar seleccionados' beside 'Seleccionar todos'; only advanced rows have a ZIP. A selected
  // row on a page the list dropped counts with the status it last showed.
  const lastStatus = useRef(new Map<number, InvoiceStatusCode>());
  const downloadable = useMemo(() => {
    for (const row of list.rows) lastStatus.current.set(row.id, row.status);
    return [...selection].filter((id) => {
      const status = lastStatus.current.get(id);
      return status !== undefined && isAdvancedStatus(status);
    });
  }, [list.rows, selection]);
  const hint = downloadableHint(downloadable.length, selection.size);

  const busy = request.hasTag('busy') || advance.hasTag('busy');

  function actions(invoice: Invoice) {
    // The lifecycle machine says what the provider may do with this row, as the server will.
    const accepted = viewerInvoiceEvents(invoice, 'provider');
    return (
      <>
        {accepted.has('invoice.requestAuthorization') && (
          <Button
            small
            intent="primary"
            text={REQUEST_TEXT}
            aria-label={`${REQUEST_TEXT} ${invoice.fiscal_folio}`}
            disabled={busy}
            onClick={() => sendRequest({ type: 'authorization.request', invoiceId: invoice.id })}
          />
        )}
        {accepted.has('invoice.approveAdvance') && (
          <Button
            small
            intent="success"
            text={ADVANCE_TEXT}
            aria-label={`${ADVANCE_TEXT} ${invoice.fiscal_folio}`}
            disabled={busy}
            onClick={() => sendAdvance({ type: 'advance.open', invoice })}
          />
        )}{' '}
        <HistoryButton invoice={invoice} trail={trail} />
      </>
    );
  }

  const requestDialogOpen = !request.matches('idle');
  const advanceDialogOpen = advance.matches('succeeded') || advance.matches('refused');

  return (
    <section aria-labelledby="pronto-pago-titulo">
      <H1 id="pronto-pago-titulo">Pronto Pago</H1>
      <SectionHelp>{help}</SectionHelp>
      <InvoiceFiltersBar filters={filters} onChange={onFiltersChange}>
        <Button
          text={SELECT_ALL_TEXT}
          disabled={ids.length === 0}
          onClick={() => setSelection((current) => toggleAll(current, ids))}
        />
        <DownloadSelectedButton state={download} send={sendDownload} invoiceIds={downloadable} />
        <span aria-live="polite">
          {selection.size > 0 ? `${selection.size} seleccionada${selection.size === 1 ? '' : 's'}` : ''}
        </span>
      </InvoiceFiltersBar>
      {hint && <p className="bp6-text-muted">{hint}</p>}
      <DownloadStatus state={download} send={sendDownload} selectedCount={downloadable.length} />
      <InvoiceTable
        {...list}
        label="Facturas de Pronto Pago"
        selection={selection}
        onToggleRow={(id) => setSelection((current) => toggleOne(current, id))}
        renderActions={actions}
      />
      <ForwardPaymentDrawer
        state={advance}
        onConfirm={() => sendAdvance({ type: 'advance.confirm' })}
        onRetry={() => sendAdvance({ type: 'advance.retry' })}
        onClose={() => sendAdvance({ type: 'advance.close' })}
      />
      <MessageDialog
        isOpen={requestDialogOpen}
        loading={request.matches('requesting')}
        variant={request.context.dialog?.messageType ?? 'info'}
        message={request.context.dialog?.message ?? null}
        onClose={() => sendRequest({ type: 'dialog.close' })}
      />
      <MessageDialog
        isOpen={advanceDialogOpen}
        loading={false}
        variant={advance.context.dialog?.messageType ?? 'info'}
        message={advance.context.dialog?.message ?? null}
        onClose={() => sendAdvance({ type: 'dialog.close' })}
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
