import { Button, H1 } from '@blueprintjs/core';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { CORPORATE_STATUS_MEANINGS } from '../../domain/invoice-status';
import { PAYMENT_DATE_REQUIRED, preAuthorizationDateError } from '../../domain/payment-date';
import type { PreAuthorizationWork } from '../../domain/pre-authorization';
import type { Invoice } from '../../domain/schemas/invoices';
import type { bulkAuthorizationMachine } from '../../machines/bulk-authorization.machine';
import type { preAuthorizationMachine, SelectableInvoice } from '../../machines/pre-authorization.machine';
import { SectionHelp } from '../dashboard/section-help';
import {
  amountColumn,
  dateColumn,
  folioColumn,
  type InvoiceColumn,
  shownFolio,
  textColumn,
} from '../invoices/invoice-columns';
import { InvoiceStatusBadge } from '../invoices/invoice-status-badge';
import {
  type InvoiceListProps,
  InvoiceTable,
  PRE_AUTHORIZATION_ROW_HEIGHT_PX,
  SELECT_ALL_TEXT,
} from '../invoices/invoice-table';
import { MessageDialog } from '../invoices/message-dialog';
import { BulkAuthorization } from './bulk-authorization';
import { PaymentDateInput } from './payment-date-input';

export const QUOTE_TEXT = 'Cotizar';
export const PAYMENT_DATE_HEADER = 'Fecha de pago';

function selectable(invoice: Invoice): SelectableInvoice {
  return { id: invoice.id, folio: shownFolio(invoice), emissionDate: invoice.date_of_emission };
}

export interface PreAuthorizationPageProps {
  help: string;
  list: InvoiceListProps;
  machine: typeof preAuthorizationMachine;
  /** The saved work (or an empty one), read when the page opens. */
  input: PreAuthorizationWork;
  /** The template and ZIP uploads (issue 14). */
  bulkMachine: typeof bulkAuthorizationMachine;
}

/**
 * /dashboard/pre-autorizacion/ (spec §2, §5, §9): the received invoices the buyer may still pre-authorize, a
 * checkbox and a payment date per 70 px row, 'Seleccionar todos' and 'Cotizar'.
 */
export function PreAuthorizationPage({ help, list, machine, input, bulkMachine }: PreAuthorizationPageProps) {
  const [state, send] = useMachine(machine, { input });
  const { invoices, showErrors, blockedMessage, today } = state.context;
  const selected = useMemo(() => new Map(invoices.map((item) => [item.id, item])), [invoices]);
  const selection = useMemo(() => new Set(selected.keys()), [selected]);
  const rowsById = useMemo(() => new Map(list.rows.map((row) => [row.id, row])), [list.rows]);

  const columns = useMemo<readonly InvoiceColumn[]>(() => {
    const paymentDateColumn: InvoiceColumn = {
      id: 'payment-date',
      header: PAYMENT_DATE_HEADER,
      width: '11rem',
      cell: (invoice) => {
        const item = selected.get(invoice.id);
        const error = item ? preAuthorizationDateError(item.emissionDate, item.paymentDate, today) : null;
        // 'Requerido' waits for 'Cotizar'; a wrong, past or too distant date shows as soon as it is entered
        // (a past one with the server's own text, so the quotation's call never has to refuse it).
        const shown = error === PAYMENT_DATE_REQUIRED && !showErrors ? null : error;
        return (
          <PaymentDateInput
            value={item?.paymentDate ?? null}
            label={`${PAYMENT_DATE_HEADER} ${shownFolio(invoice)}`}
            error={item ? shown : null}
            disabled={!item}
            onChange={(paymentDate) => send({ type: 'date.change', invoiceId: invoice.id, paymentDate })}
          />
        );
      },
    };
    return [
      folioColumn,
      {
        id: 'rfc',
        header: 'RFC',
        cell: (invoice) => invoice.emitter_rfc,
        width: '8.25rem',
        priority: 'secondary',
      },
      textColumn('provider', 'Proveedor', (invoice) => invoice.emitter_name),
      dateColumn('emission', 'Fecha de emisión', (invoice) => invoice.date_of_emission),
      amountColumn,
      {
        id: 'status',
        header: 'Estatus',
        width: '7rem',
        cell: (invoice) => (
          <InvoiceStatusBadge status={invoice.status} meanings={CORPORATE_STATUS_MEANINGS} />
        ),
      },
      paymentDateColumn,
    ];
  }, [selected, showErrors, today, send]);

  const rows = list.rows.map(selectable);
  return (
    <section aria-labelledby="pre-autorizacion-titulo">
      <H1 id="pre-autorizacion-titulo">Pre-autorización</H1>
      <SectionHelp>{help}</SectionHelp>
      <BulkAuthorization machine={bulkMachine} />
      <div className="flujo-list-actions">
        <Button
          text={SELECT_ALL_TEXT}
          disabled={rows.length === 0}
          onClick={() => send({ type: 'invoice.toggleAll', invoices: rows })}
        />
        <Button
          intent="primary"
          text={QUOTE_TEXT}
          disabled={selection.size === 0 || state.matches('quoting')}
          onClick={() => send({ type: 'quote' })}
        />
        <span aria-live="polite">
          {selection.size > 0 ? `${selection.size} seleccionada${selection.size === 1 ? '' : 's'}` : ''}
        </span>
      </div>
      <InvoiceTable
        {...list}
        label="Facturas por pre-autorizar"
        columns={columns}
        rowHeight={PRE_AUTHORIZATION_ROW_HEIGHT_PX}
        selection={selection}
        onToggleRow={(id) => {
          const row = rowsById.get(id);
          const kept = selected.get(id);
          if (row) send({ type: 'invoice.toggle', invoice: selectable(row) });
          else if (kept) send({ type: 'invoice.toggle', invoice: kept });
        }}
      />
      <MessageDialog
        isOpen={blockedMessage !== null}
        loading={false}
        variant="warning"
        message={blockedMessage}
        onClose={() => send({ type: 'dialog.close' })}
      />
    </section>
  );
}
