import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { unzipSync } from 'fflate';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { invoiceLabel } from '../../server/modules/invoices/invoice-access';
import { advancedInvoicesZipName, isAdvancedStatus } from '../../src/domain/advanced-invoices';
import type { InvoicePage } from '../../src/domain/schemas/invoices';
import { tokenExpiryMs } from '../../src/domain/session';
import { downloadedMessage } from '../../src/machines/invoice-download.machine';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY } from '../../src/stores/storage-keys';
import { ADVANCED_INVOICES_TITLE } from '../../src/views/advanced-invoices/advanced-invoices-page';
import { forwardToApp } from '../support/msw-app';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp, signInAs } from './harness/render-app';
import { mswServer, TEST_ORIGIN, testApp } from './harness/test-server';
import { invoiceDownloadModel } from './invoice-download.model';

const USERNAME = 'proveedor.demo';
const PATH = '/dashboard/facturas-pronto-pago/';
const DOWNLOAD = '/api/providers/advanced-invoices/download/';
// The machine's real notice time is 2 s (spec §9).
const NOTICE_WAIT = { timeout: 4000 };
const LOAD_WAIT = { timeout: 5000 };

/**
 * Holds each download request until the path says how it ends: the real app's ZIP at once (no size: progress
 * indeterminate), or streamed in two halves with Content-Length so the page shows a percentage; a fault
 * answers without reaching the server.
 */
function downloadGate() {
  const gate = gateEndpoint('post', DOWNLOAD);
  let open: { controller: ReadableStreamDefaultController<Uint8Array>; rest: Uint8Array } | null = null;
  return {
    bodies: gate.bodies,
    async waitForRequest(): Promise<void> {
      await gate.waitForRequest();
    },
    /** Sends the first half of the real ZIP, announcing its full size. */
    async half(): Promise<void> {
      const { request, resolve } = await gate.take();
      const response = await forwardToApp(testApp().app, request);
      const bytes = new Uint8Array(await response.arrayBuffer());
      const cut = Math.floor(bytes.length / 2);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.slice(0, cut));
          open = { controller, rest: bytes.slice(cut) };
        },
      });
      resolve(
        new HttpResponse(body, {
          status: 200,
          headers: { 'content-type': 'application/zip', 'content-length': String(bytes.length) },
        }),
      );
    },
    async finish(): Promise<void> {
      if (open) {
        open.controller.enqueue(open.rest);
        open.controller.close();
        open = null;
        return;
      }
      await gate.pass();
    },
    respond: gate.respond,
    networkError: gate.networkError,
  };
}

/** What the page saves: the blob handed to URL.createObjectURL and the <a download> name clicked. */
function fileSaveSpy() {
  const blobs: Blob[] = [];
  const names: string[] = [];
  const original = URL.createObjectURL;
  const originalRevoke = URL.revokeObjectURL;
  URL.createObjectURL = (blob: Blob) => {
    blobs.push(blob);
    return `blob:${TEST_ORIGIN}/${blobs.length}`;
  };
  URL.revokeObjectURL = () => {};
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    names.push(this.download);
  });
  return {
    blobs,
    names,
    restore() {
      URL.createObjectURL = original;
      URL.revokeObjectURL = originalRevoke;
      click.mockRestore();
    },
  };
}

interface Ctx {
  gate: ReturnType<typeof downloadGate>;
  files: ReturnType<typeof fileSaveSpy>;
  assign: ReturnType<typeof vi.spyOn>;
  /** The folio fiscal of the row the path selected, once selected. */
  selected: string | null;
  fault: number | null;
}

const downloadButton = () =>
  screen.getByRole('button', { name: 'Descargar seleccionados' }) as HTMLButtonElement;
const rowBoxes = () =>
  screen.getAllByRole('checkbox', { name: /^Seleccionar factura / }) as HTMLInputElement[];
const notice = (role: 'status' | 'alert') =>
  screen.queryAllByRole(role).find((element) => element.classList.contains('bp6-callout')) ?? null;

async function advancedPage(access: string, filter = ''): Promise<InvoicePage> {
  const response = await testApp().app.inject({
    method: 'GET',
    url: `/api/providers/advanced-invoices/?page_size=100${filter}`,
    headers: { authorization: `Bearer ${access}` },
  });
  return response.json() as InvoicePage;
}

async function storedInvoice(uuid: string) {
  return testApp()
    .database.db.selectFrom('invoices')
    .select(['cfdi_uuid', 'serie', 'folio', 'cfdi_xml'])
    .where('cfdi_uuid', '=', uuid)
    .executeTakeFirstOrThrow();
}

async function expectSavedZip(ctx: Ctx, uuids: readonly string[]): Promise<void> {
  expect(ctx.files.names.at(-1)).toBe(advancedInvoicesZipName(dayjs().format('YYYY-MM-DD')));
  const zip = unzipSync(new Uint8Array(await ctx.files.blobs.at(-1)!.arrayBuffer()));
  expect(Object.keys(zip)).toHaveLength(uuids.length * 2);
  for (const uuid of uuids) {
    const invoice = await storedInvoice(uuid);
    const name = invoiceLabel(invoice);
    expect(new TextDecoder().decode(zip[`${name}.xml`])).toBe(invoice.cfdi_xml);
    expect(new TextDecoder().decode(zip[`${name}.pdf`]!.subarray(0, 5))).toBe('%PDF-');
  }
}

function expectSessionEnded(ctx: Ctx): void {
  // Spec §8: a 401 clears all local storage and sends the browser to '/'.
  expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
  expect(localStorage.length).toBe(0);
  expect(ctx.assign).toHaveBeenCalledWith('/');
}

function progressOf(state: AnyMachineSnapshot): number | null {
  return (state.context as { progress: number | null }).progress;
}

defineModelTests<Ctx>(invoiceDownloadModel, {
  setup: async () => {
    await signInAs(USERNAME);
    return {
      gate: downloadGate(),
      files: fileSaveSpy(),
      // A DOM test cannot reload the page; the spy records the reload to '/' that a 401 asks for.
      assign: vi.spyOn(Location.prototype, 'assign').mockImplementation(() => {}),
      selected: null,
      fault: null,
    };
  },
  render: async () => {
    renderApp(PATH);
    await screen.findAllByRole('checkbox', { name: /^Seleccionar factura / }, LOAD_WAIT);
  },
  teardown: (ctx) => {
    ctx.files.restore();
    ctx.assign.mockRestore();
  },
  states: {
    '#invoiceDownload.ready.idle': async ({ ctx }) => {
      expect(screen.getByRole('heading', { level: 1, name: ADVANCED_INVOICES_TITLE })).toBeTruthy();
      await waitFor(() => expect(notice('status')).toBeNull());
      expect(notice('alert')).toBeNull();
      expect(screen.queryByLabelText('Progreso de la descarga')).toBeNull();
      // Spec §5: disabled with no selection; the selection survives a failure.
      expect(downloadButton().disabled).toBe(ctx.selected === null);
    },
    '#invoiceDownload.downloading': async ({ state }) => {
      // Spec §4: download buttons are disabled while a report is in progress.
      await waitFor(() => expect(downloadButton().disabled).toBe(true));
      const progress = progressOf(state);
      const text =
        progress === null ? 'Preparando tus archivos…' : `Descargando… ${Math.round(progress * 100)} %`;
      expect(await screen.findByText(text)).toBeTruthy();
      expect(screen.getByLabelText('Progreso de la descarga')).toBeTruthy();
    },
    '#invoiceDownload.ready.done': async ({ ctx, state }) => {
      await waitFor(() =>
        expect(notice('status')?.textContent).toContain(downloadedMessage(state.context.count)),
      );
      await expectSavedZip(ctx, [ctx.selected!]);
      expect(downloadButton().disabled).toBe(false);
    },
    '#invoiceDownload.ready.failed': async ({ ctx, state }) => {
      await waitFor(() => expect(notice('alert')?.textContent).toContain(state.context.error));
      expect(screen.queryByLabelText('Progreso de la descarga')).toBeNull();
      expect(downloadButton().disabled).toBe(false);
      if (ctx.fault === 401) expectSessionEnded(ctx);
    },
  },
  events: {
    'download.start': async ({ ctx, user }) => {
      if (ctx.selected === null) {
        const [first] = rowBoxes();
        await user.click(first!);
        ctx.selected = first!.getAttribute('aria-label')!.replace('Seleccionar factura ', '');
      }
      await user.click(downloadButton());
      await ctx.gate.waitForRequest();
      // The page sends the id of the row the user ticked.
      const [id] = (ctx.gate.bodies.at(-1) as { invoice_ids: number[] }).invoice_ids;
      const sent = await testApp()
        .database.db.selectFrom('invoices')
        .select('cfdi_uuid')
        .where('id', '=', id!)
        .executeTakeFirstOrThrow();
      expect(ctx.gate.bodies.at(-1)).toEqual({ invoice_ids: [id] });
      expect(sent.cfdi_uuid).toBe(ctx.selected);
    },
    'download.progress': async ({ ctx }) => {
      await ctx.gate.half();
    },
    'xstate.done.actor.downloadInvoices': async ({ ctx }) => {
      await ctx.gate.finish();
    },
    'xstate.error.actor.downloadInvoices': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number; body: unknown } };
      ctx.fault = error.status;
      if (error.status === 0) await ctx.gate.networkError();
      else await ctx.gate.respond(error.status, error.body);
    },
    'notice.dismiss': async ({ ctx, user }) => {
      const shown = notice('status') ?? notice('alert');
      await user.click(within(shown!).getByRole('button', { name: 'Cerrar' }));
      ctx.fault = null;
    },
    'xstate.after.NOTICE_MS.invoiceDownload.ready.done': async () => {
      await waitFor(() => expect(notice('status')).toBeNull(), NOTICE_WAIT);
    },
  },
});

describe('advanced invoices (page)', () => {
  let files: ReturnType<typeof fileSaveSpy>;
  beforeEach(() => {
    files = fileSaveSpy();
  });
  afterEach(() => files.restore());

  it('is guarded: without a session it goes to /inicio/', async () => {
    const { router } = renderApp(PATH);
    await waitFor(() => expect(router.state.location.pathname).toBe('/inicio/'));
  });

  it('lists only the advanced invoices; «Seleccionar todos» toggles all and none and downloads them all', async () => {
    const { access } = await signInAs(USERNAME);
    const user = userEvent.setup();
    renderApp(PATH);
    await screen.findAllByRole('checkbox', { name: /^Seleccionar factura / }, LOAD_WAIT);
    const page = await advancedPage(access);
    expect(page.results.every((row) => isAdvancedStatus(row.status))).toBe(true);
    expect(rowBoxes().map((box) => box.getAttribute('aria-label'))).toEqual(
      page.results.map((row) => `Seleccionar factura ${row.fiscal_folio}`),
    );
    expect(
      screen.getByText('Consulta las facturas que ya adelantaste y descarga su XML o PDF.'),
    ).toBeTruthy();
    const selectAll = screen.getByRole('button', { name: 'Seleccionar todos' });
    await user.click(selectAll);
    expect(rowBoxes().every((box) => box.checked)).toBe(true);
    await user.click(selectAll);
    expect(rowBoxes().some((box) => box.checked)).toBe(false);
    expect(downloadButton().disabled).toBe(true);
    await user.click(selectAll);
    await user.click(downloadButton());
    await waitFor(
      () => expect(notice('status')?.textContent).toContain(downloadedMessage(page.count)),
      LOAD_WAIT,
    );
    const ctx = { files } as Ctx;
    await expectSavedZip(
      ctx,
      page.results.map((row) => row.fiscal_folio),
    );
  });

  it('filters by status within the advanced ones, keeps it in the URL, and opens a row’s audit trail', async () => {
    const { access } = await signInAs(USERNAME);
    const user = userEvent.setup();
    const { router } = renderApp(PATH);
    await screen.findAllByRole('checkbox', { name: /^Seleccionar factura / }, LOAD_WAIT);
    const status = screen.getByLabelText('Estatus') as HTMLSelectElement;
    expect([...status.options].map((option) => option.text)).toEqual(['Todas', 'En trámite', 'Pagada']);
    const paid = await advancedPage(access, '&status=10');
    expect(paid.count).toBeGreaterThan(0);
    await user.selectOptions(status, 'Pagada');
    await waitFor(() => expect(router.state.location.search).toEqual({ status: 10 }));
    await waitFor(() =>
      expect(rowBoxes().map((box) => box.getAttribute('aria-label'))).toEqual(
        paid.results.map((row) => `Seleccionar factura ${row.fiscal_folio}`),
      ),
    );
    const [first] = paid.results;
    await user.click(screen.getByRole('button', { name: `Historial ${first!.fiscal_folio}` }));
    const steps = await screen.findByRole('list', { name: 'Movimientos' }, LOAD_WAIT);
    expect(steps.closest('.bp6-drawer')?.textContent).toContain(`Factura ${first!.fiscal_folio}`);
    // A paid advance went through the request, the authorization, the advance and the disbursement.
    expect(within(steps).getAllByRole('listitem').at(-1)?.textContent).toContain('En trámite → Pagada');
  });

  it('renews an access token that expired while the tab slept before downloading: no logout, the ZIP arrives', async () => {
    const { access } = await signInAs(USERNAME);
    const user = userEvent.setup();
    const assign = vi.spyOn(Location.prototype, 'assign').mockImplementation(() => {});
    const calls: { path: string; authorization: string | null }[] = [];
    const record = ({ request }: { request: Request }) => {
      calls.push({
        path: new URL(request.url).pathname,
        authorization: request.headers.get('authorization'),
      });
    };
    mswServer.events.on('request:start', record);
    try {
      renderApp(PATH);
      const [first] = await screen.findAllByRole('checkbox', { name: /^Seleccionar factura / }, LOAD_WAIT);
      await user.click(first!);
      // The tab wakes after the access token expired (for the browser and the server alike); timers that
      // would have refreshed it never ran, and the refresh token is still good.
      vi.setSystemTime(tokenExpiryMs(access)! + 1000);
      calls.length = 0;
      await user.click(downloadButton());
      await waitFor(() => expect(notice('status')?.textContent).toContain(downloadedMessage(1)), LOAD_WAIT);

      const renewed = localStorage.getItem(ACCESS_TOKEN_KEY);
      expect(renewed).not.toBe(access);
      expect(localStorage.getItem(REFRESH_TOKEN_KEY)).not.toBeNull();
      expect(calls.map((call) => call.path)).toEqual(['/api/accounts/token/refresh/', DOWNLOAD]);
      expect(calls.at(-1)?.authorization).toBe(`Bearer ${renewed}`);
      expect(assign).not.toHaveBeenCalled();
      await expectSavedZip({ files } as Ctx, [
        first!.getAttribute('aria-label')!.replace('Seleccionar factura ', ''),
      ]);
    } finally {
      mswServer.events.removeListener('request:start', record);
      vi.useRealTimers();
      assign.mockRestore();
    }
  });

  it('on Pronto Pago, «Descargar seleccionados» downloads the selected advanced invoices and says what it leaves out', async () => {
    const { access } = await signInAs(USERNAME);
    const user = userEvent.setup();
    renderApp('/dashboard/pronto-pago/');
    await screen.findAllByRole('checkbox', { name: /^Seleccionar factura / }, LOAD_WAIT);
    const response = await testApp().app.inject({
      method: 'GET',
      url: '/api/providers/alliances/?page=1&page_size=25',
      headers: { authorization: `Bearer ${access}` },
    });
    const firstPage = (response.json() as InvoicePage).results;
    const advanced = firstPage.filter((row) => isAdvancedStatus(row.status));
    const others = firstPage.filter((row) => !isAdvancedStatus(row.status));
    // The demo provider's newest invoices mix advanced ones with others (server/seed/demo-world.ts).
    expect(advanced.length).toBeGreaterThan(0);
    expect(others.length).toBeGreaterThan(0);
    expect(downloadButton().disabled).toBe(true);

    const rendered = (row: { fiscal_folio: string }) =>
      rowBoxes().find((box) => box.getAttribute('aria-label') === `Seleccionar factura ${row.fiscal_folio}`);
    const other = others.find(rendered)!;
    await user.click(rendered(other)!);
    expect(downloadButton().disabled).toBe(true);
    expect(
      screen.getByText(
        'Solo las facturas adelantadas (En trámite o Pagada) tienen XML y PDF para descargar; ninguna de las seleccionadas lo está.',
      ),
    ).toBeTruthy();
    await user.click(rendered(other)!);

    await user.click(screen.getByRole('button', { name: 'Seleccionar todos' }));
    expect(
      screen.getByText(
        `Solo las facturas adelantadas (En trámite o Pagada) tienen XML y PDF para descargar: se descargarán ${advanced.length} de las ${firstPage.length} seleccionadas.`,
      ),
    ).toBeTruthy();
    await user.click(downloadButton());
    await waitFor(
      () => expect(notice('status')?.textContent).toContain(downloadedMessage(advanced.length)),
      LOAD_WAIT,
    );
    await expectSavedZip(
      { files } as Ctx,
      advanced.map((row) => row.fiscal_folio),
    );
  });

  it('shows the server’s refusal when an invoice stopped being advanced', async () => {
    await signInAs(USERNAME);
    const user = userEvent.setup();
    mswServer.use(
      http.post(`${TEST_ORIGIN}${DOWNLOAD}`, () =>
        HttpResponse.json(
          {
            detail:
              'La factura A-1003 no está adelantada (su estado es «Cancelada»); actualiza la lista y vuelve a seleccionar.',
          },
          { status: 409 },
        ),
      ),
    );
    renderApp(PATH);
    const [first] = await screen.findAllByRole('checkbox', { name: /^Seleccionar factura / }, LOAD_WAIT);
    await user.click(first!);
    await user.click(downloadButton());
    await waitFor(() => expect(notice('alert')?.textContent).toContain('no está adelantada'));
    expect(files.blobs).toEqual([]);
  });
});
