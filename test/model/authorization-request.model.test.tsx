import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { VirtuosoMockContext } from 'react-virtuoso';
import { describe, expect, it, vi } from 'vitest';
import { PROVIDER_MESSAGES } from '../../server/modules/providers/providers.service';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { SatStatus } from '../../src/domain/sat-status';
import type { Invoice } from '../../src/domain/schemas/invoices';
import { NO_RESPONSE_MESSAGE } from '../../src/machines/pronto-pago-messages';
import { ACCESS_TOKEN_KEY } from '../../src/stores/storage-keys';
import { setUser } from '../../src/stores/user.store';
import { PROVIDER_SECTIONS } from '../../src/views/dashboard/dashboard-sections';
import { SEARCH_PLACEHOLDER } from '../../src/views/invoices/invoice-filters-bar';
import {
  EMPTY_INVOICES_TEXT,
  InvoiceTable,
  LOAD_FAILED_TEXT,
  ROW_HEIGHT_PX,
  TABLE_HEIGHT_PX,
} from '../../src/views/invoices/invoice-table';
import { listInvoice } from '../fixtures/invoices';
import { importInvoice, postJson, statusOf } from '../support/pronto-pago';
import {
  ALREADY_REQUESTED_BODY,
  authorizationRequestModel,
  SESSION_ENDED_BODY,
} from './authorization-request.model';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp, signInAs } from './harness/render-app';
import { testApp } from './harness/test-server';
import { bearer, findRow, gateSearchedList, invoiceUuid, PROVIDER } from './pronto-pago-helpers';

const ENDPOINT = '/api/providers/request-payment/';
const HELP = PROVIDER_SECTIONS[0]!.help;
const SAMPLE_ROW: Invoice = listInvoice({ id: 1, fiscal_folio: 'F-0' });

interface Ctx {
  access: string;
  invoiceId: number;
  uuid: string;
  gate: ReturnType<typeof gateEndpoint>;
  assign: ReturnType<typeof vi.spyOn>;
  fault: number | null;
  /** Idempotency keys of the requests sent, in order. */
  keys: string[];
}

const db = () => testApp().database.db;

function expectSessionEnded(ctx: Ctx): void {
  // Spec §8: a 401 clears all local storage and sends the browser to '/'.
  expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
  expect(ctx.assign).toHaveBeenCalledWith('/');
}

async function dialog(): Promise<HTMLElement> {
  return screen.findByRole('dialog');
}

// The page is rendered with the status filter 'Por Autorizar' and the invoice's folio as the search text,
// both in the URL: when the request succeeds (or the server says it already was requested) the row no longer
// matches the single status filter and leaves the list (spec §4).
defineModelTests<Ctx>(authorizationRequestModel, {
  setup: async () => {
    const { access } = await signInAs(PROVIDER);
    const invoiceId = await importInvoice(db());
    const gate = gateEndpoint('post', ENDPOINT);
    return {
      access,
      invoiceId,
      uuid: await invoiceUuid(invoiceId),
      gate,
      assign: vi.spyOn(Location.prototype, 'assign').mockImplementation(() => {}),
      fault: null,
      keys: [],
    };
  },
  render: (ctx) => {
    renderApp(`/dashboard/pronto-pago/?search=${ctx.uuid}&status=${InvoiceStatus.AVAILABLE}`);
  },
  teardown: (ctx) => ctx.assign.mockRestore(),
  states: {
    '#authorization-request.idle': async ({ ctx }) => {
      expect(await screen.findByRole('heading', { level: 1, name: 'Pronto Pago' })).toBeTruthy();
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      const status = await statusOf(db(), ctx.invoiceId);
      if (ctx.fault === 401) return expectSessionEnded(ctx);
      if (status === InvoiceStatus.AVAILABLE) {
        const row = await findRow(ctx.uuid);
        expect(within(row).getByText('Por Autorizar')).toBeTruthy();
        expect(within(row).getByRole('button', { name: `Solicitar adelanto ${ctx.uuid}` })).toBeTruthy();
      } else {
        expect(status).toBe(InvoiceStatus.PENDING);
        // Spec §4: the row no longer matches the single status filter and leaves the list.
        expect(await screen.findByText(EMPTY_INVOICES_TEXT)).toBeTruthy();
      }
    },
    '#authorization-request.requesting': async () => {
      const open = await dialog();
      const button = within(open).getByRole('button', { name: 'Cargando...' }) as HTMLButtonElement;
      expect(button.disabled).toBe(true);
    },
    '#authorization-request.answered': async ({ ctx }) => {
      const open = await dialog();
      expect(within(open).getByText(PROVIDER_MESSAGES.requestSent)).toBeTruthy();
      expect(open.querySelector('[data-variant="success"]')).toBeTruthy();
      expect(within(open).getByRole('button', { name: 'Cerrar' })).toBeTruthy();
      expect(await statusOf(db(), ctx.invoiceId)).toBe(InvoiceStatus.PENDING);
    },
    '#authorization-request.failed': async ({ ctx }) => {
      const open = await dialog();
      expect(open.querySelector('[data-variant="error"]')).toBeTruthy();
      expect(within(open).getByRole('button', { name: 'Cerrar' })).toBeTruthy();
      if (ctx.fault === 409) {
        expect(within(open).getByText(ALREADY_REQUESTED_BODY.message)).toBeTruthy();
        expect(await statusOf(db(), ctx.invoiceId)).toBe(InvoiceStatus.PENDING);
      } else if (ctx.fault === 0) {
        expect(within(open).getByText(NO_RESPONSE_MESSAGE)).toBeTruthy();
        expect(await statusOf(db(), ctx.invoiceId)).toBe(InvoiceStatus.AVAILABLE);
      } else {
        expectSessionEnded(ctx);
      }
    },
  },
  events: {
    'authorization.request': async ({ ctx, user }) => {
      const row = await findRow(ctx.uuid);
      await user.click(within(row).getByRole('button', { name: `Solicitar adelanto ${ctx.uuid}` }));
      const request = await ctx.gate.waitForRequest();
      ctx.keys.push(request.headers.get('idempotency-key') ?? '');
      expect(ctx.gate.bodies.at(-1)).toEqual({ id_request_factoring: ctx.invoiceId });
      expect(ctx.keys.at(-1)).toMatch(/^[0-9a-f-]{36}$/);
    },
    'xstate.done.actor.requestAuthorization': async ({ ctx }) => {
      await ctx.gate.pass();
    },
    'xstate.error.actor.requestAuthorization': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number; body: unknown } };
      ctx.fault = error.status;
      if (error.status === 409) {
        // A concurrent change: the same request made elsewhere reaches the server first.
        const first = await postJson(testApp().app, ENDPOINT, bearer(ctx.access), {
          id_request_factoring: ctx.invoiceId,
        });
        expect(first.statusCode).toBe(200);
        await ctx.gate.pass();
      } else if (error.status === 0) await ctx.gate.networkError();
      else await ctx.gate.respond(401, SESSION_ENDED_BODY);
    },
    'dialog.close': async ({ user }) => {
      await user.click(within(await dialog()).getByRole('button', { name: 'Cerrar' }));
    },
  },
});

describe('pronto pago (page)', () => {
  it('redirects to the SAT credentials while the SAT link is not authorized (spec §2)', async () => {
    await signInAs(PROVIDER);
    setUser({ satCredentials: SatStatus.SENT });
    const { router } = renderApp('/dashboard/pronto-pago/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/sat-credentials/'));
  });

  it('shows the heading, the help card and the filters of spec §2, kept in the URL', async () => {
    await signInAs(PROVIDER);
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/pronto-pago/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Pronto Pago' })).toBeTruthy();
    expect(screen.getByText(HELP)).toBeTruthy();
    const box = screen.getByPlaceholderText(SEARCH_PLACEHOLDER) as HTMLInputElement;
    expect(screen.getByRole('button', { name: 'Periodo de emisión: Todos los meses' })).toBeTruthy();
    await screen.findAllByText('Por Autorizar', { selector: '[data-status] span' }, { timeout: 4000 });

    // Spec §5: the search waits 500 ms after the last keystroke, then lands in the URL.
    await user.type(box, 'GAA150312K78');
    expect(router.state.location.search).toEqual({});
    await waitFor(() => expect(router.state.location.search).toEqual({ search: 'GAA150312K78' }), {
      timeout: 2000,
    });
    await user.selectOptions(screen.getByLabelText('Estatus'), String(InvoiceStatus.APPROVED));
    await waitFor(() =>
      expect(router.state.location.search).toEqual({
        search: 'GAA150312K78',
        status: InvoiceStatus.APPROVED,
      }),
    );
    await waitFor(() => {
      const tags = screen.getAllByText(/./, { selector: '[data-status] span' }).map((tag) => tag.textContent);
      expect(new Set(tags)).toEqual(new Set(['Autorizada']));
    });
    await user.click(screen.getByRole('button', { name: /Periodo de emisión/ }));
    await user.click(await screen.findByLabelText('Mes actual'));
    await waitFor(() => expect(router.state.location.search).toMatchObject({ period: '20,30,40,50' }));
  });

  it('reads the filters from the URL, shows the empty text, and toggles the selection of all rows', async () => {
    await signInAs(PROVIDER);
    const user = userEvent.setup();
    const first = await importInvoice(db(), { description: 'Lote de selección' });
    const second = await importInvoice(db(), { description: 'Lote de selección' });
    renderApp('/dashboard/pronto-pago/?search=Lote%20de%20selecci%C3%B3n');
    await findRow(await invoiceUuid(first));
    const row = await findRow(await invoiceUuid(second));
    expect(within(row).getByText('$100,000.00')).toBeTruthy();
    const checks = () =>
      screen
        .getAllByRole('checkbox', { name: /Seleccionar factura/ })
        .map((box) => (box as HTMLInputElement).checked);
    expect(checks()).toEqual([false, false]);
    await user.click(screen.getByRole('button', { name: 'Seleccionar todos' }));
    expect(checks()).toEqual([true, true]);
    await user.click(screen.getByRole('button', { name: 'Seleccionar todos' }));
    expect(checks()).toEqual([false, false]);
    cleanup();
    renderApp('/dashboard/pronto-pago/?search=sin-coincidencias-xyz');
    expect(await screen.findByText(EMPTY_INVOICES_TEXT, {}, { timeout: 4000 })).toBeTruthy();
  });

  it('shows loading, then an error with retry when the list fails', async () => {
    await signInAs(PROVIDER);
    const user = userEvent.setup();
    const invoiceId = await importInvoice(db());
    const list = gateSearchedList();
    renderApp(`/dashboard/pronto-pago/?search=${await invoiceUuid(invoiceId)}`);
    expect(await screen.findByLabelText('Cargando facturas…')).toBeTruthy();
    // The app's queries retry once before showing the error.
    await list.respond(500, { detail: 'Error interno' });
    await list.respond(500, { detail: 'Error interno' });
    const alert = await screen.findByRole('alert', {}, { timeout: 4000 });
    expect(alert.textContent).toContain(LOAD_FAILED_TEXT);
    await user.click(within(alert).getByRole('button', { name: 'Reintentar' }));
    await list.pass();
    await findRow(await invoiceUuid(invoiceId));
  });

  it('asks for pages of 25 with the filters of the URL', async () => {
    await signInAs(PROVIDER);
    for (let i = 0; i < 27; i++) await importInvoice(db(), { description: 'Lote paginado' });
    const list = gateSearchedList();
    renderApp('/dashboard/pronto-pago/?search=Lote%20paginado&status=60');
    const page1 = new URL((await list.waitForRequest()).url);
    expect(Object.fromEntries(page1.searchParams)).toEqual({
      page: '1',
      page_size: '25',
      search: 'Lote paginado',
      status: '60',
    });
    await list.pass();
    await waitFor(() =>
      expect(screen.getAllByRole('checkbox', { name: /Seleccionar factura/ })).toHaveLength(20),
    );
  });

  // Virtuoso needs layout to know what is near the end; its mock context gives it one (600 px box, 60 px rows).
  it('asks for the next page when the loaded rows end within 600 px of the view (spec §9)', async () => {
    const rows = (count: number) =>
      Array.from({ length: count }, (_, index) => ({
        ...SAMPLE_ROW,
        id: index + 1,
        fiscal_folio: `F-${index}`,
      }));
    const onEndReached = vi.fn();
    const table = (count: number) => (
      <VirtuosoMockContext.Provider value={{ viewportHeight: TABLE_HEIGHT_PX, itemHeight: ROW_HEIGHT_PX }}>
        <InvoiceTable
          label="Facturas"
          rows={rows(count)}
          loading={false}
          error={false}
          onRetry={() => {}}
          hasMore
          loadingMore={false}
          onEndReached={onEndReached}
          selection={null}
        />
      </VirtuosoMockContext.Provider>
    );
    // 25 rows are 1,500 px: the end is 900 px below a 600 px view, beyond the 600 px look-ahead.
    const view = render(table(25));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(onEndReached).not.toHaveBeenCalled();
    view.unmount();
    // 18 rows are 1,080 px: the end is within 600 px of the view, so the next page is asked for.
    render(table(18));
    await waitFor(() => expect(onEndReached).toHaveBeenCalled());
  });
});
