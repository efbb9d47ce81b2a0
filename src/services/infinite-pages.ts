import { PAGE_SIZE } from '../domain/schemas/invoices';

// The page parameters of the DRF-style invoice lists (`?page=N`, 25 rows, {count, results}) for TanStack
// Query's infinite queries, written once for every such list.

/**
 * ARCHITECTURE: infinite lists stay bounded so a long scroll does not keep (and, after an invalidation,
 * refetch) hundreds of pages. 40 pages are 1,000 rows; past them the first loaded page is dropped, and the
 * shared table fetches it back when the user scrolls up to it (`useInvoicePages`, decision 0014).
 */
export const MAX_LOADED_PAGES = 40;

/** What the page parameters read of a page: the server's total and this page's rows. */
interface CountedPage {
  count: number;
  /** The invoice lists' flag (decision 0074): count is a lower bound, the matches go on past it. */
  count_is_estimate?: boolean;
  results: readonly unknown[];
}

/**
 * The page after `lastParam`, or undefined at the end. Spec §9: the next page exists while the rows loaded
 * are fewer than count; with dropped pages the rows "loaded" are those up to the end of the last page, so
 * it counts from the page number, never from how many pages are kept. An empty page ends the list. When the
 * count is a lower bound (a search past 5,000 matches, decision 0074) a full page is followed by another.
 */
export function nextPageParam(last: CountedPage, _pages: unknown, lastParam: number): number | undefined {
  const rowsThroughLast = (lastParam - 1) * PAGE_SIZE + last.results.length;
  const more = last.count_is_estimate
    ? last.results.length === PAGE_SIZE || rowsThroughLast < last.count
    : rowsThroughLast < last.count;
  return last.results.length > 0 && more ? lastParam + 1 : undefined;
}

/** The page before the first one kept (once maxPages dropped it), or undefined on page 1. */
export function previousPageParam(
  _first: CountedPage,
  _pages: unknown,
  firstParam: number,
): number | undefined {
  return firstParam > 1 ? firstParam - 1 : undefined;
}

/**
 * Spread into `infiniteQueryOptions`: pages from 1, bounded to MAX_LOADED_PAGES, with both page
 * parameters. A refetch (an invalidation after an action) starts at the first page kept and follows
 * `nextPageParam`, so it reads the same page numbers again instead of pages.length + 1.
 */
export const boundedPageParams = {
  initialPageParam: 1,
  getNextPageParam: nextPageParam,
  getPreviousPageParam: previousPageParam,
  maxPages: MAX_LOADED_PAGES,
} as const;
