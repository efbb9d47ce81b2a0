import { screen, waitFor, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { PROVIDER_MESSAGES } from '../../server/modules/providers/providers.service';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { NO_RESPONSE_MESSAGE } from '../../src/machines/pronto-pago-messages';
import { ACCESS_TOKEN_KEY } from '../../src/stores/storage-keys';
import { EMPTY_INVOICES_TEXT } from '../../src/views/invoices/invoice-table';
import { SERVER_WAIT } from '../support/server-wait';
import {
  ALREADY_REQUESTED_BODY,
  authorizationRequestModel,
  SESSION_ENDED_BODY,
} from './authorization-request.model';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp, signInAs } from './harness/render-app';
import { world } from './harness/world';
import { findRow, postAs } from './pronto-pago-helpers';

const ENDPOINT = '/api/providers/request-payment/';

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

function expectSessionEnded(ctx: Ctx): void {
  // Spec §8: a 401 clears all local storage and sends the browser to '/'.
  expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
  expect(ctx.assign).toHaveBeenCalledWith('/');
}

async function dialog(): Promise<HTMLElement> {
  return screen.findByRole('dialog', {}, SERVER_WAIT);
}

// The page is rendered with the status filter 'Por Autorizar' and the invoice's folio as the search text,
// both in the URL: when the request succeeds (or the server says it already was requested) the row no longer
// matches the single status filter and leaves the list (spec §4).
defineModelTests<Ctx>(authorizationRequestModel, {
  setup: async () => {
    const { provider } = await world.parties();
    const { access } = await signInAs(provider.username, provider.password);
    const invoice = await world.importInvoice();
    const gate = gateEndpoint('post', ENDPOINT);
    return {
      access,
      invoiceId: invoice.id,
      uuid: invoice.uuid,
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
      expect(await screen.findByRole('heading', { level: 1, name: 'Pronto Pago' }, SERVER_WAIT)).toBeTruthy();
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SERVER_WAIT);
      const status = (await world.facts(ctx.invoiceId)).status;
      if (ctx.fault === 401) return expectSessionEnded(ctx);
      if (status === InvoiceStatus.AVAILABLE) {
        const row = await findRow(ctx.uuid);
        expect(within(row).getByText('Por Autorizar')).toBeTruthy();
        expect(within(row).getByRole('button', { name: `Solicitar adelanto ${ctx.uuid}` })).toBeTruthy();
      } else {
        expect(status).toBe(InvoiceStatus.PENDING);
        // Spec §4: the row no longer matches the single status filter and leaves the list.
        expect(await screen.findByText(EMPTY_INVOICES_TEXT, {}, SERVER_WAIT)).toBeTruthy();
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
      expect((await world.facts(ctx.invoiceId)).status).toBe(InvoiceStatus.PENDING);
    },
    '#authorization-request.failed': async ({ ctx }) => {
      const open = await dialog();
      expect(open.querySelector('[data-variant="error"]')).toBeTruthy();
      expect(within(open).getByRole('button', { name: 'Cerrar' })).toBeTruthy();
      if (ctx.fault === 409) {
        expect(within(open).getByText(ALREADY_REQUESTED_BODY.message)).toBeTruthy();
        expect((await world.facts(ctx.invoiceId)).status).toBe(InvoiceStatus.PENDING);
      } else if (ctx.fault === 0) {
        expect(within(open).getByText(NO_RESPONSE_MESSAGE)).toBeTruthy();
        expect((await world.facts(ctx.invoiceId)).status).toBe(InvoiceStatus.AVAILABLE);
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
        const first = await postAs(ctx.access, ENDPOINT, { id_request_factoring: ctx.invoiceId });
        expect(first.status).toBe(200);
        await ctx.gate.pass();
      } else if (error.status === 0) await ctx.gate.networkError();
      else await ctx.gate.respond(401, SESSION_ENDED_BODY);
    },
    'dialog.close': async ({ user }) => {
      await user.click(within(await dialog()).getByRole('button', { name: 'Cerrar' }));
    },
  },
});
