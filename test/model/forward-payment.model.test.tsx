import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { businessDate } from '../../server/modules/invoices/business-date';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { formatCurrency, parseMoney } from '../../src/domain/money';
import { advanceQuote, displayedAnnualRate, RATE_LABEL } from '../../src/domain/quote';
import { QUOTE_FAILED_MESSAGE } from '../../src/machines/forward-payment.machine';
import { SESSION_ENDED_MESSAGE } from '../../src/machines/pronto-pago-messages';
import { ACCESS_TOKEN_KEY } from '../../src/stores/storage-keys';
import { AUDIT_TRAIL_FAILED, IMPORTED_LABEL } from '../../src/views/invoices/audit-trail-drawer';
import { formatDisplayDateTime } from '../../src/views/invoices/invoice-format';
import { EMPTY_INVOICES_TEXT } from '../../src/views/invoices/invoice-table';
import { forwardToApp } from '../support/msw-app';
import { advanceTo, DEMO_PROVIDER, importInvoice, postJson, statusOf } from '../support/pronto-pago';
import { SESSION_ENDED_BODY } from './authorization-request.model';
import { ADVANCE_IN_PROCESS_BODY, DAYS_TO_PAYMENT, forwardPaymentModel } from './forward-payment.model';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp, signInAs } from './harness/render-app';
import { testApp } from './harness/test-server';
import { plusDays } from './invoice-lifecycle.model';
import { bearer, findRow, invoiceUuid, PROVIDER } from './pronto-pago-helpers';

const APPROVE = '/api/providers/forward-payment/';
const quotePath = (id: number) => `/api/providers/forward-payment/${id}/`;
/** The imported test invoice: 86,206.90 + 16% IVA (test/support/pronto-pago.ts). */
const INVOICE_AMOUNT = '100000.00';

interface Ctx {
  access: string;
  invoiceId: number;
  uuid: string;
  quote: ReturnType<typeof gateEndpoint>;
  approve: ReturnType<typeof gateEndpoint>;
  assign: ReturnType<typeof vi.spyOn>;
  fault: number | null;
  /** Idempotency-Key of each approval request, in order. */
  keys: string[];
}

const db = () => testApp().database.db;

/** What the drawer must show for a 100,000.00 invoice 45 days before its payment date: the domain's figures. */
function expectedFigures(): Record<string, string> {
  const quote = advanceQuote({
    amount: parseMoney(INVOICE_AMOUNT),
    maxRate: DEMO_PROVIDER.rate,
    days: DAYS_TO_PAYMENT,
  });
  return {
    'Tasa anual': `${displayedAnnualRate(DEMO_PROVIDER.rate)}% ${RATE_LABEL}`,
    'Días de adelanto': String(DAYS_TO_PAYMENT),
    'Costo financiero': formatCurrency(quote.costFinancing),
    'Costo de asesoría': formatCurrency(quote.costConsultancy),
    'Total a recibir': formatCurrency(quote.total),
  };
}

function drawer(): HTMLElement | null {
  return document.querySelector('.bp6-drawer');
}

async function openDrawer(): Promise<HTMLElement> {
  await waitFor(() => expect(drawer()).toBeTruthy());
  return drawer() as HTMLElement;
}

function expectFigures(panel: HTMLElement): void {
  const shown = Object.fromEntries(
    [...panel.querySelectorAll('dd[data-figure]')].map((dd) => [
      dd.getAttribute('data-figure'),
      dd.textContent,
    ]),
  );
  expect(shown).toEqual(expectedFigures());
}

function expectSessionEnded(ctx: Ctx): void {
  expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
  expect(ctx.assign).toHaveBeenCalledWith('/');
}

async function processEvents(invoiceId: number): Promise<number> {
  const rows = await db()
    .selectFrom('invoice_events')
    .select('id')
    .where('invoice_id', '=', invoiceId)
    .where('to_status', '=', InvoiceStatus.PROCESS)
    .execute();
  return rows.length;
}

/** An invoice of the demo provider, authorized by the demo corporate with payment in 45 days. */
async function approvedInvoice(): Promise<number> {
  const today = businessDate(new Date());
  const id = await importInvoice(db(), { today });
  await advanceTo(db(), id, 'approved', plusDays(today, DAYS_TO_PAYMENT));
  return id;
}

defineModelTests<Ctx>(forwardPaymentModel, {
  setup: async () => {
    const { access } = await signInAs(PROVIDER);
    const invoiceId = await approvedInvoice();
    return {
      access,
      invoiceId,
      uuid: await invoiceUuid(invoiceId),
      quote: gateEndpoint('get', quotePath(invoiceId)),
      approve: gateEndpoint('post', APPROVE),
      assign: vi.spyOn(Location.prototype, 'assign').mockImplementation(() => {}),
      fault: null,
      keys: [],
    };
  },
  render: (ctx) => {
    renderApp(`/dashboard/pronto-pago/?search=${ctx.uuid}`);
  },
  teardown: (ctx) => ctx.assign.mockRestore(),
  states: {
    '#forward-payment.closed': async ({ ctx }) => {
      expect(await screen.findByRole('heading', { level: 1, name: 'Pronto Pago' })).toBeTruthy();
      await waitFor(() => expect(drawer()).toBeNull());
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      if (ctx.fault === 401) return expectSessionEnded(ctx);
      const row = await findRow(ctx.uuid);
      const status = await statusOf(db(), ctx.invoiceId);
      if (status === InvoiceStatus.APPROVED) {
        expect(within(row).getByText('Autorizada')).toBeTruthy();
        expect(within(row).getByRole('button', { name: `Adelantar pago ${ctx.uuid}` })).toBeTruthy();
      } else {
        expect(status).toBe(InvoiceStatus.PROCESS);
        await waitFor(() => expect(within(row).getByText('En trámite')).toBeTruthy());
        expect(within(row).queryByRole('button', { name: `Adelantar pago ${ctx.uuid}` })).toBeNull();
      }
      // However the confirmations and retries went, the invoice was advanced at most once.
      expect(await processEvents(ctx.invoiceId)).toBeLessThanOrEqual(1);
    },
    '#forward-payment.quoting': async () => {
      const panel = await openDrawer();
      expect(within(panel).getByLabelText('Cargando cotización…')).toBeTruthy();
      expect(within(panel).queryByRole('button', { name: 'Adelantar pago' })).toBeNull();
    },
    '#forward-payment.quoteFailed': async () => {
      const panel = await openDrawer();
      const alert = await within(panel).findByRole('alert');
      expect(alert.textContent).toContain(QUOTE_FAILED_MESSAGE);
      expect(within(alert).getByRole('button', { name: 'Reintentar' })).toBeTruthy();
      expect(within(panel).queryByRole('button', { name: 'Adelantar pago' })).toBeNull();
    },
    '#forward-payment.quoted': async ({ ctx }) => {
      const panel = await openDrawer();
      await waitFor(() => expectFigures(panel));
      const confirm = within(panel).getByRole('button', { name: 'Adelantar pago' }) as HTMLButtonElement;
      expect(confirm.disabled).toBe(false);
      expect(await statusOf(db(), ctx.invoiceId)).toBe(InvoiceStatus.APPROVED);
    },
    '#forward-payment.approving': async () => {
      const panel = await openDrawer();
      expectFigures(panel);
      await waitFor(() =>
        expect(
          (within(panel).getByRole('button', { name: /Adelantar pago/ }) as HTMLButtonElement).disabled,
        ).toBe(true),
      );
    },
    '#forward-payment.answerLost': async ({ ctx }) => {
      const panel = await openDrawer();
      const alert = await within(panel).findByRole('alert');
      expect(within(alert).getByRole('button', { name: 'Reintentar' })).toBeTruthy();
      // The request reached the server before the answer was lost.
      expect(await statusOf(db(), ctx.invoiceId)).toBe(InvoiceStatus.PROCESS);
      expect(await processEvents(ctx.invoiceId)).toBe(1);
    },
    '#forward-payment.succeeded': async ({ ctx }) => {
      const open = await screen.findByRole('dialog');
      expect(open.querySelector('[data-variant="success"]')).toBeTruthy();
      const total = formatCurrency(
        advanceQuote({
          amount: parseMoney(INVOICE_AMOUNT),
          maxRate: DEMO_PROVIDER.rate,
          days: DAYS_TO_PAYMENT,
        }).total,
      );
      expect(open.textContent).toContain(`Recibirás ${total} MXN`);
      expect(await statusOf(db(), ctx.invoiceId)).toBe(InvoiceStatus.PROCESS);
      expect(await processEvents(ctx.invoiceId)).toBe(1);
      // Retries reuse the confirmation's key.
      expect(new Set(ctx.keys).size).toBe(1);
    },
    '#forward-payment.refused': async ({ ctx }) => {
      const open = await screen.findByRole('dialog');
      expect(open.querySelector('[data-variant="error"]')).toBeTruthy();
      if (ctx.fault === 409) {
        expect(open.textContent).toContain(ADVANCE_IN_PROCESS_BODY.message);
        expect(await processEvents(ctx.invoiceId)).toBe(1);
      } else {
        expect(open.textContent).toContain(SESSION_ENDED_MESSAGE);
        expectSessionEnded(ctx);
        expect(await statusOf(db(), ctx.invoiceId)).toBe(InvoiceStatus.APPROVED);
      }
    },
  },
  events: {
    'advance.open': async ({ ctx, user }) => {
      const row = await findRow(ctx.uuid);
      await user.click(within(row).getByRole('button', { name: `Adelantar pago ${ctx.uuid}` }));
      await ctx.quote.waitForRequest();
    },
    'xstate.done.actor.loadQuote': async ({ ctx }) => {
      await ctx.quote.pass();
    },
    'xstate.error.actor.loadQuote': async ({ ctx }) => {
      await ctx.quote.respond(500, { detail: 'Error interno' });
    },
    'advance.retry': async ({ ctx, user }) => {
      await user.click(within(await openDrawer()).getByRole('button', { name: 'Reintentar' }));
      if (ctx.keys.length > 0) await recordKey(ctx);
    },
    'advance.close': async ({ user }) => {
      const panel = await openDrawer();
      await user.click(within(panel).getAllByRole('button', { name: 'Cerrar' }).at(-1) as HTMLElement);
    },
    'advance.confirm': async ({ ctx, user }) => {
      await user.click(within(await openDrawer()).getByRole('button', { name: 'Adelantar pago' }));
      await recordKey(ctx);
      expect(ctx.approve.bodies.at(-1)).toEqual({ id_execute_factoring: ctx.invoiceId });
    },
    'xstate.done.actor.approveForwardPayment': async ({ ctx }) => {
      await ctx.approve.pass();
    },
    'xstate.error.actor.approveForwardPayment': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number } };
      ctx.fault = error.status;
      if (error.status === 409) {
        // A concurrent change: the same invoice advanced from elsewhere (another key) reaches the server first.
        const first = await postJson(
          testApp().app,
          APPROVE,
          bearer(ctx.access),
          { id_execute_factoring: ctx.invoiceId },
          crypto.randomUUID(),
        );
        expect(first.statusCode).toBe(200);
        await ctx.approve.pass();
      } else if (error.status === 0) {
        // The server advances, but its answer never reaches the browser.
        const request = await ctx.approve.waitForRequest();
        const answer = await forwardToApp(testApp().app, request);
        expect(answer.status).toBe(200);
        await ctx.approve.networkError();
      } else {
        await ctx.approve.respond(401, SESSION_ENDED_BODY);
      }
    },
    'dialog.close': async ({ user }) => {
      await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cerrar' }));
    },
  },
});

async function recordKey(ctx: Ctx): Promise<void> {
  const request = await ctx.approve.waitForRequest();
  ctx.keys.push(request.headers.get('idempotency-key') ?? '');
  expect(ctx.keys.at(-1)).toMatch(/^[0-9a-f-]{36}$/);
}

describe('forward payment (page)', () => {
  it('takes the advanced row out of a single status filter it no longer matches (spec §4)', async () => {
    await signInAs(PROVIDER);
    const invoiceId = await approvedInvoice();
    const uuid = await invoiceUuid(invoiceId);
    const user = userEvent.setup();
    renderApp(`/dashboard/pronto-pago/?search=${uuid}&status=${InvoiceStatus.APPROVED}`);
    const row = await findRow(uuid);
    await user.click(within(row).getByRole('button', { name: `Adelantar pago ${uuid}` }));
    const panel = await openDrawer();
    await waitFor(() => expectFigures(panel));
    await user.click(within(panel).getByRole('button', { name: 'Adelantar pago' }));
    const open = await screen.findByRole('dialog');
    await waitFor(() => expect(open.querySelector('[data-variant="success"]')).toBeTruthy());
    await user.click(within(open).getByRole('button', { name: 'Cerrar' }));
    expect(await screen.findByText(EMPTY_INVOICES_TEXT)).toBeTruthy();
  });

  it('retries an approval whose answer was lost with the same key: one advance, the first answer (issue 5)', async () => {
    await signInAs(PROVIDER);
    const invoiceId = await approvedInvoice();
    const uuid = await invoiceUuid(invoiceId);
    const approve = gateEndpoint('post', APPROVE);
    const user = userEvent.setup();
    renderApp(`/dashboard/pronto-pago/?search=${uuid}`);
    await user.click(within(await findRow(uuid)).getByRole('button', { name: `Adelantar pago ${uuid}` }));
    const panel = await openDrawer();
    await waitFor(() => expectFigures(panel));
    await user.click(within(panel).getByRole('button', { name: 'Adelantar pago' }));
    const first = await approve.waitForRequest();
    expect((await forwardToApp(testApp().app, first)).status).toBe(200);
    await approve.networkError();
    await user.click(
      within(await within(panel).findByRole('alert')).getByRole('button', { name: 'Reintentar' }),
    );
    const second = await approve.waitForRequest();
    expect(second.headers.get('idempotency-key')).toBe(first.headers.get('idempotency-key'));
    await approve.pass();
    const open = await screen.findByRole('dialog');
    await waitFor(() => expect(open.querySelector('[data-variant="success"]')).toBeTruthy());
    expect(await processEvents(invoiceId)).toBe(1);
    await user.click(within(open).getByRole('button', { name: 'Cerrar' }));
    await waitFor(async () => expect(within(await findRow(uuid)).getByText('En trámite')).toBeTruthy());
  });

  it('shows the audit trail of a row: each step with provider labels, actor and date-time; retry on error', async () => {
    await signInAs(PROVIDER);
    const invoiceId = await approvedInvoice();
    const uuid = await invoiceUuid(invoiceId);
    const events = gateEndpoint('get', `/api/invoices/${invoiceId}/events/`);
    const user = userEvent.setup();
    renderApp(`/dashboard/pronto-pago/?search=${uuid}`);
    await user.click(within(await findRow(uuid)).getByRole('button', { name: `Historial ${uuid}` }));
    const panel = await openDrawer();
    expect(within(panel).getByLabelText('Cargando historial…')).toBeTruthy();
    // The app's queries retry once before showing the error.
    await events.respond(500, { detail: 'Error interno' });
    await events.respond(500, { detail: 'Error interno' });
    const alert = await within(panel).findByRole('alert', {}, { timeout: 4000 });
    expect(alert.textContent).toContain(AUDIT_TRAIL_FAILED);
    await user.click(within(alert).getByRole('button', { name: 'Reintentar' }));
    await events.pass();
    const list = await within(panel).findByRole('list', { name: 'Movimientos' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('strong')?.textContent)).toEqual([
      `${IMPORTED_LABEL} → Por Autorizar`,
      'Por Autorizar → Solicitado',
      'Solicitado → Autorizada',
    ]);
    const trail = await db()
      .selectFrom('invoice_events')
      .select(['actor', 'at'])
      .where('invoice_id', '=', invoiceId)
      .orderBy('id')
      .execute();
    trail.forEach((step, index) => {
      expect(items[index]?.textContent).toContain(step.actor);
      expect(items[index]?.textContent).toContain(formatDisplayDateTime(new Date(step.at).toISOString()));
    });
    expect(items[0]?.querySelector('time')?.textContent).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
  });
});
