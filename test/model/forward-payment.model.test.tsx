import { screen, waitFor, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { formatCurrency, parseMoney } from '../../src/domain/money';
import { advanceQuote } from '../../src/domain/quote';
import { InvoiceEventList } from '../../src/domain/schemas/invoices';
import { QUOTE_FAILED_MESSAGE } from '../../src/machines/forward-payment.machine';
import { SESSION_ENDED_MESSAGE } from '../../src/machines/pronto-pago-messages';
import { ACCESS_TOKEN_KEY } from '../../src/stores/storage-keys';
import { APPROVE, drawer, expectFigures, INVOICE_AMOUNT, openDrawer } from '../screens/forward-payment.page';
import { DEMO_PROVIDER } from '../support/pronto-pago';
import { SERVER_WAIT } from '../support/server-wait';
import { SESSION_ENDED_BODY } from './authorization-request.model';
import { ADVANCE_IN_PROCESS_BODY, DAYS_TO_PAYMENT, forwardPaymentModel } from './forward-payment.model';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { findMessageDialog, renderApp, signInAs } from './harness/render-app';
import { callServer, forwardToServer } from './harness/test-server';
import { world } from './harness/world';
import { approvedInvoice, findRow, postAs } from './pronto-pago-helpers';

const quotePath = (id: number) => `/api/providers/forward-payment/${id}/`;

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

/** How many times the audit trail says the invoice went En trámite (the provider reads it as its Historial). */
async function processEvents(ctx: Ctx): Promise<number> {
  const answer = await callServer('GET', `/api/invoices/${ctx.invoiceId}/events/`, {
    headers: { authorization: `Bearer ${ctx.access}` },
  });
  expect(answer.status).toBe(200);
  const events = InvoiceEventList.create(answer.body);
  return events.filter((event) => event.to_status === InvoiceStatus.PROCESS).length;
}

function expectSessionEnded(ctx: Ctx): void {
  expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
  expect(ctx.assign).toHaveBeenCalledWith('/');
}

defineModelTests<Ctx>(forwardPaymentModel, {
  setup: async () => {
    const { provider } = await world.parties();
    const { access } = await signInAs(provider.username, provider.password);
    const { id: invoiceId, uuid } = await approvedInvoice(DAYS_TO_PAYMENT);
    return {
      access,
      invoiceId,
      uuid,
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
      expect(await screen.findByRole('heading', { level: 1, name: 'Pronto Pago' }, SERVER_WAIT)).toBeTruthy();
      await waitFor(() => expect(drawer()).toBeNull(), SERVER_WAIT);
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SERVER_WAIT);
      if (ctx.fault === 401) return expectSessionEnded(ctx);
      const row = await findRow(ctx.uuid);
      const status = (await world.facts(ctx.invoiceId)).status;
      if (status === InvoiceStatus.APPROVED) {
        expect(within(row).getByText('Autorizada')).toBeTruthy();
        expect(within(row).getByRole('button', { name: `Adelantar pago ${ctx.uuid}` })).toBeTruthy();
      } else {
        expect(status).toBe(InvoiceStatus.PROCESS);
        await waitFor(() => expect(within(row).getByText('En trámite')).toBeTruthy(), SERVER_WAIT);
        expect(within(row).queryByRole('button', { name: `Adelantar pago ${ctx.uuid}` })).toBeNull();
      }
      // However the confirmations and retries went, the invoice was advanced at most once.
      expect(await processEvents(ctx)).toBeLessThanOrEqual(1);
    },
    '#forward-payment.quoting': async () => {
      const panel = await openDrawer();
      expect(within(panel).getByLabelText('Cargando cotización…')).toBeTruthy();
      expect(within(panel).queryByRole('button', { name: 'Adelantar pago' })).toBeNull();
    },
    '#forward-payment.quoteFailed': async () => {
      const panel = await openDrawer();
      const alert = await within(panel).findByRole('alert', {}, SERVER_WAIT);
      expect(alert.textContent).toContain(QUOTE_FAILED_MESSAGE);
      expect(within(alert).getByRole('button', { name: 'Reintentar' })).toBeTruthy();
      expect(within(panel).queryByRole('button', { name: 'Adelantar pago' })).toBeNull();
    },
    '#forward-payment.quoted': async ({ ctx }) => {
      const panel = await openDrawer();
      await waitFor(() => expectFigures(panel), SERVER_WAIT);
      const confirm = within(panel).getByRole('button', { name: 'Adelantar pago' }) as HTMLButtonElement;
      expect(confirm.disabled).toBe(false);
      expect((await world.facts(ctx.invoiceId)).status).toBe(InvoiceStatus.APPROVED);
    },
    '#forward-payment.approving': async () => {
      const panel = await openDrawer();
      expectFigures(panel);
      await waitFor(
        () =>
          expect(
            (within(panel).getByRole('button', { name: /Adelantar pago/ }) as HTMLButtonElement).disabled,
          ).toBe(true),
        SERVER_WAIT,
      );
    },
    '#forward-payment.answerLost': async ({ ctx }) => {
      const panel = await openDrawer();
      const alert = await within(panel).findByRole('alert', {}, SERVER_WAIT);
      expect(within(alert).getByRole('button', { name: 'Reintentar' })).toBeTruthy();
      // The request reached the server before the answer was lost.
      expect((await world.facts(ctx.invoiceId)).status).toBe(InvoiceStatus.PROCESS);
      expect(await processEvents(ctx)).toBe(1);
    },
    '#forward-payment.succeeded': async ({ ctx }) => {
      const open = await findMessageDialog();
      expect(open.querySelector('[data-variant="success"]')).toBeTruthy();
      const total = formatCurrency(
        advanceQuote({
          amount: parseMoney(INVOICE_AMOUNT),
          maxRate: DEMO_PROVIDER.rate,
          days: DAYS_TO_PAYMENT,
        }).total,
      );
      expect(open.textContent).toContain(`Recibirás ${total} MXN`);
      expect((await world.facts(ctx.invoiceId)).status).toBe(InvoiceStatus.PROCESS);
      expect(await processEvents(ctx)).toBe(1);
      // Retries reuse the confirmation's key.
      expect(new Set(ctx.keys).size).toBe(1);
    },
    '#forward-payment.refused': async ({ ctx }) => {
      const open = await findMessageDialog();
      expect(open.querySelector('[data-variant="error"]')).toBeTruthy();
      if (ctx.fault === 409) {
        expect(open.textContent).toContain(ADVANCE_IN_PROCESS_BODY.message);
        expect(await processEvents(ctx)).toBe(1);
      } else {
        expect(open.textContent).toContain(SESSION_ENDED_MESSAGE);
        expectSessionEnded(ctx);
        expect((await world.facts(ctx.invoiceId)).status).toBe(InvoiceStatus.APPROVED);
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
        const first = await postAs(
          ctx.access,
          APPROVE,
          { id_execute_factoring: ctx.invoiceId },
          crypto.randomUUID(),
        );
        expect(first.status).toBe(200);
        await ctx.approve.pass();
      } else if (error.status === 0) {
        // The server advances, but its answer never reaches the browser.
        const request = await ctx.approve.waitForRequest();
        const answer = await forwardToServer(request);
        expect(answer.status).toBe(200);
        await ctx.approve.networkError();
      } else {
        await ctx.approve.respond(401, SESSION_ENDED_BODY);
      }
    },
    'dialog.close': async ({ user }) => {
      await user.click(within(await findMessageDialog()).getByRole('button', { name: 'Cerrar' }));
    },
  },
});

async function recordKey(ctx: Ctx): Promise<void> {
  const request = await ctx.approve.waitForRequest();
  ctx.keys.push(request.headers.get('idempotency-key') ?? '');
  expect(ctx.keys.at(-1)).toMatch(/^[0-9a-f-]{36}$/);
}
