// @vitest-environment happy-dom
import { InfiniteQueryObserver, QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor as machineReached } from 'xstate';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { Period } from '../../src/domain/period';
import { advanceQuote, toQuoteResponse } from '../../src/domain/quote';
import {
  type Invoice,
  type InvoicePage,
  type MessageResponse,
  PAGE_SIZE,
} from '../../src/domain/schemas/invoices';
import type { AuthorizationRequestInput } from '../../src/machines/authorization-request.machine';
import {
  isNoResponse,
  messageFromFailure,
  NO_RESPONSE_MESSAGE,
  SESSION_ENDED_MESSAGE,
  UNEXPECTED_MESSAGE,
} from '../../src/machines/pronto-pago-messages';
import { wireProntoPagoMachines } from '../../src/routes/-pronto-pago-machines';
import { MAX_LOADED_PAGES } from '../../src/services/infinite-pages';
import { alliancesQueryOptions } from '../../src/services/invoice-queries';
import { invoiceFigures } from '../../src/views/invoices/invoice-figures';
import {
  DEFAULT_FILTERS,
  filtersFromSearch,
  searchFromFilters,
  togglePeriod,
  validateInvoiceListSearch,
} from '../../src/views/invoices/invoice-filters';
import { formatAmount, formatDisplayDate } from '../../src/views/invoices/invoice-format';
import { applyStatusChange } from '../../src/views/invoices/invoice-list-update';
import { dropGone, toggleAll, toggleOne } from '../../src/views/invoices/invoice-selection';
import { quoteFigures } from '../../src/views/pronto-pago/forward-payment-drawer';
import { downloadableHint } from '../../src/views/pronto-pago/pronto-pago-page';
import { listInvoice } from '../fixtures/invoices';

function invoice(id: number, status: Invoice['status']): Invoice {
  return listInvoice({ id, status });
}

function pages(...rows: Invoice[][]): { pages: InvoicePage[]; pageParams: number[] } {
  const count = rows.flat().length;
  return {
    pages: rows.map((results) => ({ count, next: null, previous: null, results })),
    pageParams: rows.map((_, index) => index + 1),
  };
}

describe('invoice list filters in the URL', () => {
  it('keeps only valid values and drops the defaults', () => {
    expect(validateInvoiceListSearch({ search: '  ', period: '20,10,99,20', status: '30' })).toEqual({
      period: '10,20',
      status: 30,
    });
    expect(validateInvoiceListSearch({ period: '10,20,30,40,50', status: 80 })).toEqual({});
    expect(validateInvoiceListSearch({ status: 'x', search: 'ACME' })).toEqual({ search: 'ACME' });
    expect(validateInvoiceListSearch({ search: 'x'.repeat(150) }).search).toHaveLength(100);
  });

  it('round-trips filters', () => {
    const filters = { search: 'GAA', periods: [Period.PAST_MONTH], status: InvoiceStatus.APPROVED } as const;
    expect(filtersFromSearch(searchFromFilters(filters))).toEqual(filters);
    expect(filtersFromSearch({})).toEqual(DEFAULT_FILTERS);
  });

  it('starts with every month and never leaves none checked', () => {
    expect(togglePeriod([], Period.CURRENT_MONTH)).toEqual([20, 30, 40, 50]);
    expect(togglePeriod([20, 30, 40, 50], Period.CURRENT_MONTH)).toEqual([]);
    expect(togglePeriod([Period.PAST_MONTH], Period.PAST_MONTH)).toEqual([Period.PAST_MONTH]);
    expect(togglePeriod([10], Period.PAST_MONTH)).toEqual([10, 20]);
  });
});

describe('selection', () => {
  it("'Seleccionar todos' toggles between all and none", () => {
    const all = toggleAll(new Set(), [1, 2, 3]);
    expect([...all]).toEqual([1, 2, 3]);
    expect(toggleAll(all, [1, 2, 3]).size).toBe(0);
    expect([...toggleAll(new Set([1]), [1, 2])]).toEqual([1, 2]);
    expect([...toggleOne(new Set([1]), 1)]).toEqual([]);
    // Rows selected on pages the list dropped stay selected when 'Seleccionar todos' adds the loaded ones.
    expect([...toggleAll(new Set([9]), [1, 2])]).toEqual([9, 1, 2]);
  });

  it('loses only the rows the server says are gone, not rows on pages the list dropped', () => {
    const loaded = (ids: number[], fromStart: boolean, toEnd: boolean) => ({ ids, fromStart, toEnd });
    // Row 2 left a refetched list between rows that are still loaded: gone.
    expect([...dropGone(new Set([2, 3]), loaded([1, 2, 3], true, true), loaded([1, 3], true, true))]).toEqual(
      [3],
    );
    // The first page was dropped (rows 1 and 2): nothing loaded above them any more, they stay.
    const kept = new Set([1, 2]);
    expect(dropGone(kept, loaded([1, 2, 3, 4], true, false), loaded([3, 4, 5], false, false))).toBe(kept);
    // The last page was dropped (fetching an earlier one): nothing loaded below, they stay.
    expect(dropGone(new Set([4]), loaded([2, 3, 4], false, false), loaded([1, 2, 3], true, false)).size).toBe(
      1,
    );
  });
});

describe('a row after an action (spec §4)', () => {
  it('shows its new status when all statuses are listed', () => {
    const data = pages([invoice(1, 60), invoice(2, 30)]);
    const next = applyStatusChange(data, 1, InvoiceStatus.PENDING, InvoiceStatus.ALL);
    expect(next.pages[0]?.results.map((row) => row.status)).toEqual([40, 30]);
    expect(next.pages[0]?.count).toBe(2);
  });

  it('leaves a single status filter it no longer matches, and the count drops', () => {
    const data = pages([invoice(1, 30)], [invoice(2, 30)]);
    const next = applyStatusChange(data, 2, InvoiceStatus.PROCESS, InvoiceStatus.APPROVED);
    expect(next.pages.flatMap((page) => page.results.map((row) => row.id))).toEqual([1]);
    expect(next.pages.map((page) => page.count)).toEqual([1, 1]);
  });

  it('changes nothing for a row that is not loaded', () => {
    const data = pages([invoice(1, 30)]);
    expect(applyStatusChange(data, 9, InvoiceStatus.PROCESS, InvoiceStatus.APPROVED)).toBe(data);
  });
});

describe("'Descargar seleccionados' on Pronto Pago (decision 0014)", () => {
  it('says when the selection holds invoices that are not advanced, and how many will be downloaded', () => {
    expect(downloadableHint(0, 0)).toBeNull();
    expect(downloadableHint(3, 3)).toBeNull();
    expect(downloadableHint(2, 5)).toBe(
      'Solo las facturas adelantadas (En trámite o Pagada) tienen XML y PDF para descargar: se descargarán 2 de las 5 seleccionadas.',
    );
    expect(downloadableHint(0, 4)).toBe(
      'Solo las facturas adelantadas (En trámite o Pagada) tienen XML y PDF para descargar; ninguna de las seleccionadas lo está.',
    );
  });
});

describe('dialog messages (spec §8)', () => {
  it("prefers the server's message and message_type", () => {
    expect(
      messageFromFailure({ status: 409, body: { message: 'Ya está en trámite.', message_type: 'warning' } }),
    ).toEqual({ message: 'Ya está en trámite.', messageType: 'warning' });
    expect(messageFromFailure({ status: 404, body: { detail: 'Factura no encontrada.' } })).toEqual({
      message: 'Factura no encontrada.',
      messageType: 'error',
    });
  });

  it('explains no response, an ended session and anything else in Spanish', () => {
    expect(messageFromFailure({ status: 0, body: null }).message).toBe(NO_RESPONSE_MESSAGE);
    expect(messageFromFailure({ status: 401, body: { detail: 'x' } }).message).toBe(SESSION_ENDED_MESSAGE);
    expect(messageFromFailure({ status: 500, body: { detail: 'stack' } }).message).toBe(UNEXPECTED_MESSAGE);
    expect(messageFromFailure(new Error('boom')).message).toBe(UNEXPECTED_MESSAGE);
    expect(isNoResponse({ status: 0 })).toBe(true);
    expect(isNoResponse({ status: 500 })).toBe(false);
  });
});

describe('display formats', () => {
  it('shows dates DD/MM/YYYY and money dollar-style', () => {
    expect(formatDisplayDate('2026-01-16')).toBe('16/01/2026');
    expect(formatDisplayDate(null)).toBe('—');
    expect(formatAmount('100000.00')).toBe('$100,000.00');
  });

  it('shows a 100,000.00 quote 45 days ahead with the domain figures (decision 0002)', () => {
    const quote = toQuoteResponse(
      advanceQuote({ amount: 10_000_000, maxRate: '17.4000', days: 45 }),
      '2026-01-16',
    );
    expect(quoteFigures(quote)).toEqual([
      { label: 'Tasa anual', value: '15.00% tasa + IVA' },
      { label: 'Días de adelanto', value: '45' },
      { label: 'Costo financiero', value: '$2,175.00 MXN' },
      { label: 'Costo de asesoría', value: '$1,160.00 MXN' },
      { label: 'Total a recibir', value: '$96,665.00 MXN' },
    ]);
  });

  it('names the invoice by its folio and its amount with its currency, and a dollar one by its peso value too', () => {
    const usd = {
      id: 7,
      fiscal_folio: '6F1B2C3D-0000-4000-8000-000000000007',
      serie_folio: 'A-7',
      amount: '6090.00',
      amount_with_exchange_rate: '102280.33',
      amount_with_exchange_rate_usd: '6090.00',
      exchange_rate: '16.7948',
    };
    expect(invoiceFigures(usd)).toEqual([
      { label: 'Factura', value: 'A-7' },
      { label: 'Monto de la factura', value: '$6,090.00 USD' },
      { label: 'Valor en pesos', value: '$102,280.33 MXN al tipo de cambio 16.7948' },
    ]);
    const mxn = {
      ...usd,
      serie_folio: null,
      amount: '100000.00',
      amount_with_exchange_rate: '100000.00',
      amount_with_exchange_rate_usd: null,
      exchange_rate: '-',
    };
    expect(invoiceFigures(mxn)).toEqual([
      { label: 'Factura', value: usd.fiscal_folio },
      { label: 'Monto de la factura', value: '$100,000.00 MXN' },
    ]);
  });
});

describe('the pronto-pago list after an action, with its first pages dropped', () => {
  afterEach(() => vi.unstubAllGlobals());

  /** The server's alliances list over `total` invoices, answering `?page=N`; records the pages asked for. */
  function alliancesServer(total: number) {
    const rows = Array.from({ length: total }, (_, index) => invoice(index + 1, InvoiceStatus.AVAILABLE));
    const requested: number[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const { pathname, searchParams } = new URL(url, 'http://localhost');
        if (!pathname.endsWith('/providers/alliances/'))
          return Response.json({ count: 0, next: null, previous: null, results: [] });
        const number = Number(searchParams.get('page'));
        if (searchParams.get('page_size') === String(PAGE_SIZE)) requested.push(number);
        const results = rows.slice((number - 1) * PAGE_SIZE, number * PAGE_SIZE);
        return Response.json({ count: total, next: null, previous: null, results });
      }),
    );
    return { rows, requested };
  }

  it('shows the new status at once and the refetch reads the same page numbers again', async () => {
    const server = alliancesServer((MAX_LOADED_PAGES + 3) * PAGE_SIZE);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const scope = () => ({ role: 'provider' as const, filters: DEFAULT_FILTERS });
    const observer = new InfiniteQueryObserver(client, alliancesQueryOptions('provider', DEFAULT_FILTERS));
    const unsubscribe = observer.subscribe(() => {});
    await observer.refetch();
    for (let loaded = 1; loaded < MAX_LOADED_PAGES + 1; loaded++) await observer.fetchNextPage();
    const kept = Array.from({ length: MAX_LOADED_PAGES }, (_, index) => index + 2);
    expect(observer.getCurrentResult().data?.pageParams).toEqual(kept);

    // 'Solicitar adelanto' on the last loaded row: the server moves it to PENDING.
    const target = MAX_LOADED_PAGES * PAGE_SIZE + PAGE_SIZE;
    const machine = wireProntoPagoMachines(client, scope).authorizationRequest.provide({
      actors: {
        requestAuthorization: fromPromise<MessageResponse, AuthorizationRequestInput>(async ({ input }) => {
          server.rows[input.invoiceId - 1]!.status = InvoiceStatus.PENDING;
          return { message: 'Solicitud enviada.', message_type: 'success' };
        }),
      },
    });
    server.requested.length = 0;
    const actor = createActor(machine).start();
    actor.send({ type: 'authorization.request', invoiceId: target });
    await machineReached(actor, (state) => state.matches('answered'));
    const row = () =>
      observer
        .getCurrentResult()
        .data?.pages.flatMap((loaded) => loaded.results)
        .find((invoice) => invoice.id === target);
    expect(row()?.status).toBe(InvoiceStatus.PENDING);

    await vi.waitFor(() => expect(server.requested).toEqual(kept));
    await vi.waitFor(() => expect(observer.getCurrentResult().isFetching).toBe(false));
    const data = observer.getCurrentResult().data!;
    expect(data.pageParams).toEqual(kept);
    expect(data.pages.flatMap((loaded) => loaded.results.map((invoice) => invoice.id))).toEqual(
      Array.from({ length: MAX_LOADED_PAGES * PAGE_SIZE }, (_, index) => PAGE_SIZE + index + 1),
    );
    expect(row()?.status).toBe(InvoiceStatus.PENDING);
    actor.stop();
    unsubscribe();
  });
});
