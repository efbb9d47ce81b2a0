import { InfiniteQueryObserver, QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { PAGE_SIZE } from '../domain/schemas/invoices';
import { boundedPageParams, MAX_LOADED_PAGES, nextPageParam, previousPageParam } from './infinite-pages';

/** A page of `rows` rows out of `count`. */
const page = (rows: number, count: number) => ({ count, results: Array.from({ length: rows }, (_, i) => i) });

describe('page parameters of a bounded list', () => {
  it('asks for the page after the last one while the rows up to it are fewer than count', () => {
    expect(nextPageParam(page(25, 60), [], 1)).toBe(2);
    expect(nextPageParam(page(25, 60), [], 2)).toBe(3);
    expect(nextPageParam(page(10, 60), [], 3)).toBeUndefined();
    expect(nextPageParam(page(25, 50), [], 2)).toBeUndefined();
    // An empty page (an array answer, rows gone since) ends the list whatever count says.
    expect(nextPageParam(page(0, 60), [], 2)).toBeUndefined();
  });

  it('counts from the page number, not from the pages kept, once the first ones were dropped', () => {
    const kept = Array.from({ length: MAX_LOADED_PAGES }, () => page(25, 2000));
    // Pages 2..41 kept: the next one is 42 (pages.length + 1 would ask for 41 again).
    expect(nextPageParam(page(25, 2000), kept, 41)).toBe(42);
    expect(nextPageParam(page(25, 41 * PAGE_SIZE), kept, 41)).toBeUndefined();
  });

  it('goes on past a count that is a lower bound while pages are full (a search past 5,000 matches)', () => {
    const estimated = (rows: number) => ({ ...page(rows, 5000), count_is_estimate: true });
    expect(nextPageParam(estimated(25), [], 200)).toBe(201);
    expect(nextPageParam(estimated(25), [], 230)).toBe(231);
    expect(nextPageParam(estimated(7), [], 231)).toBeUndefined();
  });

  it('asks for the page before the first one kept, down to page 1', () => {
    expect(previousPageParam(page(25, 60), [], 1)).toBeUndefined();
    expect(previousPageParam(page(25, 2000), [], 2)).toBe(1);
    expect(previousPageParam(page(25, 2000), [], 17)).toBe(16);
  });
});

describe('a bounded list in the query cache', () => {
  const TOTAL_ROWS = 44 * PAGE_SIZE + 7;

  function list() {
    const requested: number[] = [];
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const observer = new InfiniteQueryObserver(client, {
      queryKey: ['lista'],
      queryFn: async ({ pageParam }: { pageParam: number }) => {
        requested.push(pageParam);
        const first = (pageParam - 1) * PAGE_SIZE;
        const ids = Array.from({ length: PAGE_SIZE }, (_, i) => first + i + 1).filter(
          (id) => id <= TOTAL_ROWS,
        );
        return { count: TOTAL_ROWS, results: ids };
      },
      ...boundedPageParams,
    });
    const unsubscribe = observer.subscribe(() => {});
    return { client, observer, requested, unsubscribe };
  }

  it('keeps 40 pages of contiguous rows, goes back a page, and refetches the same page numbers', async () => {
    const { client, observer, requested, unsubscribe } = list();
    await observer.refetch();
    for (let loaded = 1; loaded < MAX_LOADED_PAGES + 2; loaded++) await observer.fetchNextPage();
    const pageNumbers = (from: number) => Array.from({ length: MAX_LOADED_PAGES }, (_, i) => from + i);
    const rows = (from: number) =>
      Array.from({ length: MAX_LOADED_PAGES * PAGE_SIZE }, (_, i) => (from - 1) * PAGE_SIZE + i + 1);

    let data = observer.getCurrentResult().data!;
    expect(data.pageParams).toEqual(pageNumbers(3));
    expect(data.pages.flatMap((kept) => kept.results)).toEqual(rows(3));
    expect(observer.getCurrentResult().hasPreviousPage).toBe(true);

    await observer.fetchPreviousPage();
    data = observer.getCurrentResult().data!;
    expect(data.pageParams).toEqual(pageNumbers(2));

    // An action invalidates the list: the refetch reads pages 2..41 again, in order.
    requested.length = 0;
    await client.invalidateQueries({ queryKey: ['lista'] });
    expect(requested).toEqual(pageNumbers(2));
    data = observer.getCurrentResult().data!;
    expect(data.pages.flatMap((kept) => kept.results)).toEqual(rows(2));
    unsubscribe();
  });

  it('stops at the last page', async () => {
    const { observer, unsubscribe } = list();
    await observer.refetch();
    for (let loaded = 1; loaded < 46; loaded++) await observer.fetchNextPage();
    const result = observer.getCurrentResult();
    expect(result.hasNextPage).toBe(false);
    expect(result.data!.pageParams.at(-1)).toBe(45);
    expect(result.data!.pages.at(-1)!.results.at(-1)).toBe(TOTAL_ROWS);
    unsubscribe();
  });
});
