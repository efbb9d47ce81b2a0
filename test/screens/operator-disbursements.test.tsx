import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import dayjs from 'dayjs';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { getInitialSnapshot } from 'xstate';
import { businessDate } from '../../server/http/business-date';
import { DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { maskClabe } from '../../src/domain/clabe';
import { formatMxn, parseMoney } from '../../src/domain/money';
import type { DeskItem } from '../../src/domain/schemas/control-desk';
import { RESULT_COLUMNS, RESULT_FILE_SAMPLE, resultFileCsv } from '../../src/domain/spei';
import { disbursementActionsMachine } from '../../src/machines/disbursement-actions.machine';
import { ACCESS_TOKEN_KEY } from '../../src/stores/storage-keys';
import { setUser } from '../../src/stores/user.store';
import {
  DisbursementsPage,
  type DisbursementsPageProps,
} from '../../src/views/operator/disbursements/disbursements-page';
import { gateEndpoint } from '../model/harness/msw-gate';
import { renderApp } from '../model/harness/render-app';
import { callServer, testApp } from '../model/harness/test-server';
import { world } from '../model/harness/world';
import { DESK_PROVIDER_CLABE, deskWorld } from '../support/control-desk';
import { advanceTo, importInvoice, requestAdvance } from '../support/pronto-pago';
import { SERVER_WAIT } from '../support/server-wait';
import { fileSaveSpy } from './invoice-download.page';

// /operacion/dispersiones/ (issue 19, decision 0054): approved advances → SPEI batch → layout → bank result.

const PATH = '/operacion/dispersiones/';
const PROVIDER_CLABE = DESK_PROVIDER_CLABE;

const EMPTY_PAGE = { count: 0, next: null, previous: null, results: [] };

function props(overrides: Partial<DisbursementsPageProps> = {}): DisbursementsPageProps {
  return {
    ready: { status: 'success', data: EMPTY_PAGE, retry: vi.fn() },
    batches: { status: 'success', data: EMPTY_PAGE, retry: vi.fn() },
    page: 1,
    onPage: vi.fn(),
    openBatch: null,
    onOpenBatch: vi.fn(),
    actions: getInitialSnapshot(disbursementActionsMachine),
    send: vi.fn(),
    ...overrides,
  };
}

/** The page's own structure and names (contrast needs a real layout; the frame around it is the layout's). */
async function expectAxeClean() {
  const page = document.querySelector('.disbursements-page') as HTMLElement;
  const audit = await axe.run(page, { rules: { 'color-contrast': { enabled: false } } });
  expect(audit.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}

/** An invoice of the first demo provider advanced to En trámite ('Adelantar pago' reserves it), approved at the desk. */
async function approvedAdvance(): Promise<number> {
  const { app, database } = testApp();
  const db = database.db;
  const today = businessDate(new Date());
  const id = await importInvoice(db, { today });
  await advanceTo(db, id, 'approved', dayjs(today).add(30, 'day').format('YYYY-MM-DD'));
  await requestAdvance(db, id);
  const approver = await world.operatorSession(['aprobador']);
  const answer = await app.inject({
    method: 'POST',
    url: `/api/operator/desk/${id}/approve/`,
    payload: {},
    headers: { authorization: `Bearer ${approver.access}` },
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return id;
}

describe('SPEI batches (page)', () => {
  beforeAll(async () => {
    // The demo corporate's programme with room, the first demo provider's valid deposit CLABE (BBVA).
    await deskWorld(testApp().database.db);
  });

  it('says when there is nothing to batch and no batch yet, and retries a failed load', async () => {
    const onRetry = vi.fn();
    const { rerender } = render(<DisbursementsPage {...props()} />);
    expect(screen.getByText('No hay adelantos aprobados por dispersar')).toBeTruthy();
    expect(screen.getByText('Aún no hay lotes')).toBeTruthy();
    rerender(
      <DisbursementsPage {...props({ batches: { status: 'error', data: undefined, retry: onRetry } })} />,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('No pudimos cargar los lotes');
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Reintentar' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('pages through the batches when there are more than a page', async () => {
    const onPage = vi.fn();
    const batch = (id: number) => ({
      id,
      created_at: '2026-11-20T16:00:00.000Z',
      total: '1000.00',
      pending: 0,
      settled: 1,
      returned: 0,
      created_by: 'tesoreria.demo',
      orders: 1,
    });
    const results = Array.from({ length: 25 }, (_, index) => batch(30 - index));
    const page = { count: 30, next: '/api/operator/disbursements/?page=2', previous: null, results };
    render(
      <DisbursementsPage
        {...props({ batches: { status: 'success', data: page, retry: vi.fn() }, onPage })}
      />,
    );
    const pager = screen.getByRole('navigation', { name: 'Páginas de lotes' });
    expect(pager.textContent).toContain('Página 1 de 2 · 30 lotes');
    expect(within(pager).getByRole('button', { name: 'Anterior' }).hasAttribute('disabled')).toBe(true);
    await userEvent.setup().click(within(pager).getByRole('button', { name: 'Siguiente' }));
    expect(onPage).toHaveBeenCalledWith(2);
    await expectAxeClean();
  });

  it('batches an approved advance, downloads its layout and applies the bank result, refusing a bad file line by line', async () => {
    const invoiceId = await approvedAdvance();
    const session = await world.operatorSession(['tesoreria']);
    localStorage.setItem(ACCESS_TOKEN_KEY, session.access);
    setUser({ isAuthenticated: true, operatorRoles: ['tesoreria'] });
    const user = userEvent.setup();
    let gated = true;
    const batches = gateEndpoint('get', '/api/operator/disbursements/', { when: () => gated });
    renderApp(PATH);

    // The batches' first load fails (the app's queries retry once): the section says so and retries.
    await batches.respond(500, { detail: 'Error interno' });
    await batches.respond(500, { detail: 'Error interno' });
    const failed = await screen.findByRole('alert', {}, SERVER_WAIT);
    expect(failed.textContent).toContain('No pudimos cargar los lotes');
    await user.click(within(failed).getByRole('button', { name: 'Reintentar' }));
    gated = false;
    await batches.pass();
    expect(await screen.findByText('Aún no hay lotes', {}, SERVER_WAIT)).toBeTruthy();

    const ready = await screen.findByRole(
      'table',
      { name: 'Adelantos aprobados por dispersar' },
      SERVER_WAIT,
    );
    const create = screen.getByRole('button', { name: 'Crear lote' }) as HTMLButtonElement;
    expect(create.disabled).toBe(true);
    expect(screen.getByText('Selecciona al menos un adelanto aprobado.')).toBeTruthy();
    const rows = within(ready).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(1);
    const row = rows[0] as HTMLElement;
    expect(within(row).getByText(DEMO_PROVIDERS[0].rfc)).toBeTruthy();
    // The account recognisable but masked where advances are picked; whole in the batch's orders below.
    expect(within(row).getByText(maskClabe(PROVIDER_CLABE))).toBeTruthy();
    // What leaves is the payout, with its currency; the invoice's amount beside it.
    const item = (
      await callServer('GET', `/api/operator/desk/${invoiceId}/`, {
        headers: { authorization: `Bearer ${session.access}` },
      })
    ).body as DeskItem;
    expect(row.textContent).toContain(formatMxn(parseMoney(item.payout as string)));
    expect(row.textContent).toContain(`Factura ${formatMxn(parseMoney(item.amount))}`);

    // The bank's result file: its columns and a sample written by the domain's own format.
    const format = screen.getByRole('table', { name: 'Columnas del resultado del banco' });
    expect(
      within(format)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent),
    ).toEqual([...RESULT_COLUMNS]);
    const sample = screen.getByRole('button', { name: 'Descargar archivo de ejemplo' });
    expect(sample.getAttribute('download')).toBe('resultado-banco-ejemplo.csv');
    expect(
      decodeURIComponent((sample.getAttribute('href') ?? '').replace(/^data:text\/csv;charset=utf-8,/, '')),
    ).toBe(resultFileCsv(RESULT_FILE_SAMPLE));

    await expectAxeClean();

    await user.click(within(row).getByRole('checkbox'));
    expect(create.disabled).toBe(false);
    await user.click(create);
    expect(await screen.findByText('No hay adelantos aprobados por dispersar', {}, SERVER_WAIT)).toBeTruthy();
    const batchTable = await screen.findByRole('table', { name: 'Lotes SPEI' }, SERVER_WAIT);
    const batchRow = within(batchTable).getAllByRole('row')[1] as HTMLElement;
    expect(within(batchRow).getByText('Pendiente de resultado')).toBeTruthy();
    expect(within(batchRow).getByText(session.username)).toBeTruthy();

    // The new batch opens with its order.
    const orders = await screen.findByRole('table', { name: /^Órdenes SPEI del lote \d+$/ }, SERVER_WAIT);
    const batchId = Number(/\d+$/.exec(orders.getAttribute('aria-label') ?? '')?.[0]);
    const clave = `FLUJO${batchId}F${invoiceId}`;
    const orderRow = within(orders).getByText(clave).closest('tr') as HTMLElement;
    expect(within(orderRow).getByText(PROVIDER_CLABE)).toBeTruthy();
    expect(within(orderRow).getByText('Pendiente')).toBeTruthy();

    // happy-dom would follow the <a download> click away from the page: the spy keeps what would be saved.
    const files = fileSaveSpy();
    await user.click(screen.getByRole('button', { name: 'Descargar layout' }));
    await waitFor(
      () =>
        expect(screen.getByRole('status').textContent).toContain(`Layout del lote ${batchId} descargado.`),
      SERVER_WAIT,
    );
    files.restore();
    expect(files.names).toEqual([`lote-spei-${batchId}.csv`]);
    expect(await (files.blobs[0] as Blob).text()).toContain(clave);

    // A bad line refuses the whole file with the server's Spanish message for that line.
    const input = screen.getByLabelText('Cargar resultado del banco (CSV)');
    await user.upload(
      input,
      new File([`clave_rastreo,estado,motivo\r\n${clave},devuelta,\r\n`], 'resultado.csv', {
        type: 'text/csv',
      }),
    );
    const refusal = await screen.findByRole('list', { name: 'Errores del archivo' }, SERVER_WAIT);
    expect(refusal.textContent).toMatch(/Línea 2/);
    expect(within(orderRow).getByText('Pendiente')).toBeTruthy();

    // Who made the batch may not confirm it (decision 0059): the server's reason shows; a second tesorería can.
    const settled = () =>
      new File([`clave_rastreo,estado,motivo\r\n${clave},liquidada,\r\n`], 'resultado.csv', {
        type: 'text/csv',
      });
    expect(screen.getByText(/no quien creó el lote\.$/)).toBeTruthy();
    await user.upload(input, settled());
    await waitFor(
      () =>
        expect(screen.getByRole('alert').textContent).toContain(
          'Quien creó el lote no puede confirmar su resultado',
        ),
      SERVER_WAIT,
    );
    expect(within(orderRow).getByText('Pendiente')).toBeTruthy();
    const second = await world.operatorSession(['tesoreria']);
    localStorage.setItem(ACCESS_TOKEN_KEY, second.access);
    await user.upload(input, settled());
    await waitFor(
      () =>
        expect(screen.getByText(/^Resultado aplicado al lote/).textContent).toBe(
          `Resultado aplicado al lote ${batchId}: 1 liquidada(s), 0 devuelta(s), 0 ya confirmada(s) antes.`,
        ),
      SERVER_WAIT,
    );
    expect(await within(batchTable).findByText('Confirmado', {}, SERVER_WAIT)).toBeTruthy();
    expect(within(orders).getByText('Liquidada')).toBeTruthy();
    expect(within(orders).getByText(`Confirmó ${second.username}`)).toBeTruthy();
    await expectAxeClean();
  });
});
