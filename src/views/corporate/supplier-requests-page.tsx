import { Button, ButtonGroup, Classes, Dialog, FormGroup, H1, TextArea } from '@blueprintjs/core';
import { useMachine } from '@xstate/react';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { ISO_DATE_FORMAT } from '../../domain/calendar-date';
import type { Invoice } from '../../domain/schemas/invoices';
import { MAX_REASON_LENGTH } from '../../domain/schemas/quotations';
import {
  PAYMENT_DATE_REQUIRED,
  type RequestLine,
  type supplierRequestsMachine,
} from '../../machines/supplier-requests.machine';
import { SectionHelp } from '../dashboard/section-help';
import {
  amountColumn,
  dateColumn,
  emitterRfcColumn,
  folioColumn,
  type InvoiceColumn,
  shownFolio,
  textColumn,
} from '../invoices/invoice-columns';
import { InvoiceFiltersBar } from '../invoices/invoice-filters-bar';
import type { InvoiceListScreen } from '../invoices/invoice-list-screen';
import { allSelected, toggleAll, toggleOne } from '../invoices/invoice-selection';
import { InvoiceTable, PRE_AUTHORIZATION_ROW_HEIGHT_PX, SELECT_ALL_TEXT } from '../invoices/invoice-table';
import { MessageDialog } from '../invoices/message-dialog';
import './corporate.css';

export const SUPPLIER_REQUESTS_TITLE = 'Solicitudes';
export const AUTHORIZE_TEXT = 'Autorizar';
export const REJECT_TEXT = 'Rechazar';
export const REJECT_DIALOG_TITLE = 'Rechazar solicitudes';
export const REASON_LABEL = 'Motivo (opcional)';
export const CANCEL_TEXT = 'Cancelar';

/** The accessible name of a row's payment-date field: 'Fecha de pago A-1234'. */
export function paymentDateLabel(invoice: Pick<Invoice, 'fiscal_folio' | 'serie_folio'>): string {
  return `Fecha de pago ${shownFolio(invoice)}`;
}

function PaymentDateField({
  invoice,
  value,
  missing,
  min,
  onChange,
}: {
  invoice: Invoice;
  value: string;
  missing: boolean;
  min: string;
  onChange: (value: string) => void;
}) {
  const errorId = `fecha-pago-error-${invoice.id}`;
  return (
    <span className="flujo-requests-date-cell">
      <input
        type="date"
        className={`${Classes.INPUT} flujo-requests-date ${missing ? Classes.intentClass('danger') : ''}`}
        aria-label={paymentDateLabel(invoice)}
        aria-invalid={missing}
        aria-describedby={missing ? errorId : undefined}
        min={min}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      {missing && (
        <span id={errorId} className={`${Classes.FORM_HELPER_TEXT} ${Classes.TEXT_SMALL}`} role="alert">
          {PAYMENT_DATE_REQUIRED}
        </span>
      )}
    </span>
  );
}

export interface SupplierRequestsPageProps {
  help: string;
  /** The requests list: search and period in the URL, pages, selection. */
  screen: InvoiceListScreen;
  machine: typeof supplierRequestsMachine;
}

/**
 * /dashboard/solicitudes/ (spec §2, §4): the advance requests of the corporate's suppliers. Select rows, give
 * each a payment date and 'Autorizar', or 'Rechazar' with an optional reason; answered rows leave the list.
 */
export function SupplierRequestsPage({ help, screen, machine }: SupplierRequestsPageProps) {
  const { filters, onFiltersChange, list, selection, onSelectionChange: setSelection } = screen;
  const [state, send] = useMachine(machine);
  const [dates, setDates] = useState<ReadonlyMap<number, string>>(new Map());
  const [reason, setReason] = useState('');
  const ids = useMemo(() => list.rows.map((row) => row.id), [list.rows]);
  const missing = useMemo(() => new Set(state.context.missingDates), [state.context.missingDates]);
  // The server accepts payment dates after today (and at most 150 days after emission, which it checks).
  const tomorrow = dayjs().add(1, 'day').format(ISO_DATE_FORMAT);

  const columns: readonly InvoiceColumn[] = useMemo(
    () => [
      folioColumn,
      emitterRfcColumn,
      textColumn('client', 'Cliente', (invoice) => invoice.emitter_name),
      dateColumn('emission', 'Fecha de emisión', (invoice) => invoice.date_of_emission, 'secondary'),
      amountColumn,
      textColumn('description', 'Descripción', (invoice) => invoice.description, { priority: 'secondary' }),
      {
        id: 'payment',
        header: 'Fecha de pago',
        width: '11.5rem',
        cell: (invoice) => (
          <PaymentDateField
            invoice={invoice}
            value={dates.get(invoice.id) ?? ''}
            missing={missing.has(invoice.id) && !dates.get(invoice.id)}
            min={tomorrow}
            onChange={(value) => setDates((current) => new Map(current).set(invoice.id, value))}
          />
        ),
      },
    ],
    [dates, missing, tomorrow],
  );

  const selectedLines = (): RequestLine[] =>
    list.rows
      .filter((row) => selection.has(row.id))
      .map((row) => ({ invoiceId: row.id, label: shownFolio(row), paymentDate: dates.get(row.id) ?? '' }));

  const busy = state.hasTag('busy');
  const dialogOpen = busy || state.matches('answered') || state.matches('failed');
  const nothingSelected = selection.size === 0;

  return (
    <section aria-labelledby="solicitudes-titulo" className="flujo-supplier-requests">
      <H1 id="solicitudes-titulo">{SUPPLIER_REQUESTS_TITLE}</H1>
      <SectionHelp>{help}</SectionHelp>
      <InvoiceFiltersBar filters={filters} onChange={onFiltersChange} statusOptions={null} />
      <ButtonGroup className="flujo-invoice-toolbar">
        <Button
          text={SELECT_ALL_TEXT}
          disabled={ids.length === 0}
          aria-pressed={allSelected(selection, ids)}
          onClick={() => setSelection((current) => toggleAll(current, ids))}
        />
        <Button
          intent="primary"
          text={AUTHORIZE_TEXT}
          disabled={nothingSelected || busy}
          onClick={() => send({ type: 'requests.authorize', lines: selectedLines() })}
        />
        <Button
          intent="danger"
          text={REJECT_TEXT}
          disabled={nothingSelected || busy}
          onClick={() => {
            setReason('');
            send({ type: 'requests.reject', lines: selectedLines() });
          }}
        />
      </ButtonGroup>
      <InvoiceTable
        label="Solicitudes de adelanto"
        {...list}
        selection={selection}
        onToggleRow={(id) => setSelection((current) => toggleOne(current, id))}
        columns={columns}
        rowHeight={PRE_AUTHORIZATION_ROW_HEIGHT_PX}
      />
      <Dialog
        isOpen={state.matches('confirmingReject')}
        onClose={() => send({ type: 'reject.cancel' })}
        title={REJECT_DIALOG_TITLE}
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            send({ type: 'reject.confirm', reason });
          }}
        >
          <div className={Classes.DIALOG_BODY}>
            <p>
              {state.context.lines.length === 1
                ? `Se rechazará la solicitud de la factura ${state.context.lines[0]?.label}; tu proveedor recibirá el aviso.`
                : `Se rechazarán ${state.context.lines.length} solicitudes; tus proveedores recibirán el aviso.`}
            </p>
            <FormGroup label={REASON_LABEL} labelFor="motivo-rechazo">
              <TextArea
                id="motivo-rechazo"
                fill
                maxLength={MAX_REASON_LENGTH}
                value={reason}
                onChange={(event) => setReason(event.target.value)}
              />
            </FormGroup>
          </div>
          <div className={Classes.DIALOG_FOOTER}>
            <div className={Classes.DIALOG_FOOTER_ACTIONS}>
              <Button text={CANCEL_TEXT} onClick={() => send({ type: 'reject.cancel' })} />
              <Button type="submit" intent="danger" text={REJECT_TEXT} />
            </div>
          </div>
        </form>
      </Dialog>
      <MessageDialog
        isOpen={dialogOpen}
        loading={busy}
        variant={state.context.variant}
        message={state.context.messages}
        onClose={() => send({ type: 'dialog.close' })}
      />
    </section>
  );
}
