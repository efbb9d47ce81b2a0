import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { VirtuosoMockContext } from 'react-virtuoso';
import { describe, expect, it, vi } from 'vitest';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { SatStatus } from '../../src/domain/sat-status';
import type { Invoice } from '../../src/domain/schemas/invoices';
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
import { renderApp, signInAs } from '../model/harness/render-app';
import { findRow, gateSearchedList, invoiceUuid, PROVIDER } from '../model/pronto-pago-helpers';
import { importInvoice } from '../support/pronto-pago';
import { SERVER_WAIT } from '../support/server-wait';
import { db } from './authorization-request.page';

const HELP = PROVIDER_SECTIONS[0]!.help;

const SAMPLE_ROW: Invoice = listInvoice({ id: 1, fiscal_folio: 'F-0' });

describe('pronto pago (page)', () => {
  it('redirects to the SAT credentials while the SAT link is not authorized (spec §2)', async () => {
    await signInAs(PROVIDER);
    setUser({ satCredentials: SatStatus.SENT });
    const { router } = renderApp('/dashboard/pronto-pago/');
    await waitFor(
      () => expect(router.state.location.pathname).toBe('/dashboard/sat-credentials/'),
      SERVER_WAIT,
    );
  });

  it('shows the heading, the help card and the filters of spec §2, kept in the URL', async () => {
    await signInAs(PROVIDER);
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/pronto-pago/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Pronto Pago' }, SERVER_WAIT)).toBeTruthy();
    expect(screen.getByText(HELP)).toBeTruthy();
    const box = screen.getByPlaceholderText(SEARCH_PLACEHOLDER) as HTMLInputElement;
    expect(screen.getByRole('button', { name: 'Periodo de emisión: Todos los meses' })).toBeTruthy();
    await screen.findAllByText('Por Autorizar', { selector: '[data-status] span' }, SERVER_WAIT);

    // Spec §5: the search waits 500 ms after the last keystroke, then lands in the URL.
    await user.type(box, 'GAA150312K78');
    expect(router.state.location.search).toEqual({});
    await waitFor(() => expect(router.state.location.search).toEqual({ search: 'GAA150312K78' }), {
      timeout: 2000,
    });
    await user.selectOptions(screen.getByLabelText('Estatus'), String(InvoiceStatus.APPROVED));
    await waitFor(
      () =>
        expect(router.state.location.search).toEqual({
          search: 'GAA150312K78',
          status: InvoiceStatus.APPROVED,
        }),
      SERVER_WAIT,
    );
    await waitFor(() => {
      const tags = screen.getAllByText(/./, { selector: '[data-status] span' }).map((tag) => tag.textContent);
      expect(new Set(tags)).toEqual(new Set(['Autorizada']));
    }, SERVER_WAIT);
    await user.click(screen.getByRole('button', { name: /Periodo de emisión/ }));
    await user.click(await screen.findByLabelText('Mes actual', {}, SERVER_WAIT));
    await waitFor(
      () => expect(router.state.location.search).toMatchObject({ period: '20,30,40,50' }),
      SERVER_WAIT,
    );
  });

  it('reads the filters from the URL, shows the empty text, and toggles the selection of all rows', async () => {
    await signInAs(PROVIDER);
    const user = userEvent.setup();
    const first = await importInvoice(db(), { description: 'Lote de selección' });
    const second = await importInvoice(db(), { description: 'Lote de selección' });
    renderApp('/dashboard/pronto-pago/?search=Lote%20de%20selecci%C3%B3n');
    await findRow(await invoiceUuid(first));
    const row = await findRow(await invoiceUuid(second));
    expect(within(row).getByText('$100,000.00 MXN')).toBeTruthy();
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
    expect(await screen.findByText(EMPTY_INVOICES_TEXT, {}, SERVER_WAIT)).toBeTruthy();
  });

  it('shows loading, then an error with retry when the list fails', async () => {
    await signInAs(PROVIDER);
    const user = userEvent.setup();
    const invoiceId = await importInvoice(db());
    const list = gateSearchedList();
    renderApp(`/dashboard/pronto-pago/?search=${await invoiceUuid(invoiceId)}`);
    expect(await screen.findByLabelText('Cargando facturas…', {}, SERVER_WAIT)).toBeTruthy();
    // The app's queries retry once before showing the error.
    await list.respond(500, { detail: 'Error interno' });
    await list.respond(500, { detail: 'Error interno' });
    const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
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
    await waitFor(
      () => expect(screen.getAllByRole('checkbox', { name: /Seleccionar factura/ })).toHaveLength(20),
      SERVER_WAIT,
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
    await waitFor(() => expect(onEndReached).toHaveBeenCalled(), SERVER_WAIT);
  });
});
