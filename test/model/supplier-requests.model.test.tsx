import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { expect, vi } from 'vitest';
import { CORPORATE_MESSAGES } from '../../server/modules/corporates/corporates.service';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { NO_RESPONSE_MESSAGE, UNEXPECTED_MESSAGE } from '../../src/machines/pronto-pago-messages';
import { PAYMENT_DATE_REQUIRED } from '../../src/machines/supplier-requests.machine';
import { ACCESS_TOKEN_KEY } from '../../src/stores/storage-keys';
import { setUser } from '../../src/stores/user.store';
import {
  AUTHORIZE_TEXT,
  CANCEL_TEXT,
  REASON_LABEL,
  REJECT_DIALOG_TITLE,
  REJECT_TEXT,
  SUPPLIER_REQUESTS_TITLE,
} from '../../src/views/corporate/supplier-requests-page';
import { EMPTY_INVOICES_TEXT } from '../../src/views/invoices/invoice-table';
import { SERVER_WAIT } from '../support/server-wait';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp, signInAs } from './harness/render-app';
import { world } from './harness/world';
import { findRow, postAs } from './pronto-pago-helpers';
import { SERVER_FAILURE_BODY, SESSION_ENDED_BODY, supplierRequestsModel } from './supplier-requests.model';

const AUTHORIZE = '/api/corporates/manually-requests/authorize/';
const REJECT = '/api/corporates/manually-requests/reject/';
const statusOf = async (invoiceId: number) => (await world.facts(invoiceId)).status;

interface Ctx {
  access: string;
  invoiceId: number;
  uuid: string;
  /** The serie-folio the row shows (how the page names the invoice in per-line messages). */
  label: string;
  paymentDate: string;
  authorize: ReturnType<typeof gateEndpoint>;
  reject: ReturnType<typeof gateEndpoint>;
  assign: ReturnType<typeof vi.spyOn>;
  fault: number | null;
  /** The real server's answer the failed dialog must show (400 per line, 409). */
  expected: string | null;
  keys: string[];
}

function expectSessionEnded(ctx: Ctx): void {
  // Spec §8: a 401 clears all local storage and sends the browser to '/'.
  expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
  expect(ctx.assign).toHaveBeenCalledWith('/');
}

async function messageDialog(): Promise<HTMLElement> {
  // The alert dialog is the one whose only button is 'Cerrar' or 'Cargando...' (the reject dialog may still
  // be closing when it opens).
  let found: HTMLElement | undefined;
  await waitFor(() => {
    found = screen
      .getAllByRole('dialog')
      .find((dialog) => within(dialog).queryByRole('button', { name: /^(Cerrar|Cargando\.\.\.)$/ }));
    expect(found).toBeTruthy();
  }, SERVER_WAIT);
  return found as HTMLElement;
}

async function selectRow(ctx: Ctx): Promise<HTMLElement> {
  const row = await findRow(ctx.uuid);
  const box = within(row).getByRole('checkbox') as HTMLInputElement;
  if (!box.checked) fireEvent.click(box);
  await waitFor(() => expect(box.checked).toBe(true), SERVER_WAIT);
  return row;
}

function setDate(row: HTMLElement, ctx: Ctx, value: string): void {
  fireEvent.change(within(row).getByLabelText(`Fecha de pago ${ctx.label}`), { target: { value } });
}

async function holdKey(gate: ReturnType<typeof gateEndpoint>, ctx: Ctx): Promise<void> {
  const request = await gate.waitForRequest();
  ctx.keys.push(request.headers.get('idempotency-key') ?? '');
  expect(ctx.keys.at(-1)).toMatch(/^[0-9a-f-]{36}$/);
}

// The page is rendered with the invoice's folio fiscal as the search text (in the URL), so the list holds
// that one request; an answered request leaves it (spec §4).
defineModelTests<Ctx>(supplierRequestsModel, {
  setup: async () => {
    const { provider, corporate } = await world.parties();
    const { access } = await signInAs(corporate.username, corporate.password);
    setUser({ role: 'corporate' });
    const invoice = await world.importInvoice();
    const requested = await world.applyEvent(
      invoice.id,
      {
        type: 'invoice.requestAuthorization',
        actor: { kind: 'provider', companyId: provider.companyId, satAuthorized: true },
      },
      provider,
    );
    expect(requested).toMatchObject({ ok: true });
    return {
      access,
      invoiceId: invoice.id,
      uuid: invoice.uuid,
      label: invoice.label,
      paymentDate: dayjs().add(30, 'day').format('YYYY-MM-DD'),
      authorize: gateEndpoint('post', AUTHORIZE),
      reject: gateEndpoint('post', REJECT),
      assign: vi.spyOn(Location.prototype, 'assign').mockImplementation(() => {}),
      fault: null,
      expected: null,
      keys: [],
    };
  },
  render: (ctx) => {
    renderApp(`/dashboard/solicitudes/?search=${ctx.uuid}`);
  },
  teardown: (ctx) => ctx.assign.mockRestore(),
  states: {
    '#supplier-requests.idle': async ({ ctx, state }) => {
      expect(
        await screen.findByRole('heading', { level: 1, name: SUPPLIER_REQUESTS_TITLE }, SERVER_WAIT),
      ).toBeTruthy();
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SERVER_WAIT);
      if (ctx.fault === 401) return expectSessionEnded(ctx);
      const status = await statusOf(ctx.invoiceId);
      if (status !== InvoiceStatus.PENDING) {
        // Answered here or elsewhere: the row no longer is a request and leaves the list.
        expect(await screen.findByText(EMPTY_INVOICES_TEXT, {}, SERVER_WAIT)).toBeTruthy();
        return;
      }
      const row = await findRow(ctx.uuid);
      const date = within(row).getByLabelText(`Fecha de pago ${ctx.label}`);
      if (state.context.missingDates.length > 0) {
        // Spec §5: without a date nothing is sent and the field says why.
        expect(within(row).getByText(PAYMENT_DATE_REQUIRED)).toBeTruthy();
        expect(date.getAttribute('aria-invalid')).toBe('true');
        expect(ctx.authorize.bodies).toEqual([]);
      } else {
        expect(within(row).queryByText(PAYMENT_DATE_REQUIRED)).toBeNull();
      }
    },
    '#supplier-requests.confirmingReject': async () => {
      const dialog = await screen.findByRole('dialog', { name: REJECT_DIALOG_TITLE }, SERVER_WAIT);
      expect(within(dialog).getByLabelText(REASON_LABEL)).toBeTruthy();
      expect(within(dialog).getByRole('button', { name: REJECT_TEXT })).toBeTruthy();
    },
    '#supplier-requests.authorizing': async () => {
      const button = within(await messageDialog()).getByRole('button', { name: 'Cargando...' });
      expect((button as HTMLButtonElement).disabled).toBe(true);
    },
    '#supplier-requests.rejecting': async () => {
      const button = within(await messageDialog()).getByRole('button', { name: 'Cargando...' });
      expect((button as HTMLButtonElement).disabled).toBe(true);
    },
    '#supplier-requests.answered': async ({ ctx }) => {
      const open = await messageDialog();
      await waitFor(() => expect(open.querySelector('[data-variant="success"]')).toBeTruthy(), SERVER_WAIT);
      const status = await statusOf(ctx.invoiceId);
      if (status === InvoiceStatus.APPROVED) {
        expect(within(open).getByText(CORPORATE_MESSAGES.authorizedOne)).toBeTruthy();
      } else {
        expect(status).toBe(InvoiceStatus.REJECTED);
        expect(within(open).getByText(CORPORATE_MESSAGES.rejectedOne)).toBeTruthy();
        expect(within(open).getByText(CORPORATE_MESSAGES.rejectedPaymentDate)).toBeTruthy();
      }
      // Spec §4: the answered row leaves the list at once.
      expect(await screen.findByText(EMPTY_INVOICES_TEXT, {}, SERVER_WAIT)).toBeTruthy();
    },
    '#supplier-requests.failed': async ({ ctx }) => {
      const open = await messageDialog();
      if (ctx.fault === 401) return waitFor(() => expectSessionEnded(ctx), SERVER_WAIT);
      await waitFor(() => expect(open.querySelector('[data-variant="error"]')).toBeTruthy(), SERVER_WAIT);
      const status = await statusOf(ctx.invoiceId);
      if (ctx.fault === 400 || ctx.fault === 409) {
        expect(within(open).getByText(ctx.expected as string)).toBeTruthy();
        expect(status).toBe(ctx.fault === 409 ? InvoiceStatus.APPROVED : InvoiceStatus.PENDING);
      } else {
        const text = ctx.fault === 0 ? NO_RESPONSE_MESSAGE : UNEXPECTED_MESSAGE;
        expect(within(open).getByText(text)).toBeTruthy();
        expect(status).toBe(InvoiceStatus.PENDING);
      }
    },
  },
  events: {
    'requests.authorize': async ({ ctx, event, user }) => {
      const { lines } = event as unknown as { lines: { paymentDate: string }[] };
      const dated = lines[0]?.paymentDate !== '';
      const row = await selectRow(ctx);
      setDate(row, ctx, dated ? ctx.paymentDate : '');
      await user.click(screen.getByRole('button', { name: AUTHORIZE_TEXT }));
      if (!dated) return;
      await holdKey(ctx.authorize, ctx);
      expect(ctx.authorize.bodies.at(-1)).toEqual([
        { invoice_id: ctx.invoiceId, payment_date: ctx.paymentDate },
      ]);
    },
    'requests.reject': async ({ ctx, user }) => {
      await selectRow(ctx);
      await user.click(screen.getByRole('button', { name: REJECT_TEXT }));
    },
    'reject.confirm': async ({ ctx, event, user }) => {
      const { reason } = event as unknown as { reason: string };
      const dialog = await screen.findByRole('dialog', { name: REJECT_DIALOG_TITLE }, SERVER_WAIT);
      if (reason) await user.type(within(dialog).getByLabelText(REASON_LABEL), reason);
      await user.click(within(dialog).getByRole('button', { name: REJECT_TEXT }));
      await holdKey(ctx.reject, ctx);
      expect(ctx.reject.bodies.at(-1)).toEqual([
        reason ? { invoice_id: ctx.invoiceId, reason } : { invoice_id: ctx.invoiceId },
      ]);
    },
    'reject.cancel': async ({ user }) => {
      const dialog = await screen.findByRole('dialog', { name: REJECT_DIALOG_TITLE }, SERVER_WAIT);
      await user.click(within(dialog).getByRole('button', { name: CANCEL_TEXT }));
    },
    'xstate.done.actor.authorizeRequests': async ({ ctx }) => ctx.authorize.pass(),
    'xstate.done.actor.rejectRequests': async ({ ctx }) => ctx.reject.pass(),
    'xstate.error.actor.authorizeRequests': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number } };
      ctx.fault = error.status;
      if (error.status === 400) {
        // The real server's answer to a line it cannot read, naming the line's index and field.
        const refused = await postAs(ctx.access, AUTHORIZE, [
          { invoice_id: ctx.invoiceId, payment_date: '31/01/2030' },
        ]);
        expect(refused.status).toBe(400);
        const body = refused.body as Record<string, string[]>;
        expect(Object.keys(body)).toEqual(['0.payment_date']);
        ctx.expected = `Factura ${ctx.label}: ${body['0.payment_date']?.[0]}`;
        await ctx.authorize.respond(400, body);
      } else if (error.status === 409) {
        // A concurrent change: another user of the company authorizes the request first.
        const first = await postAs(ctx.access, AUTHORIZE, [
          { invoice_id: ctx.invoiceId, payment_date: ctx.paymentDate },
        ]);
        expect(first.status).toBe(200);
        await ctx.authorize.pass();
        const again = await postAs(ctx.access, AUTHORIZE, [
          { invoice_id: ctx.invoiceId, payment_date: ctx.paymentDate },
        ]);
        expect(again.status).toBe(409);
        ctx.expected = (again.body as { detail: string }).detail;
      } else if (error.status === 500) await ctx.authorize.respond(500, SERVER_FAILURE_BODY);
      else if (error.status === 0) await ctx.authorize.networkError();
      else await ctx.authorize.respond(401, SESSION_ENDED_BODY);
    },
    'xstate.error.actor.rejectRequests': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number } };
      ctx.fault = error.status;
      if (error.status === 409) {
        const first = await postAs(ctx.access, AUTHORIZE, [
          { invoice_id: ctx.invoiceId, payment_date: ctx.paymentDate },
        ]);
        expect(first.status).toBe(200);
        await ctx.reject.pass();
        const again = await postAs(ctx.access, REJECT, [{ invoice_id: ctx.invoiceId }]);
        expect(again.status).toBe(409);
        ctx.expected = (again.body as { detail: string }).detail;
      } else if (error.status === 500) await ctx.reject.respond(500, SERVER_FAILURE_BODY);
      else await ctx.reject.networkError();
    },
    'dialog.close': async ({ user }) => {
      await user.click(within(await messageDialog()).getByRole('button', { name: 'Cerrar' }));
    },
  },
});
