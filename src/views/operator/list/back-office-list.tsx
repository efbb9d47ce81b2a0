import { Button, Callout, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { OperatorPager } from '../operator-pager';
import '../alliances/operator-lists.css';

/**
 * The back office's one shape for data a screen reads from the server (decision 0064): what react-query's
 * result holds, narrowed to what a view renders. Routes make it with `remoteData(query)`.
 */
export interface RemoteData<T> {
  status: 'pending' | 'error' | 'success';
  data: T | undefined;
  retry(): void;
}

/** A list page as the server sends it: its rows and, for a paged list, how many there are in all. */
export interface ListPage<Row> {
  results: readonly Row[];
  count?: number;
}

/** A list already in hand (part of an answer the page holds), as the list screen reads it. */
export function loadedList<Row>(
  results: readonly Row[],
  retry: () => void = () => {},
): RemoteData<ListPage<Row>> {
  return { status: 'success', data: { results }, retry };
}

/** The rows one part of a remote answer holds (a batch's orders, an alliance's prices), with its status and retry. */
export function remoteList<T, Row>(
  remote: RemoteData<T>,
  rows: (data: T) => readonly Row[],
): RemoteData<ListPage<Row>> {
  return { ...remote, data: remote.data === undefined ? undefined : { results: rows(remote.data) } };
}

export interface BackOfficeColumn<Row> {
  /** Stable key; also the cell's class suffix (`flujo-operator-table__<id>`). */
  id: string;
  /** The column's heading; on a narrow screen, the label before each row's value (the row reads as a card). */
  header: string;
  cell(row: Row): ReactNode;
  /** The cell that names its row (`<th scope="row">`, the row's accessible header); a data cell when absent. */
  rowHeader?: boolean;
}

export interface BackOfficePaging {
  /** The nav's accessible name, e.g. 'Páginas de la bandeja'. */
  label: string;
  page: number;
  pageSize: number;
  noun: readonly [one: string, other: string];
  onPage(page: number): void;
}

export interface BackOfficeListProps<Row> {
  /** The table's accessible name. */
  label: string;
  remote: RemoteData<ListPage<Row>>;
  columns: readonly BackOfficeColumn<Row>[];
  rowKey(row: Row): string | number;
  /** A row's gestures, in a last 'Acciones' column; omitted when the list has none. */
  rowActions?: (row: Row) => ReactNode;
  /** What the spinner says while the first answer is on its way. */
  loading: string;
  /** The title of the error state ('No pudimos cargar la bandeja.'), shown with 'Reintentar'. */
  failed: string;
  /** A sentence under the error state's title ('Intenta de nuevo en unos momentos.'), when the screen has one. */
  failedDetail?: string;
  /**
   * What an empty list says. `level`: the title's heading level when the page's outline needs one below its
   * section's heading (NonIdealState's own title is an h4; axe's heading-order).
   */
  empty: { title: string; description?: string; level?: 2 | 3 | 4 | 5 | 6 };
  paging?: BackOfficePaging;
  className?: string;
  /**
   * Below which width (px) each row reads as a card: 800 for every list (where the shell's menu goes on top);
   * 1100 for a list whose columns do not fit beside the menu at 1024 px (operator-lists.css).
   */
  cardsBelow?: 800 | 1100;
}

/**
 * Every back-office list: loading, error with 'Reintentar', empty, the table and its pager, configured by its
 * columns and row actions. A new list costs its columns and its query (the route's `useBackOfficeList`).
 */
export function BackOfficeList<Row>({
  label,
  remote,
  columns,
  rowKey,
  rowActions,
  loading,
  failed,
  failedDetail,
  empty,
  paging,
  className,
  cardsBelow = 800,
}: BackOfficeListProps<Row>) {
  if (remote.status === 'pending') return <Spinner aria-label={loading} size={32} />;
  if (remote.status === 'error' || !remote.data) {
    return (
      <Callout intent="danger" role="alert" title={failed}>
        {failedDetail && <p>{failedDetail}</p>}
        <Button intent="primary" text="Reintentar" onClick={remote.retry} />
      </Callout>
    );
  }
  const { results, count } = remote.data;
  if (results.length === 0) {
    if (empty.level === undefined)
      return <NonIdealState title={empty.title} description={empty.description} />;
    const Heading = `h${empty.level}` as const;
    return (
      <NonIdealState>
        <Heading>{empty.title}</Heading>
        {empty.description && <p>{empty.description}</p>}
      </NonIdealState>
    );
  }
  return (
    <>
      {/* Below 800 px (or `cardsBelow`) each row reads as a card of label: value pairs, its actions at the bottom
          (operator-lists.css); a wider screen too narrow for a long table scrolls it sideways, by keyboard too. */}
      <div
        className={
          cardsBelow === 800
            ? 'flujo-operator-table-scroll'
            : `flujo-operator-table-scroll flujo-operator-table-scroll--cards-below-${cardsBelow}`
        }
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe)
        tabIndex={0}
      >
        <HTMLTable
          striped
          className={['flujo-operator-table', className].filter(Boolean).join(' ')}
          aria-label={label}
        >
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.id} scope="col" className={`flujo-operator-table__${column.id}`}>
                  {column.header}
                </th>
              ))}
              {rowActions && <th scope="col">Acciones</th>}
            </tr>
          </thead>
          <tbody>
            {results.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((column) =>
                  column.rowHeader ? (
                    <th
                      key={column.id}
                      scope="row"
                      className={`flujo-operator-table__${column.id}`}
                      data-label={column.header}
                    >
                      {column.cell(row)}
                    </th>
                  ) : (
                    <td
                      key={column.id}
                      className={`flujo-operator-table__${column.id}`}
                      data-label={column.header}
                    >
                      {column.cell(row)}
                    </td>
                  ),
                )}
                {rowActions && <td className="flujo-operator-table__actions">{rowActions(row)}</td>}
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
      {paging && count !== undefined && (
        <OperatorPager
          label={paging.label}
          page={paging.page}
          count={count}
          noun={paging.noun}
          pageSize={paging.pageSize}
          hasPrevious={paging.page > 1}
          hasNext={paging.page < Math.ceil(count / paging.pageSize)}
          onPage={paging.onPage}
        />
      )}
    </>
  );
}

/** A truncated cell's widest line, in characters; over twice this a text is cut (about a column at 1280 px). */
export const TRUNCATED_CELL_CHARS = 32;

/**
 * A cell's text that may be long (a name typed in a public form): over `chars` characters it holds at most two
 * lines of `chars`, breaking anywhere, cut with an ellipsis, and shows the whole text on hover (its title) and on
 * keyboard focus; screen readers read it all. With `href` it is a link (an e-mail address). On a narrow screen's card it wraps instead
 * (operator-lists.css).
 */
export function TruncatedCell({
  text,
  href,
  chars = TRUNCATED_CELL_CHARS,
}: {
  text: string;
  href?: string;
  chars?: number;
}) {
  if (text.length <= chars) return href ? <a href={href}>{text}</a> : text;
  const cut = { className: 'flujo-operator-cell-truncated', style: { maxWidth: `${chars}ch` }, title: text };
  if (href) {
    return (
      <a href={href} {...cut}>
        {text}
      </a>
    );
  }
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the keyboard reaches the cut text to read it whole (WCAG 1.4.13)
    <span {...cut} tabIndex={0}>
      {text}
    </span>
  );
}
