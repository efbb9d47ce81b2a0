import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { expect, vi } from 'vitest';
import { FACTORING_MESSAGES } from '../../server/modules/factoring/factoring.service';
import {
  FACTORING_ENABLE_FAILED,
  FACTORING_NOT_ENABLED,
  FACTORING_QUOTE_FAILED,
  FACTORING_REQUEST_PENDING,
  factoringContactMessage,
} from '../../src/domain/factoring-messages';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import type { MessageResponse } from '../../src/domain/schemas/invoices';
import { DEFAULT_FACTORING_INSTALMENTS } from '../../src/machines/factoring-enrolment.machine';
import { invoiceRefusal } from '../../src/machines/invoice-actions';
import { SESSION_ENDED_MESSAGE, UNEXPECTED_MESSAGE } from '../../src/machines/pronto-pago-messages';
import { ACCESS_TOKEN_KEY } from '../../src/stores/storage-keys';
import { setUser } from '../../src/stores/user.store';
import { CONTACT_EMAIL } from '../../src/views/common/site-config';
import {
  INSTALMENTS_LEGEND,
  REQUEST_FACTORING_TEXT,
  TRANSFER_TEXT,
} from '../../src/views/factoring/factoring-drawer';
import { FACTORING_ENROL_CARD_TEXT } from '../../src/views/factoring/factoring-header-cards';
import { approvedInvoice, db, drawer, openDrawer } from '../screens/forward-payment.page';
import { forwardToApp } from '../support/msw-app';
import { DEMO_PROVIDER, statusOf } from '../support/pronto-pago';
import { SERVER_WAIT } from '../support/server-wait';
import { SESSION_ENDED_BODY } from './authorization-request.model';
import { CHOSEN_INSTALMENTS, factoringEnrolmentModel, type TransferFault } from './factoring-enrolment.model';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { findMessageDialog, renderApp, signInAs } from './harness/render-app';
import { testApp } from './harness/test-server';
import { findRow, invoiceUuid, PROVIDER } from './pronto-pago-helpers';

const ENABLE = '/api/factoring-enable/';
const TRANSFER = '/api/factoring/';
const quotePath = (id: number) => `/api/factoring-calculations/${id}/`;
/** The demo provider's line in the paths that have one. */
const LINE = '5000000';

interface Ctx {
  invoiceId: number;
  uuid: string;
  companyId: number;
  enable: ReturnType<typeof gateEndpoint>;
  quote: ReturnType<typeof gateEndpoint>;
  transfer: ReturnType<typeof gateEndpoint>;
  assign: ReturnType<typeof vi.spyOn>;
  /** Where the last enable request came from, and what the server answered it. */
  origin: 'row' | 'card';
  enrolAnswer: MessageResponse | null;
  quoteFault: 500 | 409 | null;
  fault: TransferFault | null;
  instalments: number;
  /** Idempotency-Key of each transfer request, in order. */
  keys: string[];
}

async function companyId(): Promise<number> {
  const row = await db()
    .selectFrom('companies')
    .select('id')
    .where('rfc', '=', DEMO_PROVIDER.rfc)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The account's line as the server and the page's store know it (the list's first page would say the same). */
async function setLine(ctx: Ctx, hasFactoring: boolean): Promise<void> {
  await db()
    .updateTable('companies')
    .set(hasFactoring ? { has_factoring: true, credit_line: LINE } : { has_factoring: false })
    .where('id', '=', ctx.companyId)
    .execute();
  setUser({ hasFactoring });
}

async function records(invoiceId: number): Promise<number> {
  const rows = await db()
    .selectFrom('factoring_requests')
    .select('id')
    .where('invoice_id', '=', invoiceId)
    .execute();
  return rows.length;
}

const dialog = findMessageDialog;

function expectSessionEnded(ctx: Ctx): void {
  expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
  expect(ctx.assign).toHaveBeenCalledWith('/');
}

async function recordKey(ctx: Ctx): Promise<void> {
  const request = await ctx.transfer.waitForRequest();
  ctx.keys.push(request.headers.get('idempotency-key') ?? '');
  expect(ctx.keys.at(-1)).toMatch(/^[0-9a-f-]{36}$/);
}

defineModelTests<Ctx>(factoringEnrolmentModel, {
  setup: async () => {
    await signInAs(PROVIDER);
    const invoiceId = await approvedInvoice();
    const company = await companyId();
    // Each path starts without a line, nothing used, the default rate and no pending enable request.
    await db()
      .updateTable('companies')
      .set({ has_factoring: false, credit_used: '0', factoring_rate: null })
      .where('id', '=', company)
      .execute();
    await db()
      .deleteFrom('factoring_enrolments')
      .where('company_id', '=', company)
      .where('status', '=', 'requested')
      .execute();
    return {
      invoiceId,
      uuid: await invoiceUuid(invoiceId),
      companyId: company,
      enable: gateEndpoint('post', ENABLE),
      quote: gateEndpoint('get', quotePath(invoiceId)),
      transfer: gateEndpoint('post', TRANSFER),
      assign: vi.spyOn(Location.prototype, 'assign').mockImplementation(() => {}),
      origin: 'row',
      enrolAnswer: null,
      quoteFault: null,
      fault: null,
      instalments: DEFAULT_FACTORING_INSTALMENTS,
      keys: [],
    };
  },
  render: async (ctx) => {
    const { router } = renderApp(`/dashboard/factoraje/?search=${ctx.uuid}`);
    // Every path starts once the header has read the account's has_factoring (false, from setup): an answer
    // still on its way when an event grants the line would otherwise overwrite the flag that event sets. The
    // card shows from the session's flag before that answer lands, so wait for every query to be answered too
    // (under load the header's answer came after 'factoring.request' granted the line, and the row asked to
    // enable factoring instead of quoting).
    await screen.findByRole('button', { name: FACTORING_ENROL_CARD_TEXT }, SERVER_WAIT);
    await waitFor(() => expect(router.options.context.queryClient.isFetching()).toBe(0), SERVER_WAIT);
  },
  teardown: (ctx) => ctx.assign.mockRestore(),
  states: {
    '#factoring-enrolment.closed': async ({ ctx }) => {
      expect(await screen.findByRole('heading', { level: 1, name: 'Factoraje' }, SERVER_WAIT)).toBeTruthy();
      await waitFor(() => expect(drawer()).toBeNull(), SERVER_WAIT);
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SERVER_WAIT);
      if (ctx.fault === 401) return expectSessionEnded(ctx);
      const row = await findRow(ctx.uuid);
      const button = () =>
        within(row).queryByRole('button', { name: `${REQUEST_FACTORING_TEXT} ${ctx.uuid}` });
      if ((await statusOf(db(), ctx.invoiceId)) === InvoiceStatus.FACTORING) {
        await waitFor(() => expect(button()).toBeNull(), SERVER_WAIT);
        expect(await records(ctx.invoiceId)).toBe(1);
      } else {
        expect(within(row).getByText('Autorizada')).toBeTruthy();
        expect(button()).toBeTruthy();
        expect(await records(ctx.invoiceId)).toBe(0);
      }
      // However the clicks went, the account never has two pending enable requests.
      const pending = await db()
        .selectFrom('factoring_enrolments')
        .select('id')
        .where('company_id', '=', ctx.companyId)
        .where('status', '=', 'requested')
        .execute();
      expect(pending.length).toBeLessThanOrEqual(1);
    },
    '#factoring-enrolment.enrolling': async () => {
      const open = await dialog();
      expect((within(open).getByRole('button', { name: 'Cargando...' }) as HTMLButtonElement).disabled).toBe(
        true,
      );
    },
    '#factoring-enrolment.enrolmentAnswered': async ({ ctx }) => {
      const open = await dialog();
      await waitFor(() => expect(open.querySelector('[data-variant="info"]')).toBeTruthy(), SERVER_WAIT);
      const answer = ctx.enrolAnswer?.message;
      expect([FACTORING_NOT_ENABLED, FACTORING_REQUEST_PENDING]).toContain(answer);
      const expected =
        ctx.origin === 'card' && answer === FACTORING_NOT_ENABLED
          ? factoringContactMessage(CONTACT_EMAIL)
          : answer;
      expect(open.textContent).toContain(expected);
    },
    '#factoring-enrolment.enrolmentFailed': async () => {
      const open = await dialog();
      await waitFor(() => expect(open.querySelector('[data-variant="error"]')).toBeTruthy(), SERVER_WAIT);
      expect(open.textContent).toContain(FACTORING_ENABLE_FAILED);
    },
    '#factoring-enrolment.quoting': async () => {
      const panel = await openDrawer();
      expect(within(panel).getByLabelText('Cargando cotización…')).toBeTruthy();
      expect(within(panel).queryByRole('button', { name: TRANSFER_TEXT })).toBeNull();
    },
    '#factoring-enrolment.quoteFailed': async ({ ctx }) => {
      const panel = await openDrawer();
      const alert = await within(panel).findByRole('alert', {}, SERVER_WAIT);
      expect(alert.textContent).toContain(
        ctx.quoteFault === 500 ? FACTORING_QUOTE_FAILED : invoiceRefusal('invoice.transferToFactoring', 50),
      );
      expect(within(alert).getByRole('button', { name: 'Reintentar' })).toBeTruthy();
      expect(within(panel).queryByRole('button', { name: TRANSFER_TEXT })).toBeNull();
    },
    '#factoring-enrolment.quoted': async ({ ctx }) => {
      const panel = await openDrawer();
      const options = await within(panel).findByRole('group', { name: INSTALMENTS_LEGEND }, SERVER_WAIT);
      const radios = within(options).getAllByRole('radio') as HTMLInputElement[];
      expect(radios.map((radio) => radio.value)).toEqual(['1', '2', '3', '4']);
      expect(radios.find((radio) => radio.checked)?.value).toBe(String(ctx.instalments));
      for (const label of [
        'Honorarios de asesoría (IVA incluido)',
        'Monto a transferir hoy',
        'Línea disponible',
      ])
        expect(panel.querySelector(`[data-figure="${label}"]`)?.textContent).toMatch(/^\$[\d,]+\.\d{2} MXN$/);
      expect((within(panel).getByRole('button', { name: TRANSFER_TEXT }) as HTMLButtonElement).disabled).toBe(
        false,
      );
    },
    '#factoring-enrolment.transferring': async () => {
      const panel = await openDrawer();
      const button = await within(panel).findByRole('button', { name: 'Cargando...' }, SERVER_WAIT);
      expect((button as HTMLButtonElement).disabled).toBe(true);
    },
    '#factoring-enrolment.answerLost': async ({ ctx }) => {
      const panel = await openDrawer();
      const alert = await within(panel).findByRole('alert', {}, SERVER_WAIT);
      expect(within(alert).getByRole('button', { name: 'Reintentar' })).toBeTruthy();
      // The request reached the server before the answer was lost.
      expect(await statusOf(db(), ctx.invoiceId)).toBe(InvoiceStatus.FACTORING);
      expect(await records(ctx.invoiceId)).toBe(1);
    },
    '#factoring-enrolment.transferred': async ({ ctx }) => {
      const open = await dialog();
      await waitFor(() => expect(open.querySelector('[data-variant="success"]')).toBeTruthy(), SERVER_WAIT);
      expect(await statusOf(db(), ctx.invoiceId)).toBe(InvoiceStatus.FACTORING);
      expect(await records(ctx.invoiceId)).toBe(1);
      // Retries reuse the confirmation's key.
      expect(new Set(ctx.keys).size).toBe(1);
    },
    '#factoring-enrolment.refused': async ({ ctx }) => {
      const open = await dialog();
      await waitFor(() => expect(open.querySelector('[data-variant="error"]')).toBeTruthy(), SERVER_WAIT);
      const text = open.textContent ?? '';
      if (ctx.fault === 'quoteChanged') expect(text).toContain(FACTORING_MESSAGES.quoteChanged);
      else if (ctx.fault === 'lineExhausted') expect(text).toMatch(/\$[\d,]+\.\d{2}/);
      else if (ctx.fault === 500) expect(text).toContain(UNEXPECTED_MESSAGE);
      else {
        expect(text).toContain(SESSION_ENDED_MESSAGE);
        expectSessionEnded(ctx);
      }
      expect(await statusOf(db(), ctx.invoiceId)).toBe(InvoiceStatus.APPROVED);
      expect(await records(ctx.invoiceId)).toBe(0);
    },
  },
  events: {
    'factoring.request': async ({ ctx, event, user }) => {
      const { hasFactoring } = event as unknown as { hasFactoring: boolean };
      await setLine(ctx, hasFactoring);
      ctx.origin = 'row';
      const row = await findRow(ctx.uuid);
      await user.click(within(row).getByRole('button', { name: `${REQUEST_FACTORING_TEXT} ${ctx.uuid}` }));
      await (hasFactoring ? ctx.quote : ctx.enable).waitForRequest();
    },
    'enrolment.request': async ({ ctx, user }) => {
      await setLine(ctx, false);
      ctx.origin = 'card';
      await user.click(await screen.findByRole('button', { name: FACTORING_ENROL_CARD_TEXT }, SERVER_WAIT));
      await ctx.enable.waitForRequest();
    },
    'xstate.done.actor.enableFactoring': async ({ ctx }) => {
      const { request, resolve } = await ctx.enable.take();
      const answer = await forwardToApp(testApp().app, request);
      ctx.enrolAnswer = (await answer.clone().json()) as MessageResponse;
      resolve(answer);
    },
    'xstate.error.actor.enableFactoring': async ({ ctx }) => {
      await ctx.enable.respond(500, { detail: 'Error interno' });
    },
    'xstate.done.actor.loadQuote': async ({ ctx }) => {
      ctx.instalments = DEFAULT_FACTORING_INSTALMENTS;
      await ctx.quote.pass();
    },
    'xstate.error.actor.loadQuote': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: 500 | 409 } };
      ctx.quoteFault = error.status;
      if (error.status === 500) await ctx.quote.respond(500, { detail: 'Error interno' });
      else {
        // The invoice changed under the page (advanced from another tab): the server's 409 with the machine's words.
        const message = invoiceRefusal('invoice.transferToFactoring', 50);
        await ctx.quote.respond(409, { detail: message, message, message_type: 'error' });
      }
    },
    'factoring.retry': async ({ ctx, user }) => {
      await user.click(within(await openDrawer()).getByRole('button', { name: 'Reintentar' }));
      if (ctx.keys.length > 0) await recordKey(ctx);
    },
    'factoring.choose': async ({ ctx, event, user }) => {
      const { instalments } = event as unknown as { instalments: number };
      const panel = await openDrawer();
      await user.click(within(panel).getByRole('radio', { name: new RegExp(`^${instalments} pagos a `) }));
      ctx.instalments = instalments;
      expect(CHOSEN_INSTALMENTS).toBe(instalments);
    },
    'factoring.transfer': async ({ ctx, user }) => {
      await user.click(within(await openDrawer()).getByRole('button', { name: TRANSFER_TEXT }));
      await recordKey(ctx);
      expect(ctx.transfer.bodies.at(-1)).toMatchObject({
        invoice_id: ctx.invoiceId,
        installments: ctx.instalments,
      });
    },
    'factoring.close': async ({ user }) => {
      const panel = await openDrawer();
      await user.click(within(panel).getAllByRole('button', { name: 'Cerrar' }).at(-1) as HTMLElement);
    },
    'xstate.done.actor.transferFactoring': async ({ ctx }) => {
      await ctx.transfer.pass();
    },
    'xstate.error.actor.transferFactoring': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number; fault?: TransferFault } };
      const fault: TransferFault = error.fault ?? (error.status as 500 | 0 | 401);
      ctx.fault = fault;
      const company = (values: { credit_used?: string; factoring_rate?: string }) =>
        db().updateTable('companies').set(values).where('id', '=', ctx.companyId).execute();
      if (fault === 'lineExhausted') {
        // The rest of the line went to another invoice meanwhile; the server refuses, then the line is as it was.
        await company({ credit_used: LINE });
        await ctx.transfer.pass();
        await company({ credit_used: '0' });
      } else if (fault === 'quoteChanged') {
        // The line's rate changed after the quote: the figures sent are no longer the server's.
        await company({ factoring_rate: '21.0000' });
        await ctx.transfer.pass();
      } else if (fault === 0) {
        // The server transfers, but its answer never reaches the browser.
        const { request, resolve } = await ctx.transfer.take();
        const answer = await forwardToApp(testApp().app, request);
        expect(answer.status).toBe(200);
        resolve(HttpResponse.error());
      } else if (fault === 401) {
        await ctx.transfer.respond(401, SESSION_ENDED_BODY);
      } else {
        await ctx.transfer.respond(500, { detail: 'Error interno' });
      }
    },
    'dialog.close': async ({ user }) => {
      await user.click(within(await dialog()).getByRole('button', { name: 'Cerrar' }));
    },
  },
});
