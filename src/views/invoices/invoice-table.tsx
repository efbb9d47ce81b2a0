import { Button, Callout, Checkbox, Classes, NonIdealState, Spinner } from '@blueprintjs/core';
import { type CSSProperties, forwardRef, type ReactNode, useDeferredValue, useMemo } from 'react';
import { TableVirtuoso, type TableVirtuosoProps } from 'react-virtuoso';
import type { Invoice } from '../../domain/schemas/invoices';
import { type InvoiceColumn, PROVIDER_INVOICE_COLUMNS } from './invoice-columns';
import type { InvoiceSelection } from './invoice-selection';
import './invoices.css';

/** Spec §9: the table is 600 px high, rows 60 px, and the next page loads within 600 px of the end. */
export const TABLE_HEIGHT_PX = 600;
export const ROW_HEIGHT_PX = 60;
/** Spec §9: pre-authorization rows carry a date input and are 70 px. */
export const PRE_AUTHORIZATION_ROW_HEIGHT_PX = 70;
export const LOAD_AHEAD_PX = 600;
export const EMPTY_INVOICES_TEXT = 'No hay facturas para revisar';
export const LOAD_FAILED_TEXT = 'No pudimos cargar tus facturas.';
export const LOADING_TEXT = 'Cargando facturas…';
/** The selecting lists' button (Pronto Pago, pre-authorization, supplier requests). */
export const SELECT_ALL_TEXT = 'Seleccionar todos';
const ACTIONS_HEADER = 'Acciones';

/** What virtuoso hands the table's components: the screen's label for the table element. */
interface TableContext {
  label: string;
}

type TableRowProps =
  NonNullable<
    NonNullable<TableVirtuosoProps<Invoice, TableContext>['components']>['TableRow']
  > extends React.ComponentType<infer P>
    ? P
    : never;

export interface InvoiceTableProps {
  rows: readonly Invoice[];
  /** The first page is loading: skeleton rows instead of the table. */
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
  /** The screen's columns; the provider's (spec §2) by default. */
  columns?: readonly InvoiceColumn[];
  /** Row height in px: 60 (spec §9), 70 on pre-authorization (a date input per row). */
  rowHeight?: number;
  /** The row's actions (spec §2): 'Solicitar adelanto', 'Adelantar pago', 'Historial'… */
  renderActions?: (invoice: Invoice) => ReactNode;
  /** The actions column's width (a CSS length): 10.5rem, room for two buttons, unless the row has only one. */
  actionsWidth?: string;
  emptyText?: string;
  /** Accessible name of the table. */
  label: string;
}

/** The table's list props as a bounded infinite query gives them (`useInvoicePages`). */
export type InvoiceListProps = Omit<
  InvoiceTableProps,
  | 'selection'
  | 'onToggleRow'
  | 'renderActions'
  | 'actionsWidth'
  | 'columns'
  | 'rowHeight'
  | 'emptyText'
  | 'label'
>;

/** The table's width for each column, the actions' included, in the full (desktop) layout. */
const ACTIONS_WIDTH = '10.5rem';
const SELECTION_WIDTH = '2.75rem';
/**
 * Below 1024 px a row is a card (invoices.css) of about 268 px, several times a row's height. Virtuoso renders as many items as
 * its default height fits in the viewport before it measures them; with the row's 60 px it would render four
 * times the cards a phone shows, each with its tooltips, and then drop them.
 */
const CARD_HEIGHT_ESTIMATE_PX = 268;
const CARD_LAYOUT_QUERY = '(max-width: 1023.98px)';

function defaultItemHeight(rowHeight: number): number {
  const cards = typeof window !== 'undefined' && window.matchMedia?.(CARD_LAYOUT_QUERY).matches;
  return cards ? CARD_HEIGHT_ESTIMATE_PX : rowHeight;
}

/** Skeleton rows shown while the first page loads. */
const SKELETON_ROWS = 6;

function columnClass(column: InvoiceColumn): string {
  return [
    `flujo-col-${column.id}`,
    column.priority === 'secondary' ? 'flujo-col-secondary' : '',
    column.className ?? '',
  ]
    .filter(Boolean)
    .join(' ');
}

function HeaderRow({
  columns,
  selectable,
  withActions,
  actionsWidth,
}: {
  columns: readonly InvoiceColumn[];
  selectable: boolean;
  withActions: boolean;
  actionsWidth: string;
}) {
  return (
    <tr>
      {selectable && (
        <th scope="col" style={{ width: SELECTION_WIDTH }} className="flujo-col-select">
          <span className="bp6-text-muted">Sel.</span>
        </th>
      )}
      {columns.map((column) => (
        <th key={column.id} scope="col" style={{ width: column.width }} className={columnClass(column)}>
          {column.header}
        </th>
      ))}
      {withActions && (
        <th scope="col" style={{ width: actionsWidth }} className="flujo-col-actions">
          {ACTIONS_HEADER}
        </th>
      )}
    </tr>
  );
}

/**
 * The invoices table of spec §2: rows of a fixed height (60 px, 70 on pre-authorization) virtualized by
 * react-virtuoso in a 600 px box under a sticky header, the columns the screen declares, an optional selection
 * checkbox and the row's actions. Below 1024 px each row reads as a card of label: value pairs (invoices.css).
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
  columns = PROVIDER_INVOICE_COLUMNS,
  rowHeight = ROW_HEIGHT_PX,
  selection,
  onToggleRow,
  renderActions,
  actionsWidth = ACTIONS_WIDTH,
  emptyText = EMPTY_INVOICES_TEXT,
  label,
}: InvoiceTableProps) {
  // A page of rows arrives as one store update, which React would render in one long task. Deferred, the
  // rows render in a transition that yields to the browser between slices; the table shows what it showed
  // before (the skeleton, say) until they are ready.
  const list = useDeferredValue(useMemo(() => ({ rows, loading, error }), [rows, loading, error]));
  const rowStyle = { '--flujo-row-height': `${rowHeight}px` } as CSSProperties;
  const header = (
    <HeaderRow
      columns={columns}
      selectable={selection !== null}
      withActions={renderActions !== undefined}
      actionsWidth={actionsWidth}
    />
  );
  if (list.loading)
    return (
      <div className="flujo-invoice-table" style={rowStyle} role="status" aria-label={LOADING_TEXT}>
        <table className={TABLE_CLASSES} aria-hidden="true">
          <thead>{header}</thead>
          <tbody>
            {Array.from({ length: SKELETON_ROWS }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have nothing but their place.
              <tr key={index} className="flujo-invoice-row">
                {selection && <td className="flujo-col-select" />}
                {columns.map((column) => (
                  <td key={column.id} className={columnClass(column)}>
                    <span className={`${Classes.SKELETON} flujo-skeleton-bar`} />
                  </td>
                ))}
                {renderActions && (
                  <td className="flujo-col-actions">
                    <span className={`${Classes.SKELETON} flujo-skeleton-bar`} />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  if (list.error)
    return (
      <Callout intent="danger" role="alert">
        <p>{LOAD_FAILED_TEXT}</p>
        <Button intent="primary" text="Reintentar" onClick={onRetry} />
      </Callout>
    );
  if (list.rows.length === 0)
    return (
      // Blueprint's title is an h4: under the page's h1 and the help card's h2 it skips a level (axe heading-order).
      <NonIdealState
        className="flujo-section-empty"
        description={<h2 className="bp6-heading flujo-section-empty-title">{emptyText}</h2>}
      />
    );

  return (
    <div className="flujo-invoice-table" style={rowStyle}>
      <TableVirtuoso<Invoice, TableContext>
        key={listKey}
        context={{ label }}
        style={{ height: TABLE_HEIGHT_PX }}
        data={list.rows}
        // NOTE: not fixedItemHeight: react-virtuoso 4 then skips measuring rows and its prepend (firstItemIndex
        // moving down) writes a margin on the unmeasured body and throws. Cards (below 1024 px) are taller anyway.
        defaultItemHeight={defaultItemHeight(rowHeight)}
        increaseViewportBy={{ top: 0, bottom: LOAD_AHEAD_PX }}
        endReached={() => {
          if (hasMore && !loadingMore && !moreFailed) onEndReached();
        }}
        firstItemIndex={firstItemIndex}
        startReached={() => {
          if (hasEarlier && !loadingEarlier && !earlierFailed) onStartReached?.();
        }}
        computeItemKey={(_, invoice) => invoice.id}
        components={{ Table: PlainTable, TableRow: InvoiceRow }}
        fixedHeaderContent={() => header}
        itemContent={(_, invoice) => (
          <>
            {selection && (
              <td className="flujo-col-select">
                <Checkbox
                  aria-label={`Seleccionar factura ${invoice.fiscal_folio}`}
                  checked={selection.has(invoice.id)}
                  onChange={() => onToggleRow?.(invoice.id)}
                />
              </td>
            )}
            {columns.map((column) => (
              <td key={column.id} className={columnClass(column)} data-label={column.header}>
                {column.cell(invoice)}
              </td>
            ))}
            {renderActions && <td className="flujo-col-actions">{renderActions(invoice)}</td>}
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

const TABLE_CLASSES = 'bp6-html-table bp6-html-table-striped flujo-invoice-grid';

/** A data row (virtuoso's own spacer rows stay plain), so the card layout touches only invoices. */
const InvoiceRow = forwardRef<HTMLTableRowElement, TableRowProps>(function InvoiceRow(
  { item: _item, context: _context, ...props },
  ref,
) {
  return <tr {...props} ref={ref} className="flujo-invoice-row" />;
});

/** The table element, named by the screen's label (virtuoso hands components its `context`). */
const PlainTable = forwardRef<
  HTMLTableElement,
  React.TableHTMLAttributes<HTMLTableElement> & { context: TableContext }
>(function PlainTable({ context, ...props }, ref) {
  return <table {...props} ref={ref} className={TABLE_CLASSES} aria-label={context.label} />;
});
