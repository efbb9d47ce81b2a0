import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useMemo, useRef } from 'react';
import { type Invoice, PAGE_SIZE } from '../../domain/schemas/invoices';
import type { InvoiceListProps } from './invoice-table';

// What the shared table reads of a bounded infinite list (src/services/infinite-pages.ts): rows, both ends
// and, for react-virtuoso, the index of the first row kept, so dropped pages can come back above it.

/**
 * Room below the first row's index for pages that come back: react-virtuoso wants `firstItemIndex` positive and
 * only reads how it changes (NOTE: react-virtuoso docs, "Prepending items").
 */
export const FIRST_ROW_INDEX_BASE = 1_000_000;

interface LoadedPage {
  results: readonly unknown[];
}

/** The first page kept, the index of its first row, and how many rows each kept page held. */
export interface ListStart {
  firstParam: number;
  firstItemIndex: number;
  rowsByPage: ReadonlyMap<number, number>;
}

/**
 * Where the rows start after the pages changed. react-virtuoso keeps the visible rows in place when
 * `firstItemIndex` moves by exactly the rows added (down) or dropped (up) at the top, so it counts the rows of
 * the pages that came or went, never assumes 25 (a page may be short after a row left it).
 */
export function nextListStart(
  previous: ListStart | null,
  pageParams: readonly unknown[],
  pages: readonly LoadedPage[],
): ListStart {
  const rowsByPage = new Map(pageParams.map((param, index) => [Number(param), pages[index]!.results.length]));
  const firstParam = Number(pageParams[0] ?? 1);
  if (!previous)
    return { firstParam, firstItemIndex: FIRST_ROW_INDEX_BASE + (firstParam - 1) * PAGE_SIZE, rowsByPage };
  let firstItemIndex = previous.firstItemIndex;
  // Earlier pages came back: the rows above move the index down.
  for (let param = firstParam; param < previous.firstParam; param++)
    firstItemIndex -= rowsByPage.get(param) ?? 0;
  // The first pages were dropped (maxPages): the rows they held move it up.
  for (let param = previous.firstParam; param < firstParam; param++)
    firstItemIndex += previous.rowsByPage.get(param) ?? 0;
  return { firstParam, firstItemIndex, rowsByPage };
}

type InvoicePagesQuery = UseInfiniteQueryResult<
  InfiniteData<{ count: number; results: Invoice[] }, unknown>,
  Error
>;

/**
 * The table's list props for a bounded infinite query: later pages on `endReached`, earlier (dropped) pages on
 * `startReached`, and `listKey` (the query key) so another list (new filters) starts a fresh table.
 */
export function useInvoicePages(query: InvoicePagesQuery, listKey: readonly unknown[]): InvoiceListProps {
  const key = JSON.stringify(listKey);
  const start = useRef<{ key: string; data: unknown; value: ListStart } | null>(null);
  const { data } = query;
  if (data && (start.current?.key !== key || start.current.data !== data)) {
    const previous = start.current?.key === key ? start.current.value : null;
    start.current = { key, data, value: nextListStart(previous, data.pageParams, data.pages) };
  }
  const rows = useMemo(() => data?.pages.flatMap((page) => page.results) ?? [], [data]);
  const failed = !data && query.isError && !query.isFetching;
  return {
    rows,
    listKey: key,
    // A retry after an error shows the spinner again until the server answers.
    loading: !data && !failed,
    error: failed,
    onRetry: () => void query.refetch(),
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    moreFailed: query.isFetchNextPageError,
    onEndReached: () => void query.fetchNextPage(),
    hasEarlier: query.hasPreviousPage,
    loadingEarlier: query.isFetchingPreviousPage,
    earlierFailed: query.isFetchPreviousPageError,
    onStartReached: () => void query.fetchPreviousPage(),
    firstItemIndex: start.current?.key === key ? start.current.value.firstItemIndex : FIRST_ROW_INDEX_BASE,
  };
}
