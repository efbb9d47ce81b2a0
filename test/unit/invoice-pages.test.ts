// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider, useInfiniteQuery } from '@tanstack/react-query';
import { act, cleanup, render, renderHook, waitFor } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { VirtuosoMockContext } from 'react-virtuoso';
import { afterEach, describe, expect, it } from 'vitest';
import { type Invoice, PAGE_SIZE } from '../../src/domain/schemas/invoices';
import { boundedPageParams, MAX_LOADED_PAGES } from '../../src/services/infinite-pages';
import { FIRST_ROW_INDEX_BASE, nextListStart, useInvoicePages } from '../../src/views/invoices/invoice-pages';
import { toggleOne, useListSelection } from '../../src/views/invoices/invoice-selection';
import {
  type InvoiceListProps,
  InvoiceTable,
  ROW_HEIGHT_PX,
  TABLE_HEIGHT_PX,
} from '../../src/views/invoices/invoice-table';
import { listInvoice } from '../fixtures/invoices';

const TOTAL_ROWS = (MAX_LOADED_PAGES + 3) * PAGE_SIZE;

function invoice(id: number): Invoice {
  return listInvoice({ id });
}

/** A bounded list of TOTAL_ROWS invoices in the cache, with page 1 dropped (pages 2..41 kept). */
async function listWithFirstPageDropped() {
  const requested: number[] = [];
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const options = {
    queryKey: ['facturas', 'prueba'] as const,
    queryFn: async ({ pageParam }: { pageParam: number }) => {
      requested.push(pageParam);
      const first = (pageParam - 1) * PAGE_SIZE + 1;
      const results = Array.from({ length: PAGE_SIZE }, (_, index) => invoice(first + index));
      return { count: TOTAL_ROWS, next: null, previous: null, results };
    },
    ...boundedPageParams,
  };
  const wrapper = ({ children }: { children: ReactNode }) =>
    createElement(QueryClientProvider, { client }, children);
  const hook = renderHook(() => useInvoicePages(useInfiniteQuery(options), options.queryKey), { wrapper });
  await waitFor(() => expect(hook.result.current.rows).toHaveLength(PAGE_SIZE));
  for (let loaded = 1; loaded <= MAX_LOADED_PAGES; loaded++)
    await act(() => hook.result.current.onEndReached());
  await waitFor(() => expect(hook.result.current.loadingMore).toBe(false));
  return { hook, requested };
}

afterEach(cleanup);

describe('the first row of a bounded list for react-virtuoso', () => {
  const pages = (...lengths: number[]) => lengths.map((length) => ({ results: Array.from({ length }) }));

  it('moves by the rows of the pages dropped or brought back, short pages included', () => {
    const start = nextListStart(null, [1, 2], pages(24, 25));
    expect(start.firstItemIndex).toBe(FIRST_ROW_INDEX_BASE);
    const dropped = nextListStart(start, [2, 3], pages(25, 25));
    expect(dropped.firstItemIndex).toBe(FIRST_ROW_INDEX_BASE + 24);
    const back = nextListStart(dropped, [1, 2], pages(23, 25));
    expect(back.firstItemIndex).toBe(FIRST_ROW_INDEX_BASE + 1);
    expect(nextListStart(back, [1, 2], pages(23, 24))).toMatchObject({ firstItemIndex: back.firstItemIndex });
  });
});

describe('a list whose first page was dropped', () => {
  it('has an earlier page, the table asks for it at the top, and the rows above keep the visible ones in place', async () => {
    const { hook, requested } = await listWithFirstPageDropped();
    let list = hook.result.current;
    expect(list.hasEarlier).toBe(true);
    expect(list.rows[0]?.id).toBe(PAGE_SIZE + 1);
    expect(list.firstItemIndex).toBe(FIRST_ROW_INDEX_BASE + PAGE_SIZE);

    // The table opens at its top row, which is where react-virtuoso calls startReached.
    requested.length = 0;
    const table = () =>
      createElement(
        VirtuosoMockContext.Provider,
        { value: { viewportHeight: TABLE_HEIGHT_PX, itemHeight: ROW_HEIGHT_PX } },
        createElement(InvoiceTable, { ...hook.result.current, label: 'Facturas', selection: null }),
      );
    const view = render(table());
    await waitFor(() => expect(requested).toEqual([1]));
    // NOTE: VirtuosoMockContext fixes the row height, which turns off react-virtuoso's row measuring, and its
    // prepend needs that (invoice-table.tsx); the shift is checked on the index the table is given instead.
    view.unmount();
    await waitFor(() => expect(hook.result.current.loadingEarlier).toBe(false));

    list = hook.result.current;
    expect(list.hasEarlier).toBe(false);
    expect(list.rows[0]?.id).toBe(1);
    // 25 rows came back above: the index moved down by exactly them (react-virtuoso keeps the view in place).
    expect(list.firstItemIndex).toBe(FIRST_ROW_INDEX_BASE);
    expect(list.rows).toHaveLength(MAX_LOADED_PAGES * PAGE_SIZE);
  });

  it('keeps rows selected on the page the list dropped, until the filters change', async () => {
    const { hook } = await listWithFirstPageDropped();
    const dropped = hook.result.current;
    const firstPage = {
      ...dropped,
      rows: Array.from({ length: PAGE_SIZE }, (_, index) => invoice(index + 1)),
    };
    const firstPages: InvoiceListProps = { ...firstPage, hasEarlier: false };
    const selection = renderHook(
      ({ list, filters }: { list: InvoiceListProps; filters: unknown }) => useListSelection(list, filters),
      { initialProps: { list: firstPages, filters: 'todas' as unknown } },
    );
    act(() => selection.result.current[1]((current) => toggleOne(current, 1)));
    act(() => selection.result.current[1]((current) => toggleOne(current, PAGE_SIZE + 1)));
    // Page 1 leaves the cache (maxPages): invoice 1 is no longer loaded, yet it stays selected.
    selection.rerender({ list: dropped, filters: 'todas' });
    expect([...selection.result.current[0]]).toEqual([1, PAGE_SIZE + 1]);
    // Other filters are another list: nothing stays selected.
    selection.rerender({ list: dropped, filters: 'otras' });
    expect(selection.result.current[0].size).toBe(0);
  });
});
