import { Button, Callout, Checkbox, NonIdealState, Spinner } from '@blueprintjs/core';
import { forwardRef, type ReactNode } from 'react';
import { TableVirtuoso } from 'react-virtuoso';
import type { Invoice } from '../../domain/schemas/invoices';
import { formatAmount, formatDisplayDate } from './invoice-format';
import type { InvoiceSelection } from './invoice-selection';
import { InvoiceStatusBadge } from './invoice-status-badge';
import './invoices.css';

/** Spec §9: the table is 600 px high, rows 60 px, and the next page loads within 600 px of the end. */
export const TABLE_HEIGHT_PX = 600;
export const ROW_HEIGHT_PX = 60;
export const LOAD_AHEAD_PX = 600;
export const EMPTY_INVOICES_TEXT = 'No hay facturas para revisar';
export const LOAD_FAILED_TEXT = 'No pudimos cargar tus facturas.';

export interface InvoiceTableProps {
  rows: readonly Invoice[];
  /** The first page is loading: a spinner instead of the table. */
  loading: boolean;
  /** The first page failed: the message and 'Reintentar' (onRetry). */
  error: boolean;
  onRetry: () => void;
  /** More pages exist (loaded rows fewer than count); onEndReached is called near the end. */
  hasMore: boolean;
  loadingMore: boolean;
  onEndReached: () => void;
  /** A later page failed: shown under the table with its own retry (onEndReached again). */
  moreFailed?: boolean;
  /**
   * Earlier pages exist (the bounded list dropped them); onStartReached is called at the top. `firstItemIndex`
   * moves by the rows added or dropped above, so the visible rows stay in place (react-virtuoso's prepend).
   */
  hasEarlier?: boolean;
  loadingEarlier?: boolean;
  earlierFailed?: boolean;
  onStartReached?: () => void;
  firstItemIndex?: number;
  /** Which list this is (its query key): another list starts a fresh table at the top. */
  listKey?: string;
  /** Selected row ids, or null for a table without selection. */
  selection: InvoiceSelection | null;
  onToggleRow?: (id: number) => void;
  /** The one action of each row (spec §2): 'Solicitar adelanto', 'Adelantar pago', 'Historial'… */
  renderActions?: (invoice: Invoice) => ReactNode;
  /** The status cell; the provider badge by default. */
  renderStatus?: (invoice: Invoice) => ReactNode;
  emptyText?: string;
  /** Accessible name of the table. */
  label: string;
}

/** The table's list props as a bounded infinite query gives them (`useInvoicePages`). */
export type InvoiceListProps = Omit<
  InvoiceTableProps,
  'selection' | 'onToggleRow' | 'renderActions' | 'renderStatus' | 'emptyText' | 'label'
>;

const COLUMNS = ['Folio', 'RFC', 'Cliente', 'Fecha de emisión', 'Monto', 'Descripción', 'Estatus'] as const;

/**
 * The invoices table of spec §2: fixed 60 px rows virtualized by react-virtuoso in a 600 px box, folio,
 * RFC (receiver_rfc), client (receiver_name), issue date DD/MM/YYYY, amount, description, status badge,
 * an optional selection checkbox and the row's actions.
 */
export function InvoiceTable({
  rows,
  loading,
  error,
  onRetry,
  hasMore,
  loadingMore,
  onEndReached,
  moreFailed = false,
  hasEarlier = false,
  loadingEarlier = false,
  earlierFailed = false,
  onStartReached,
  firstItemIndex = 0,
  listKey,
  selection,
  onToggleRow,
  renderActions,
  renderStatus = (invoice) => <InvoiceStatusBadge status={invoice.status} />,
  emptyText = EMPTY_INVOICES_TEXT,
  label,
}: InvoiceTableProps) {
  if (loading) return <Spinner aria-label="Cargando facturas…" />;
  if (error)
    return (
      <Callout intent="danger" role="alert">
        <p>{LOAD_FAILED_TEXT}</p>
        <Button intent="primary" text="Reintentar" onClick={onRetry} />
      </Callout>
    );
  if (rows.length === 0) return <NonIdealState title={emptyText} />;

  return (
    <div className="flujo-invoice-table">
      <TableVirtuoso
        key={listKey}
        aria-label={label}
        style={{ height: TABLE_HEIGHT_PX }}
        data={rows}
        // NOTE: not fixedItemHeight: react-virtuoso 4 then skips measuring rows and its prepend (firstItemIndex
        // moving down) writes a margin on the unmeasured body and throws.
        defaultItemHeight={ROW_HEIGHT_PX}
        increaseViewportBy={{ top: 0, bottom: LOAD_AHEAD_PX }}
        endReached={() => {
          if (hasMore && !loadingMore && !moreFailed) onEndReached();
        }}
        firstItemIndex={firstItemIndex}
        startReached={() => {
          if (hasEarlier && !loadingEarlier && !earlierFailed) onStartReached?.();
        }}
        computeItemKey={(_, invoice) => invoice.id}
        components={{ Table: PlainTable }}
        fixedHeaderContent={() => (
          <tr>
            {selection && (
              <th scope="col">
                <span className="bp6-text-muted">Sel.</span>
              </th>
            )}
            {COLUMNS.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
            {renderActions && <th scope="col">Acciones</th>}
          </tr>
        )}
        itemContent={(_, invoice) => (
          <>
            {selection && (
              <td>
                <Checkbox
                  aria-label={`Seleccionar factura ${invoice.fiscal_folio}`}
                  checked={selection.has(invoice.id)}
                  onChange={() => onToggleRow?.(invoice.id)}
                />
              </td>
            )}
            <td className="flujo-invoice-folio">{invoice.fiscal_folio}</td>
            <td>{invoice.receiver_rfc}</td>
            <td>{invoice.receiver_name}</td>
            <td>{formatDisplayDate(invoice.date_of_emission)}</td>
            <td className="flujo-invoice-amount">{formatAmount(invoice.amount)}</td>
            <td className="flujo-invoice-description">{invoice.description}</td>
            <td>{renderStatus(invoice)}</td>
            {renderActions && <td className="flujo-invoice-actions">{renderActions(invoice)}</td>}
          </>
        )}
      />
      {loadingEarlier && <Spinner size={20} aria-label="Cargando facturas anteriores…" />}
      {earlierFailed && (
        <Callout intent="warning" role="alert">
          <p>No pudimos cargar las facturas anteriores.</p>
          <Button text="Reintentar" onClick={onStartReached} />
        </Callout>
      )}
      {loadingMore && <Spinner size={20} aria-label="Cargando más facturas…" />}
      {moreFailed && (
        <Callout intent="warning" role="alert">
          <p>No pudimos cargar más facturas.</p>
          <Button text="Reintentar" onClick={onEndReached} />
        </Callout>
      )}
    </div>
  );
}

const PlainTable = forwardRef<HTMLTableElement, React.TableHTMLAttributes<HTMLTableElement>>(
  function PlainTable(props, ref) {
    return (
      <table {...props} ref={ref} className="bp6-html-table bp6-html-table-striped flujo-invoice-grid" />
    );
  },
);
