import { randomUUID } from 'node:crypto';
import { type BrowserContext, expect, type Page } from '@playwright/test';
import dayjs from 'dayjs';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { buildCfdiXml } from '../server/cfdi/build-cfdi';
import { businessDate } from '../server/http/business-date';
import { DEMO_CORPORATE, DEMO_PROVIDERS } from '../server/seed/demo-world';
import { ISO_DATE_FORMAT } from '../src/domain/calendar-date';
import { InvoiceStatus, type InvoiceStatusCode, PROVIDER_STATUS_LABELS } from '../src/domain/invoice-status';
import { formatMoney, parseMoney, sumMoney } from '../src/domain/money';
import type { PreAuthorizationWork } from '../src/domain/pre-authorization';
import { QUOTATION_PATHS } from '../src/domain/schemas/quotations';
import { NO_RESPONSE_MESSAGE, SESSION_ENDED_MESSAGE } from '../src/machines/pronto-pago-messages';
import { ACCESS_TOKEN_KEY, PRE_AUTHORIZATION_STORE_KEY } from '../src/stores/storage-keys';
import { stampedUuid } from '../test/fixtures/cfdi';
import { SESSION_ENDED_BODY } from '../test/model/authorization-request.model';
import { quotationModel, SERVER_500_BODY } from '../test/model/quotation.model';
import { testAuthority } from '../test/support/demo-authority';
import {
  accessTokenOf,
  closeMessage,
  defineGeneratedPathTests,
  type Executor,
  Gate,
  importCfdi,
  invoiceRow,
  payablesView,
  SERVER_WAIT,
  Sessions,
  type StateCheck,
} from './generated-paths';
import { DEMO_PASSWORD } from './support';

// The quotation machine's generated paths in Chromium against the real server (decision 0049). Each path
// imports two fresh invoices of the demo provider to the demo corporate (one `ops cfdi:import`) and starts, as
// the model does, from the pre-authorization the corporate saved for them (the store the pre-authorization
// page writes; that page's own gestures are the lifecycle file's preAuthorize). The buyer's gestures are
// real clicks. The server's answers are held at the page's network (Gate) so the states in between show:
// most are the real server's (passed through, or provoked as they happen: a payment date of today for the
// 400 per line, a concurrent tab's pre-approval or payment for the 409s, the work done but the answer lost
// for "no answer"); only the 500s and the ended session are answers the test gives, as the in-process model
// test does, because the real server cannot be made to give them on demand.

const CORPORATE = 'corporativo.demo';
const [DEMO_PROVIDER] = DEMO_PROVIDERS;
const sessions = new Sessions(DEMO_PASSWORD, payablesView);

const QUOTES = `/api${QUOTATION_PATHS.quote}`;
const PRE_APPROVED = `/api${QUOTATION_PATHS.preApprove}`;
const ACCEPTED = `/api${QUOTATION_PATHS.accept}`;
const FULL_PAYMENT = `/api${QUOTATION_PATHS.payProviders}`;
const REJECTED = `/api${QUOTATION_PATHS.reject}`;

interface Real {
  id: number;
  uuid: string;
  folio: string;
  amount: string;
}

interface Ctx {
  context: BrowserContext;
  page: Page;
  /** The corporate's invoice summary, read without leaving the quotation. */
  lists: Page;
  invoices: Real[];
  /** Text of both invoices' description, and of no other invoice: one search shows the pair. */
  search: string;
  paymentDate: string;
  gates: { quote: Gate; preApprove: Gate; accept: Gate; pay: Gate; reject: Gate };
  /** The fault of the last failed call, if any. */
  fault: number | null;
  /** Invoices the path removed from the quote (executors get no state). */
  removed: Set<number>;
  /** The app left for '/' (the ended session's rule), held so the rest of the path stays observable. */
  leftForHome: boolean;
}

function current(ctx: Ctx): Real[] {
  return ctx.invoices.filter((invoice) => !ctx.removed.has(invoice.id));
}

/** The invoices still on the quote in this state of the model (symbolic ids 1 and 2 → the path's invoices). */
function linesOf(ctx: Ctx, state: AnyMachineSnapshot): Real[] {
  const { lines } = state.context as { lines: { invoice_id: number }[] };
  return lines.map((line) => ctx.invoices[line.invoice_id - 1]!);
}

/** What a second tab of the same corporate posts to `path` for these invoices. */
async function concurrentPost(ctx: Ctx, path: string, invoices: readonly Real[]): Promise<void> {
  const answer = await ctx.page.request.post(path, {
    headers: { Authorization: `Bearer ${await accessTokenOf(ctx.page)}`, 'Idempotency-Key': randomUUID() },
    data: invoices.map((invoice) => ({ invoice_id: invoice.id, payment_date: ctx.paymentDate })),
    ...SERVER_WAIT,
  });
  expect(answer.status(), await answer.text()).toBe(200);
}

/** The status the corporate's invoice summary shows for each invoice (one search finds the path's pair). */
async function expectStatuses(ctx: Ctx, invoices: readonly Real[], status: InvoiceStatusCode): Promise<void> {
  await ctx.lists.goto(`/dashboard/resumen-de-facturas/?search=${encodeURIComponent(ctx.search)}`);
  for (const invoice of invoices) {
    const badge = invoiceRow(ctx.lists, invoice.uuid).locator('[data-status]');
    await expect(badge).toHaveAttribute('data-status', String(status), SERVER_WAIT);
    await expect(badge).toHaveText(PROVIDER_STATUS_LABELS[status]);
  }
}

const payerDialog = (ctx: Ctx) =>
  ctx.page.getByRole('dialog', { name: '¿Quién absorbe el costo financiero?' });
const resumeDialog = (ctx: Ctx) => ctx.page.getByRole('dialog', { name: 'Resumen de la cotización' });
const errorDialog = (ctx: Ctx) => ctx.page.getByRole('dialog', { name: 'Error' });
const successDialog = (ctx: Ctx) => ctx.page.getByRole('dialog', { name: 'Listo' });

const states: Record<string, StateCheck<Ctx>> = {
  '#quotation.loading': async (ctx) => {
    await expect(ctx.page.getByLabel('Cargando cotización…')).toBeVisible(SERVER_WAIT);
  },
  '#quotation.loadFailed': async (ctx) => {
    const expected =
      ctx.fault === 400 ? 'La fecha de pago debe ser posterior a hoy.' : 'Ocurrió un error inesperado';
    await expect(errorDialog(ctx)).toContainText(expected, SERVER_WAIT);
  },
  '#quotation.quoted': async (ctx, state) => {
    const shown = linesOf(ctx, state);
    const table = ctx.page.getByRole('table', { name: 'Cotización por factura' });
    await expect(table.getByRole('row')).toHaveCount(shown.length + 1, SERVER_WAIT);
    for (const invoice of shown) await expect(table).toContainText(invoice.folio);
    // The totals are those of the lines left: removing one lowers them by exactly its amount.
    const totals = ctx.page.getByLabel('Totales de la cotización');
    const mxn = formatMoney(sumMoney(shown.map((invoice) => parseMoney(invoice.amount))), 'MXN');
    await expect(totals.locator('[data-total="mxn"]')).toHaveText(mxn);
    await expect(totals.locator('[data-total="invoices"]')).toHaveText(String(shown.length));
    await expect(ctx.page.getByRole('button', { name: 'Continuar' })).toBeVisible();
    await expect(payerDialog(ctx)).toBeHidden(SERVER_WAIT);
    await expect(resumeDialog(ctx)).toBeHidden(SERVER_WAIT);
  },
  '#quotation.choosingPayer': async (ctx) => {
    await expect(payerDialog(ctx).getByRole('button', { name: 'El proveedor' })).toBeVisible(SERVER_WAIT);
    await expect(payerDialog(ctx).getByRole('button', { name: 'El comprador' })).toBeVisible();
  },
  '#quotation.providerAbsorbs': async (ctx, state) => {
    await expect(payerDialog(ctx).getByRole('button', { name: 'Aceptar' })).toBeEnabled(SERVER_WAIT);
    await expectStatuses(ctx, linesOf(ctx, state), InvoiceStatus.AVAILABLE);
  },
  '#quotation.preApproving': async (ctx) => {
    await expect(payerDialog(ctx).getByRole('button', { name: 'Cancelar' })).toBeDisabled(SERVER_WAIT);
  },
  '#quotation.accepting': async (ctx) => {
    await expect(resumeDialog(ctx).getByLabel('Cargando cotización…')).toBeVisible(SERVER_WAIT);
  },
  '#quotation.refused': async (ctx) => {
    const dialog = errorDialog(ctx);
    await expect(dialog).toBeVisible(SERVER_WAIT);
    if (ctx.fault === 409) await expect(dialog).toContainText(/no puede autorizarse/);
    if (ctx.fault === 0) await expect(dialog).toContainText(NO_RESPONSE_MESSAGE);
    if (ctx.fault === 401) {
      await expect(dialog).toContainText(SESSION_ENDED_MESSAGE);
      // The session's rule (spec §8): storage cleared and the app sent to '/'.
      expect(await ctx.page.evaluate((key) => localStorage.getItem(key), ACCESS_TOKEN_KEY)).toBeNull();
      expect(ctx.leftForHome).toBe(true);
    }
  },
  '#quotation.resume': async (ctx, state) => {
    const dialog = resumeDialog(ctx);
    await expect(dialog.getByRole('button', { name: 'Pagar a Proveedores' })).toBeEnabled(SERVER_WAIT);
    await expect(dialog.getByRole('button', { name: 'Rechazar Cotización' })).toBeEnabled();
    await expect(dialog).toContainText('IVA Incluido');
    await expectStatuses(ctx, linesOf(ctx, state), InvoiceStatus.APPROVED);
  },
  '#quotation.paying': async (ctx) => {
    await expect(resumeDialog(ctx).getByRole('button', { name: 'Rechazar Cotización' })).toBeDisabled(
      SERVER_WAIT,
    );
  },
  '#quotation.rejecting': async (ctx) => {
    await expect(resumeDialog(ctx).getByRole('button', { name: 'Pagar a Proveedores' })).toBeDisabled(
      SERVER_WAIT,
    );
  },
  '#quotation.resumeRefused': async (ctx) => {
    await expect(errorDialog(ctx)).toBeVisible(SERVER_WAIT);
    if (ctx.fault === 500) await expect(errorDialog(ctx)).toContainText('Ocurrió un error inesperado');
  },
  '#quotation.preApproved': async (ctx, state) => {
    await expect(successDialog(ctx)).toBeVisible(SERVER_WAIT);
    await expectStatuses(ctx, linesOf(ctx, state), InvoiceStatus.APPROVED);
  },
  '#quotation.paid': async (ctx, state) => {
    await expect(successDialog(ctx)).toBeVisible(SERVER_WAIT);
    await expectStatuses(ctx, linesOf(ctx, state), InvoiceStatus.PROCESS);
  },
  '#quotation.rejected': async (ctx, state) => {
    await expect(successDialog(ctx)).toBeVisible(SERVER_WAIT);
    await expectStatuses(ctx, linesOf(ctx, state), InvoiceStatus.REJECTED);
  },
  '#quotation.leaving': async (ctx) => {
    await expect(ctx.page.getByRole('heading', { level: 1, name: 'Pre-autorización' })).toBeVisible(
      SERVER_WAIT,
    );
  },
};

const status = (event: EventObject) => (event as unknown as { error: { status: number } }).error.status;

const click = (name: string, within: (ctx: Ctx) => ReturnType<Page['getByRole']> | Page) =>
  (async (ctx) => {
    await within(ctx).getByRole('button', { name, exact: true }).click();
  }) satisfies Executor<Ctx>;

const events: Record<string, Executor<Ctx>> = {
  'xstate.done.actor.quote': (ctx) => ctx.gates.quote.pass(),
  'xstate.error.actor.quote': async (ctx, event) => {
    ctx.fault = status(event);
    // 400: the saved payment date is today (setup), and the real server refuses it per line.
    if (ctx.fault === 400) await ctx.gates.quote.pass();
    else await ctx.gates.quote.respond(500, SERVER_500_BODY);
  },
  'line.remove': async (ctx, event) => {
    const { invoiceId } = event as unknown as { invoiceId: number };
    const invoice = ctx.invoices[invoiceId - 1]!;
    ctx.removed.add(invoice.id);
    await ctx.page.getByRole('button', { name: `Quitar ${invoice.folio}` }).click();
  },
  'payer.ask': click('Continuar', (ctx) => ctx.page),
  'payer.provider': click('El proveedor', payerDialog),
  'payer.buyer': click('El comprador', payerDialog),
  'payer.cancel': click('Cancelar', payerDialog),
  'quotation.accept': click('Aceptar', payerDialog),
  'xstate.done.actor.preApprove': (ctx) => ctx.gates.preApprove.pass(),
  'xstate.error.actor.preApprove': async (ctx, event) => {
    ctx.fault = status(event);
    if (ctx.fault === 409) {
      // Another tab pre-approves the first invoice first: the page's request then meets Autorizada.
      await concurrentPost(ctx, PRE_APPROVED, current(ctx).slice(0, 1));
      await ctx.gates.preApprove.pass();
    } else {
      // The server pre-approves, but its answer never reaches the browser.
      await ctx.gates.preApprove.loseAnswer();
    }
  },
  'xstate.done.actor.accept': (ctx) => ctx.gates.accept.pass(),
  'xstate.error.actor.accept': async (ctx) => {
    ctx.fault = 401;
    // The app then leaves for '/'; the document request is answered 204 so the page stays where it is and
    // the rest of the path can be seen (the in-process test stubs location.assign for the same reason).
    await ctx.page.route(
      (url) => url.pathname === '/',
      async (route) => {
        if (!route.request().isNavigationRequest()) return route.fallback();
        ctx.leftForHome = true;
        await route.fulfill({ status: 204 });
      },
    );
    await ctx.gates.accept.respond(401, SESSION_ENDED_BODY);
  },
  'quotation.pay': click('Pagar a Proveedores', resumeDialog),
  'quotation.reject': click('Rechazar Cotización', resumeDialog),
  'xstate.done.actor.payProviders': (ctx) => ctx.gates.pay.pass(),
  'xstate.error.actor.payProviders': async (ctx) => {
    ctx.fault = 500;
    await ctx.gates.pay.respond(500, SERVER_500_BODY);
  },
  'xstate.done.actor.reject': (ctx) => ctx.gates.reject.pass(),
  'xstate.error.actor.reject': async (ctx) => {
    ctx.fault = 409;
    // The buyer paid the providers from another tab: the invoices are En trámite, nothing left to reject.
    await concurrentPost(ctx, FULL_PAYMENT, current(ctx));
    await ctx.gates.reject.pass();
  },
  'dialog.close': (ctx) => closeMessage(ctx.page),
};

/** Each path's two invoices, imported in beforeAll (by path index); `search` finds both and nothing else. */
const pathInvoices = new Map<number, { invoices: Real[]; search: string }>();
let emission = '';

defineGeneratedPathTests<Ctx>({
  model: quotationModel,
  async prepare(_browser, paths) {
    emission = dayjs().subtract(3, 'day').format(ISO_DATE_FORMAT);
    const run = Date.now().toString(36).toUpperCase();
    const planned = paths.map((_, index) => {
      const search = `modelo-${run}-P${index}-`;
      const invoices = [1, 2].map((n) => {
        const folio = `${run.slice(-5)}${index}N${n}`;
        const xml = buildCfdiXml(
          {
            serie: 'Q',
            folio,
            issuedAt: `${emission}T10:00:00`,
            issuer: { rfc: DEMO_PROVIDER!.rfc, name: DEMO_PROVIDER!.name },
            receiver: DEMO_CORPORATE,
            // 86,206.90 + 16 % IVA = 100,000.00 MXN.
            subtotal: '86206.90',
            currency: 'MXN',
            paymentMethod: 'PPD',
            description: `Servicio ${search}`,
          },
          testAuthority(),
        );
        return { folio, xml, uuid: stampedUuid(xml) };
      });
      return { search, invoices };
    });
    const ids = importCfdi(
      planned.flatMap(({ invoices }) => invoices.map(({ uuid, folio, xml }) => ({ uuid, name: folio, xml }))),
    );
    planned.forEach(({ search, invoices }, index) => {
      pathInvoices.set(index, {
        search,
        invoices: invoices.map(({ uuid, folio }) => ({
          id: ids.get(uuid)!,
          uuid,
          folio: `Q-${folio}`,
          amount: '100000.00',
        })),
      });
    });
  },
  async setup(browser, path, index) {
    const own = pathInvoices.get(index);
    if (!own) throw new Error(`no invoices were imported for path ${index}`);
    // A path whose quote the server refuses per line saved a payment date of today (it must be later).
    const first = path.steps[1]?.event;
    const refusedPerLine = first?.type === 'xstate.error.actor.quote' && status(first) === 400;
    // Mexico City's date, as the server judges it (UTC is a day ahead in the evening there).
    const paymentDate = dayjs(businessDate(new Date()))
      .add(refusedPerLine ? 0 : 30, 'day')
      .format(ISO_DATE_FORMAT);
    const saved: PreAuthorizationWork = {
      invoices: own.invoices.map((invoice) => ({
        id: invoice.id,
        folio: invoice.folio,
        emissionDate: emission,
        paymentDate,
      })),
      savedAt: Date.now(),
    };
    const context = await sessions.contextAs(browser, CORPORATE, {
      [PRE_AUTHORIZATION_STORE_KEY]: JSON.stringify(saved),
    });
    const page = await context.newPage();
    const gates = {
      quote: await Gate.on(page, QUOTES),
      preApprove: await Gate.on(page, PRE_APPROVED),
      accept: await Gate.on(page, ACCEPTED),
      pay: await Gate.on(page, FULL_PAYMENT),
      reject: await Gate.on(page, REJECTED),
    };
    await page.goto('/dashboard/cotizacion/');
    return {
      context,
      page,
      lists: await context.newPage(),
      invoices: own.invoices,
      search: own.search,
      paymentDate,
      gates,
      fault: null,
      removed: new Set<number>(),
      leftForHome: false,
    };
  },
  async teardown(ctx) {
    await ctx.context.close();
  },
  events,
  states,
});
