import { screen, waitFor, within } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import { businessDate } from '../../server/http/business-date';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { formatMoney, parseMoney, sumMoney } from '../../src/domain/money';
import { rateRange } from '../../src/domain/quote';
import { QUOTATION_PATHS } from '../../src/domain/schemas/quotations';
import { NO_RESPONSE_MESSAGE, SESSION_ENDED_MESSAGE } from '../../src/machines/pronto-pago-messages';
import { savePreAuthorization } from '../../src/stores/pre-authorization.store';
import { ACCESS_TOKEN_KEY } from '../../src/stores/storage-keys';
import {
  ACCEPT_TEXT,
  BUYER_PAYS_TEXT,
  CANCEL_TEXT,
  CONTINUE_TEXT,
  IVA_INCLUDED_TEXT,
  PAY_PROVIDERS_TEXT,
  PAYER_QUESTION,
  PROVIDER_PAYS_TEXT,
  QUOTE_LOADING_TEXT,
  REJECT_QUOTATION_TEXT,
  REMOVE_LINE_TEXT,
  RESUME_TITLE,
  TOTALS_LABEL,
} from '../../src/views/quotation/quotation-page';
import { SERVER_WAIT } from '../support/server-wait';
import { SESSION_ENDED_BODY } from './authorization-request.model';
import { signInCorporate } from './corporate-helpers';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp } from './harness/render-app';
import { forwardToServer } from './harness/test-server';
import { type WorldInvoice, world } from './harness/world';
import { plusDays } from './invoice-lifecycle.model';
import { postAs } from './pronto-pago-helpers';
import { LINE_400_BODY, quotationModel, SERVER_500_BODY } from './quotation.model';

const QUOTES = `/api${QUOTATION_PATHS.quote}`;
const PRE_APPROVED = `/api${QUOTATION_PATHS.preApprove}`;
const ACCEPTED = `/api${QUOTATION_PATHS.accept}`;
const FULL_PAYMENT = `/api${QUOTATION_PATHS.payProviders}`;
const REJECTED = `/api${QUOTATION_PATHS.reject}`;

interface Real {
  id: number;
  folio: string;
  amount: string;
}

interface Ctx {
  access: string;
  invoices: Real[];
  paymentDate: string;
  gates: {
    quote: ReturnType<typeof gateEndpoint>;
    preApprove: ReturnType<typeof gateEndpoint>;
    accept: ReturnType<typeof gateEndpoint>;
    pay: ReturnType<typeof gateEndpoint>;
    reject: ReturnType<typeof gateEndpoint>;
  };
  assign: ReturnType<typeof vi.spyOn>;
  /** The fault of the last failed call, if any. */
  fault: number | null;
  /** Invoices the path removed from the quote (executors get no state). */
  removed: Set<number>;
}

function current(ctx: Ctx): Real[] {
  return ctx.invoices.filter((invoice) => !ctx.removed.has(invoice.id));
}

function realInvoice(invoice: WorldInvoice): Real {
  return { id: invoice.id, folio: invoice.label, amount: invoice.amount };
}

/** The invoices still on the quote in this state of the model (symbolic ids 1 and 2 → the path's invoices). */
function linesOf(ctx: Ctx, state: { context: unknown }): Real[] {
  const { lines } = state.context as { lines: { invoice_id: number }[] };
  return lines.map((line) => ctx.invoices[line.invoice_id - 1] as Real);
}

function linesBody(ctx: Ctx, invoices: readonly Real[]) {
  return invoices.map((invoice) => ({ invoice_id: invoice.id, payment_date: ctx.paymentDate }));
}

async function dialogNamed(name: string): Promise<HTMLElement> {
  const title = await screen.findByText(name, {}, SERVER_WAIT);
  return title.closest('[role="dialog"]') as HTMLElement;
}

async function alertDialog(): Promise<HTMLElement> {
  let found: HTMLElement | null = null;
  await waitFor(() => {
    found =
      screen
        .queryAllByRole('dialog')
        .find((dialog) => within(dialog).queryByRole('button', { name: 'Cerrar' })) ?? null;
    expect(found).toBeTruthy();
  }, SERVER_WAIT);
  return found as unknown as HTMLElement;
}

async function expectStatuses(invoices: readonly Real[], status: number): Promise<void> {
  for (const invoice of invoices) expect((await world.facts(invoice.id)).status).toBe(status);
}

defineModelTests<Ctx>(quotationModel, {
  setup: async () => {
    const access = await signInCorporate();
    const today = businessDate(new Date());
    const invoices = [await world.importInvoice(), await world.importInvoice()].map(realInvoice);
    const paymentDate = plusDays(today, 30);
    savePreAuthorization({
      invoices: invoices.map((invoice) => ({
        id: invoice.id,
        folio: invoice.folio,
        emissionDate: plusDays(today, -3),
        paymentDate,
      })),
      savedAt: Date.now(),
    });
    return {
      access,
      invoices,
      paymentDate,
      gates: {
        quote: gateEndpoint('post', QUOTES),
        preApprove: gateEndpoint('post', PRE_APPROVED),
        accept: gateEndpoint('post', ACCEPTED),
        pay: gateEndpoint('post', FULL_PAYMENT),
        reject: gateEndpoint('post', REJECTED),
      },
      assign: vi.spyOn(Location.prototype, 'assign').mockImplementation(() => {}),
      fault: null,
      removed: new Set<number>(),
    };
  },
  render: () => {
    renderApp('/dashboard/cotizacion/');
  },
  teardown: (ctx) => ctx.assign.mockRestore(),
  states: {
    '#quotation.loading': async () => {
      expect(await screen.findByLabelText(QUOTE_LOADING_TEXT, {}, SERVER_WAIT)).toBeTruthy();
    },
    '#quotation.loadFailed': async ({ ctx }) => {
      const dialog = await alertDialog();
      const expected = ctx.fault === 400 ? LINE_400_BODY['0.payment_date'][0] : 'Ocurrió un error inesperado';
      expect(dialog.textContent).toContain(expected);
    },
    '#quotation.quoted': async ({ ctx, state }) => {
      const shown = linesOf(ctx, state);
      const table = await screen.findByRole('table', { name: 'Cotización por factura' }, SERVER_WAIT);
      await waitFor(
        () => expect(within(table).getAllByRole('row')).toHaveLength(shown.length + 1),
        SERVER_WAIT,
      );
      for (const invoice of shown) expect(within(table).getByText(invoice.folio)).toBeTruthy();
      // The totals are those of the lines left: removing one lowers them by exactly its amount.
      const totals = screen.getByLabelText(TOTALS_LABEL);
      const mxn = formatMoney(sumMoney(shown.map((invoice) => parseMoney(invoice.amount))), 'MXN');
      expect(totals.querySelector('[data-total="mxn"]')?.textContent).toBe(mxn);
      // Only the currencies the lines are in: these are all pesos.
      expect(totals.querySelector('[data-total="usd"]')).toBeNull();
      expect(totals.querySelector('[data-total="invoices"]')?.textContent).toBe(String(shown.length));
      // The summary's rate is the table's, each line's 'tasa + IVA' (one figure, or lowest – highest).
      const rates = within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.querySelectorAll('td')[3]?.textContent ?? '');
      expect(rates.every((rate) => /^\d+\.\d{2}%$/.test(rate))).toBe(true);
      expect(totals.querySelector('[data-total="rate"]')?.textContent).toBe(
        rateRange(rates.map((rate) => rate.replace('%', ''))),
      );
      expect(totals.textContent).toContain(IVA_INCLUDED_TEXT);
      expect(screen.getByRole('button', { name: CONTINUE_TEXT })).toBeTruthy();
      // Blueprint keeps a closing dialog for its transition.
      await waitFor(() => {
        expect(screen.queryByText(PAYER_QUESTION)).toBeNull();
        expect(screen.queryByText(RESUME_TITLE)).toBeNull();
      }, SERVER_WAIT);
    },
    '#quotation.choosingPayer': async () => {
      const dialog = await dialogNamed(PAYER_QUESTION);
      expect(within(dialog).getByRole('button', { name: PROVIDER_PAYS_TEXT })).toBeTruthy();
      expect(within(dialog).getByRole('button', { name: BUYER_PAYS_TEXT })).toBeTruthy();
    },
    '#quotation.providerAbsorbs': async ({ ctx, state }) => {
      const dialog = await dialogNamed(PAYER_QUESTION);
      const accept = within(dialog).getByRole('button', { name: ACCEPT_TEXT }) as HTMLButtonElement;
      expect(accept.disabled).toBe(false);
      await expectStatuses(linesOf(ctx, state), InvoiceStatus.AVAILABLE);
    },
    '#quotation.preApproving': async () => {
      const dialog = await dialogNamed(PAYER_QUESTION);
      await waitFor(
        () =>
          expect(
            (within(dialog).getByRole('button', { name: CANCEL_TEXT }) as HTMLButtonElement).disabled,
          ).toBe(true),
        SERVER_WAIT,
      );
    },
    '#quotation.accepting': async () => {
      const dialog = await dialogNamed(RESUME_TITLE);
      expect(within(dialog).getByLabelText(QUOTE_LOADING_TEXT)).toBeTruthy();
    },
    '#quotation.refused': async ({ ctx }) => {
      const dialog = await alertDialog();
      expect(dialog.querySelector('[data-variant="error"]')).toBeTruthy();
      if (ctx.fault === 409) expect(dialog.textContent).toMatch(/no puede autorizarse/);
      if (ctx.fault === 0) expect(dialog.textContent).toContain(NO_RESPONSE_MESSAGE);
      if (ctx.fault === 401) {
        expect(dialog.textContent).toContain(SESSION_ENDED_MESSAGE);
        expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
        expect(ctx.assign).toHaveBeenCalledWith('/');
      }
    },
    '#quotation.resume': async ({ ctx, state }) => {
      const dialog = await dialogNamed(RESUME_TITLE);
      await waitFor(
        () =>
          expect(
            (within(dialog).getByRole('button', { name: PAY_PROVIDERS_TEXT }) as HTMLButtonElement).disabled,
          ).toBe(false),
        SERVER_WAIT,
      );
      expect(within(dialog).getByRole('button', { name: REJECT_QUOTATION_TEXT })).toBeTruthy();
      expect(dialog.textContent).toContain(IVA_INCLUDED_TEXT);
      // The resume says its rate as the table does ('15.00%'), not the IVA-inclusive 17.4.
      expect(dialog.querySelector('[data-total="rate"]')?.textContent).toMatch(
        /^\d+\.\d{2}%( – \d+\.\d{2}%)?$/,
      );
      await expectStatuses(linesOf(ctx, state), InvoiceStatus.APPROVED);
    },
    '#quotation.paying': async () => {
      const dialog = await dialogNamed(RESUME_TITLE);
      expect(
        (within(dialog).getByRole('button', { name: REJECT_QUOTATION_TEXT }) as HTMLButtonElement).disabled,
      ).toBe(true);
    },
    '#quotation.rejecting': async () => {
      const dialog = await dialogNamed(RESUME_TITLE);
      expect(
        (within(dialog).getByRole('button', { name: PAY_PROVIDERS_TEXT }) as HTMLButtonElement).disabled,
      ).toBe(true);
    },
    '#quotation.resumeRefused': async ({ ctx }) => {
      const dialog = await alertDialog();
      expect(dialog.querySelector('[data-variant="error"]')).toBeTruthy();
      if (ctx.fault === 500) expect(dialog.textContent).toContain('Ocurrió un error inesperado');
    },
    '#quotation.preApproved': async ({ ctx, state }) => {
      const dialog = await alertDialog();
      expect(dialog.querySelector('[data-variant="success"]')).toBeTruthy();
      await expectStatuses(linesOf(ctx, state), InvoiceStatus.APPROVED);
    },
    '#quotation.paid': async ({ ctx, state }) => {
      const dialog = await alertDialog();
      expect(dialog.querySelector('[data-variant="success"]')).toBeTruthy();
      await expectStatuses(linesOf(ctx, state), InvoiceStatus.PROCESS);
    },
    '#quotation.rejected': async ({ ctx, state }) => {
      const dialog = await alertDialog();
      expect(dialog.querySelector('[data-variant="success"]')).toBeTruthy();
      await expectStatuses(linesOf(ctx, state), InvoiceStatus.REJECTED);
    },
    '#quotation.leaving': async () => {
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Pre-autorización' }, SERVER_WAIT),
      ).toBeTruthy();
    },
  },
  events: {
    'xstate.done.actor.quote': async ({ ctx }) => {
      await ctx.gates.quote.pass();
    },
    'xstate.error.actor.quote': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number } };
      ctx.fault = error.status;
      if (error.status === 400) await ctx.gates.quote.respond(400, LINE_400_BODY);
      else await ctx.gates.quote.respond(500, SERVER_500_BODY);
    },
    'line.remove': async ({ ctx, event, user }) => {
      const { invoiceId } = event as unknown as { invoiceId: number };
      const invoice = ctx.invoices[invoiceId - 1] as Real;
      ctx.removed.add(invoice.id);
      await user.click(
        await screen.findByRole('button', { name: `${REMOVE_LINE_TEXT} ${invoice.folio}` }, SERVER_WAIT),
      );
    },
    'payer.ask': async ({ user }) => {
      await user.click(await screen.findByRole('button', { name: CONTINUE_TEXT }, SERVER_WAIT));
    },
    'payer.provider': async ({ user }) => {
      await user.click(
        within(await dialogNamed(PAYER_QUESTION)).getByRole('button', { name: PROVIDER_PAYS_TEXT }),
      );
    },
    'payer.buyer': async ({ user }) => {
      await user.click(
        within(await dialogNamed(PAYER_QUESTION)).getByRole('button', { name: BUYER_PAYS_TEXT }),
      );
    },
    'payer.cancel': async ({ user }) => {
      await user.click(within(await dialogNamed(PAYER_QUESTION)).getByRole('button', { name: CANCEL_TEXT }));
    },
    'quotation.accept': async ({ user }) => {
      await user.click(within(await dialogNamed(PAYER_QUESTION)).getByRole('button', { name: ACCEPT_TEXT }));
    },
    'xstate.done.actor.preApprove': async ({ ctx }) => {
      await ctx.gates.preApprove.pass();
    },
    'xstate.error.actor.preApprove': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number } };
      ctx.fault = error.status;
      if (error.status === 409) {
        // Another tab pre-approves the first invoice first: the page's request then meets Autorizada.
        const [first] = current(ctx);
        const other = await postAs(
          ctx.access,
          PRE_APPROVED,
          linesBody(ctx, [first as Real]),
          crypto.randomUUID(),
        );
        expect(other.status).toBe(200);
        await ctx.gates.preApprove.pass();
      } else {
        // The server pre-approves, but its answer never reaches the browser.
        const request = await ctx.gates.preApprove.take();
        expect((await forwardToServer(request.request)).status).toBe(200);
        request.resolve(Response.error());
      }
    },
    'xstate.done.actor.accept': async ({ ctx }) => {
      await ctx.gates.accept.pass();
    },
    'xstate.error.actor.accept': async ({ ctx }) => {
      ctx.fault = 401;
      await ctx.gates.accept.respond(401, SESSION_ENDED_BODY);
    },
    'quotation.pay': async ({ user }) => {
      await user.click(
        within(await dialogNamed(RESUME_TITLE)).getByRole('button', { name: PAY_PROVIDERS_TEXT }),
      );
    },
    'quotation.reject': async ({ user }) => {
      await user.click(
        within(await dialogNamed(RESUME_TITLE)).getByRole('button', { name: REJECT_QUOTATION_TEXT }),
      );
    },
    'xstate.done.actor.payProviders': async ({ ctx }) => {
      await ctx.gates.pay.pass();
    },
    'xstate.error.actor.payProviders': async ({ ctx }) => {
      ctx.fault = 500;
      await ctx.gates.pay.respond(500, SERVER_500_BODY);
    },
    'xstate.done.actor.reject': async ({ ctx }) => {
      await ctx.gates.reject.pass();
    },
    'xstate.error.actor.reject': async ({ ctx }) => {
      ctx.fault = 409;
      // The buyer paid the providers from another tab: the invoices are En trámite, nothing left to reject.
      const paid = await postAs(ctx.access, FULL_PAYMENT, linesBody(ctx, current(ctx)), crypto.randomUUID());
      expect(paid.status).toBe(200);
      await ctx.gates.reject.pass();
    },
    'dialog.close': async ({ user }) => {
      await user.click(within(await alertDialog()).getByRole('button', { name: 'Cerrar' }));
    },
  },
});

// Spec §2: /cotizacion/ without saved work goes back to pre-authorization (the transition the model waives).
it('sends the buyer back to pre-authorization when nothing was saved', async () => {
  await signInCorporate();
  renderApp('/dashboard/cotizacion/');
  expect(
    await screen.findByRole('heading', { level: 1, name: 'Pre-autorización' }, SERVER_WAIT),
  ).toBeTruthy();
});
