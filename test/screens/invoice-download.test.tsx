import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isAdvancedStatus } from '../../src/domain/advanced-invoices';
import type { InvoicePage } from '../../src/domain/schemas/invoices';
import { tokenExpiryMs } from '../../src/domain/session';
import { downloadedMessage } from '../../src/machines/invoice-download.machine';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY } from '../../src/stores/storage-keys';
import { AUDIT_TRAIL_TITLE } from '../../src/views/invoices/audit-trail-drawer';
import { shownFolio } from '../../src/views/invoices/invoice-columns';
import { renderApp, signInAs } from '../model/harness/render-app';
import { mswServer, TEST_ORIGIN, testApp } from '../model/harness/test-server';
import { SERVER_WAIT } from '../support/server-wait';
import {
  type Ctx,
  DOWNLOAD,
  downloadButton,
  expectSavedZip,
  fileSaveSpy,
  notice,
  PATH,
  rowBoxes,
  USERNAME,
} from './invoice-download.page';

async function advancedPage(access: string, filter = ''): Promise<InvoicePage> {
  const response = await testApp().app.inject({
    method: 'GET',
    url: `/api/providers/advanced-invoices/?page_size=100${filter}`,
    headers: { authorization: `Bearer ${access}` },
  });
  return response.json() as InvoicePage;
}

describe('advanced invoices (page)', () => {
  let files: ReturnType<typeof fileSaveSpy>;
  beforeEach(() => {
    files = fileSaveSpy();
  });
  afterEach(() => files.restore());

  it('is guarded: without a session it goes to /inicio/', async () => {
    const { router } = renderApp(PATH);
    await waitFor(() => expect(router.state.location.pathname).toBe('/inicio/'), SERVER_WAIT);
  });

  it('lists only the advanced invoices; «Seleccionar todos» toggles all and none and downloads them all', async () => {
    const { access } = await signInAs(USERNAME);
    const user = userEvent.setup();
    renderApp(PATH);
    await screen.findAllByRole('checkbox', { name: /^Seleccionar factura / }, SERVER_WAIT);
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
      SERVER_WAIT,
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
    await screen.findAllByRole('checkbox', { name: /^Seleccionar factura / }, SERVER_WAIT);
    const status = screen.getByLabelText('Estatus') as HTMLSelectElement;
    expect([...status.options].map((option) => option.text)).toEqual(['Todas', 'En trámite', 'Pagada']);
    const paid = await advancedPage(access, '&status=10');
    expect(paid.count).toBeGreaterThan(0);
    await user.selectOptions(status, 'Pagada');
    await waitFor(() => expect(router.state.location.search).toEqual({ status: 10 }), SERVER_WAIT);
    await waitFor(
      () =>
        expect(rowBoxes().map((box) => box.getAttribute('aria-label'))).toEqual(
          paid.results.map((row) => `Seleccionar factura ${row.fiscal_folio}`),
        ),
      SERVER_WAIT,
    );
    const [first] = paid.results;
    await user.click(screen.getByRole('button', { name: `Historial ${first!.fiscal_folio}` }));
    const steps = await screen.findByRole('list', { name: 'Movimientos' }, SERVER_WAIT);
    // Named by its serie-folio, its folio fiscal beneath (issue 33).
    expect(
      screen.getByRole('dialog', { name: `${AUDIT_TRAIL_TITLE} ${shownFolio(first!)}` }).textContent,
    ).toContain(`Folio fiscal ${first!.fiscal_folio}`);
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
      const [first] = await screen.findAllByRole('checkbox', { name: /^Seleccionar factura / }, SERVER_WAIT);
      await user.click(first!);
      // The tab wakes after the access token expired (for the browser and the server alike); timers that
      // would have refreshed it never ran, and the refresh token is still good.
      vi.setSystemTime(tokenExpiryMs(access)! + 1000);
      calls.length = 0;
      await user.click(downloadButton());
      await waitFor(() => expect(notice('status')?.textContent).toContain(downloadedMessage(1)), SERVER_WAIT);

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
    await screen.findAllByRole('checkbox', { name: /^Seleccionar factura / }, SERVER_WAIT);
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
      SERVER_WAIT,
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
    const [first] = await screen.findAllByRole('checkbox', { name: /^Seleccionar factura / }, SERVER_WAIT);
    await user.click(first!);
    await user.click(downloadButton());
    await waitFor(() => expect(notice('alert')?.textContent).toContain('no está adelantada'), SERVER_WAIT);
    expect(files.blobs).toEqual([]);
  });
});
