import { type Browser, type BrowserContext, expect, type Page } from '@playwright/test';
import dayjs from 'dayjs';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { buildCfdiXml } from '../server/cfdi/build-cfdi';
import { OPERATOR_LABEL } from '../server/modules/control-desk/disbursement.service';
import { SAT_ACTOR_LABEL } from '../server/modules/sat/sat-cancellation.service';
import { DEMO_CORPORATE } from '../server/seed/demo-world';
import { daysBetween, ISO_DATE_FORMAT, type IsoDate } from '../src/domain/calendar-date';
import { InvoiceStatus, type InvoiceStatusCode, PROVIDER_STATUS_LABELS } from '../src/domain/invoice-status';
import { formatMxn } from '../src/domain/money';
import { rfcCheckDigit } from '../src/domain/rfc';
import {
  type InvoiceLifecycleEvent,
  type LifecycleActor,
  STATUS_BY_STATE,
} from '../src/machines/invoice-lifecycle.machine';
import { stampedUuid } from '../test/fixtures/cfdi';
import type { ModelPath } from '../test/model/harness/model';
import {
  invoiceLifecycleModel,
  LIFECYCLE_EVENTS,
  MODEL_EMISSION,
  plusDays,
} from '../test/model/invoice-lifecycle.model';
import { testAuthority } from '../test/support/demo-authority';
import {
  closeMessage,
  defineGeneratedPathTests,
  type Executor,
  importCfdi,
  invoiceRow,
  payablesView,
  SERVER_WAIT,
  Sessions,
} from './generated-paths';
import { DEMO_PASSWORD, logIn, operator, signUp, withoutDashboardFrame } from './support';

// The lifecycle machine's generated paths in Chromium against the real server (decision 0049). Each path gets
// a fresh invoice imported with one `ops cfdi:import`, issued three days ago by this file's own provider to the
// demo corporate, and each event is its actor's real gesture:
//   provider  — Pronto Pago 'Solicitar adelanto' and 'Adelantar pago', Factoraje 'Solicitar Factoraje';
//   corporate — Solicitudes 'Autorizar' / 'Rechazar' (with its reason), Pre-autorización → Cotización with
//               'El proveedor' → 'Aceptar' (preAuthorize) or 'El comprador' (the buyer absorbs the cost:
//               preAuthorize or authorize by the invoice's state, as the server picks), then
//               'Pagar a Proveedores' (fundAdvance) or 'Rechazar Cotización' (rejectQuotation);
//   Flujo's operator — `ops disburse --force` and `ops desk:reject` (the control desk's automation path);
//   SAT — `ops sat:cancel`, which is how a cancellation reported by SAT reaches Flujo (no screen either).
// The provider is a fresh account made in beforeAll (sign-up, SAT link, factoring line), not the demo
// provider: the factoring paths need a line, and provider-factoring.spec.ts needs the demo provider without one.

const CORPORATE = 'corporativo.demo';

type Ctx = {
  provider: Page;
  corporate: Page;
  /** The corporate's lists, read without leaving the page where it acts (a quotation's resume dialog). */
  corporateLists: Page;
  contexts: BrowserContext[];
  id: number;
  uuid: string;
  /** What the tables show as the folio ('G-…'): the payment-date fields are named by it. */
  shownFolio: string;
  emission: IsoDate;
  buyerFunds: boolean;
  status: InvoiceStatusCode;
  /** Actors of the steps so far (after the import), to read back in the audit trail. */
  actors: string[];
  /**
   * The provider's page shows this invoice's Pronto Pago row as it is now (loaded since the last change, or
   * updated in place by the provider's own gesture there), so it need not be loaded again.
   */
  providerListFresh: boolean;
  /** The same for the corporate's page on Solicitudes. */
  requestsFresh: boolean;
};

const sessions = new Sessions(DEMO_PASSWORD, payablesView);
/** This file's provider and each path's invoice (by path index), made by `prepare`. */
let issuer: { username: string; rfc: string; name: string; sessions: Sessions } | null = null;
let emission = '' as IsoDate;
const pathInvoices = new Map<number, { id: number; uuid: string; shownFolio: string }>();

function provider() {
  if (!issuer) throw new Error('the provider of this file was not created (prepare)');
  return issuer;
}

/** A fresh provider (sign-up, SAT link approved, factoring line) and one invoice per path, made once per file. */
async function prepare(browser: Browser, paths: readonly ModelPath[]): Promise<void> {
  const run = Date.now().toString(36).toUpperCase();
  // A persona moral RFC with a valid check digit, new on every run (and on a worker's restart): three letters
  // from the clock.
  const now = Date.now();
  const letters = [0, 1, 2].map((i) => String.fromCharCode(65 + (Math.floor(now / 26 ** i) % 26))).join('');
  const body = `${letters}200115K8`;
  const rfc = body + rfcCheckDigit(body);
  const id = run.slice(-6).toLowerCase();
  const user = {
    username: `modelo.${id}`,
    email: `modelo.${id}@ejemplo.mx`,
    password: 'Tarima-Roja-Norte-2026',
    company: 'Maquilas del Modelo, S.A. de C.V.',
  };
  const context = await browser.newContext();
  try {
    await withoutDashboardFrame(context);
    const page = await context.newPage();
    await signUp(page, user);
    await logIn(page, user.username, user.password);
    await expect(page).toHaveURL(/\/dashboard\/sat-credentials\/$/, SERVER_WAIT);
    await page.getByLabel('RFC').fill(rfc);
    await page.getByLabel('Contraseña CIEC').fill('ciec-de-prueba-1');
    await page.getByRole('button', { name: 'Enviar credenciales' }).click();
    await expect(page.getByText(/Credenciales enviadas correctamente/)).toBeVisible(SERVER_WAIT);
  } finally {
    await context.close();
  }
  // The operator approves the link (one CFDI to the demo corporate makes their alliance) and grants a line.
  operator('sat:generate', rfc, '--count', '1');
  expect(operator('sat:approve', rfc)).toMatch(/1 importadas/);
  expect(operator('factoring:enable', rfc, '--line', '5000000', '--rate', '18.5')).toContain(rfc);
  issuer = {
    username: user.username,
    rfc,
    name: user.company,
    sessions: new Sessions(user.password),
  };

  emission = dayjs().subtract(3, 'day').format(ISO_DATE_FORMAT) as IsoDate;
  const planned = paths.map((_, index) => {
    const folio = `${run.slice(-5)}${index}`;
    const xml = buildCfdiXml(
      {
        serie: 'G',
        folio,
        issuedAt: `${emission}T10:00:00`,
        issuer: { rfc, name: user.company },
        receiver: DEMO_CORPORATE,
        // 8,620.69 + 16 % IVA = 10,000.00 MXN: the factoring paths hold it on the line.
        subtotal: '8620.69',
        currency: 'MXN',
        paymentMethod: 'PPD',
        description: 'Maquila de prueba del modelo',
      },
      testAuthority(),
    );
    return { folio, xml, uuid: stampedUuid(xml) };
  });
  const ids = importCfdi(planned.map(({ uuid, folio, xml }) => ({ uuid, name: folio, xml })));
  planned.forEach(({ uuid, folio }, index) => {
    pathInvoices.set(index, { id: ids.get(uuid)!, uuid, shownFolio: `G-${folio}` });
  });
}

/** A model date N days after the model's emission is N days after the real invoice's emission. */
function realDate(ctx: Ctx, modelDate: string): IsoDate {
  return plusDays(ctx.emission, daysBetween(MODEL_EMISSION, modelDate as IsoDate));
}

function actorLabel(actor: LifecycleActor): string {
  if (actor.kind === 'operator') return OPERATOR_LABEL;
  if (actor.kind === 'sat') return SAT_ACTOR_LABEL;
  return actor.kind === 'provider' ? provider().username : CORPORATE;
}

async function openProntoPago(ctx: Ctx): Promise<void> {
  if (!ctx.providerListFresh) await ctx.provider.goto(`/dashboard/pronto-pago/?search=${ctx.uuid}`);
  await expect(invoiceRow(ctx.provider, ctx.uuid)).toBeVisible(SERVER_WAIT);
  ctx.providerListFresh = true;
}

async function openRequests(ctx: Ctx): Promise<void> {
  if (!ctx.requestsFresh) await ctx.corporate.goto(`/dashboard/solicitudes/?search=${ctx.uuid}`);
  ctx.requestsFresh = true;
}

/** Pre-autorización: the row selected with its payment date, then 'Cotizar' and 'Continuar'. */
async function quoteOne(ctx: Ctx, paymentDate: IsoDate): Promise<void> {
  const page = ctx.corporate;
  await page.goto(`/dashboard/pre-autorizacion/?search=${ctx.uuid}`);
  const checkbox = page.getByLabel(`Seleccionar factura ${ctx.uuid}`);
  await expect(checkbox).toBeVisible(SERVER_WAIT);
  // Blueprint draws its box over the transparent input: the click lands on the label, as a person's does.
  await checkbox.locator('xpath=..').click();
  await expect(checkbox).toBeChecked();
  const field = page.getByLabel(`Fecha de pago ${ctx.shownFolio}`);
  await expect(field).toBeEnabled(SERVER_WAIT);
  await field.fill(dayjs(paymentDate).format('DD/MM/YYYY'));
  await field.press('Escape');
  await page.getByRole('button', { name: 'Cotizar' }).click();
  await expect(page.getByRole('table', { name: 'Cotización por factura' })).toBeVisible(SERVER_WAIT);
  await page.getByRole('button', { name: 'Continuar' }).click();
}

/** Solicitudes: the row selected (and dated), then the toolbar button. */
async function selectRequest(ctx: Ctx, paymentDate: IsoDate | null): Promise<void> {
  const page = ctx.corporate;
  await openRequests(ctx);
  const checkbox = page.getByLabel(`Seleccionar factura ${ctx.uuid}`);
  await expect(checkbox).toBeVisible(SERVER_WAIT);
  await checkbox.locator('xpath=..').click();
  await expect(checkbox).toBeChecked();
  if (paymentDate) await page.getByLabel(`Fecha de pago ${ctx.shownFolio}`).fill(paymentDate);
}

/** The quotation's resume dialog the corporate's previous gesture left open ('El comprador'). */
async function resumeDialog(ctx: Ctx, gesture: string) {
  const resume = ctx.corporate.getByRole('dialog', { name: 'Resumen de la cotización' });
  if (!(await resume.isVisible())) {
    throw new Error(
      `'${gesture}' exists only in the quotation's resume dialog, right after the buyer accepted it as payer`,
    );
  }
  await expect(resume.getByRole('button', { name: gesture })).toBeEnabled(SERVER_WAIT);
  return resume;
}

const perform: Executor<Ctx> = async (ctx, modelEvent) => {
  const event = modelEvent as InvoiceLifecycleEvent;
  await gesture(ctx, event);
  ctx.actors.push(actorLabel(event.actor));
  // Only the gestures made on Pronto Pago or Solicitudes leave that list up to date (they update it in place).
  const onProntoPago = ['invoice.requestAuthorization', 'invoice.approveAdvance'].includes(event.type);
  const onRequests =
    event.type === 'invoice.reject' || (event.type === 'invoice.authorize' && !event.buyerFunds);
  ctx.providerListFresh = onProntoPago;
  ctx.requestsFresh = onRequests;
};

async function gesture(ctx: Ctx, event: InvoiceLifecycleEvent): Promise<void> {
  switch (event.type) {
    case 'invoice.requestAuthorization': {
      await openProntoPago(ctx);
      await ctx.provider.getByRole('button', { name: `Solicitar adelanto ${ctx.uuid}` }).click();
      await closeMessage(ctx.provider, /Solicitud enviada correctamente/);
      break;
    }
    case 'invoice.authorize':
    case 'invoice.preAuthorize': {
      const paymentDate = realDate(ctx, event.paymentDate);
      if (event.type === 'invoice.authorize' && !event.buyerFunds) {
        await selectRequest(ctx, paymentDate);
        await ctx.corporate.getByRole('button', { name: 'Autorizar', exact: true }).click();
        await closeMessage(ctx.corporate, 'Se aprobó correctamente la factura');
        break;
      }
      // The quotation answers a request (authorize) or pre-authorizes (preAuthorize) by the invoice's state.
      await quoteOne(ctx, paymentDate);
      const payer = ctx.corporate.getByRole('dialog', { name: '¿Quién absorbe el costo financiero?' });
      if (event.buyerFunds) {
        await payer.getByRole('button', { name: 'El comprador' }).click();
        // The resume dialog stays open: 'Pagar a Proveedores' and 'Rechazar Cotización' are made there.
        const resume = ctx.corporate.getByRole('dialog', { name: 'Resumen de la cotización' });
        await expect(resume.getByRole('button', { name: 'Pagar a Proveedores' })).toBeEnabled(SERVER_WAIT);
      } else {
        await payer.getByRole('button', { name: 'El proveedor' }).click();
        await payer.getByRole('button', { name: 'Aceptar' }).click();
        await closeMessage(ctx.corporate);
        await expect(ctx.corporate.getByRole('heading', { level: 1, name: 'Pre-autorización' })).toBeVisible(
          SERVER_WAIT,
        );
      }
      ctx.buyerFunds = event.buyerFunds === true;
      break;
    }
    case 'invoice.reject': {
      await selectRequest(ctx, null);
      await ctx.corporate.getByRole('button', { name: 'Rechazar', exact: true }).click();
      const dialog = ctx.corporate.getByRole('dialog', { name: 'Rechazar solicitudes' });
      await dialog.getByLabel('Motivo (opcional)').fill(event.reason ?? '');
      await dialog.getByRole('button', { name: 'Rechazar', exact: true }).click();
      await closeMessage(ctx.corporate, 'Se rechazó correctamente la factura');
      break;
    }
    case 'invoice.fundAdvance':
    case 'invoice.rejectQuotation': {
      const gesture = event.type === 'invoice.fundAdvance' ? 'Pagar a Proveedores' : 'Rechazar Cotización';
      const resume = await resumeDialog(ctx, gesture);
      await resume.getByRole('button', { name: gesture }).click();
      await closeMessage(ctx.corporate);
      await expect(ctx.corporate.getByRole('heading', { level: 1, name: 'Pre-autorización' })).toBeVisible(
        SERVER_WAIT,
      );
      if (event.type === 'invoice.rejectQuotation') ctx.buyerFunds = false;
      break;
    }
    case 'invoice.approveAdvance': {
      await openProntoPago(ctx);
      await ctx.provider.getByRole('button', { name: `Adelantar pago ${ctx.uuid}` }).click();
      const drawer = ctx.provider.locator('.bp6-drawer', {
        has: ctx.provider.getByRole('heading', { name: 'Adelantar pago' }),
      });
      await expect(drawer.locator('[data-figure="Total a recibir"]')).toBeVisible(SERVER_WAIT);
      if (ctx.buyerFunds) {
        // The buyer absorbs the cost (decision 0028): the provider is quoted none of it.
        await expect(drawer.locator('[data-figure="Costo financiero"]')).toHaveText(formatMxn(0));
      }
      await drawer.getByRole('button', { name: 'Adelantar pago', exact: true }).click();
      await closeMessage(ctx.provider, /en trámite/);
      break;
    }
    case 'invoice.transferToFactoring': {
      await ctx.provider.goto(`/dashboard/factoraje/?search=${ctx.uuid}`);
      await ctx.provider.getByRole('button', { name: `Solicitar Factoraje ${ctx.uuid}` }).click();
      const panel = ctx.provider.getByRole('dialog', { name: 'Solicitar Factoraje' });
      await expect(panel.getByRole('radio')).toHaveCount(4, SERVER_WAIT);
      await panel.locator('label', { hasText: /^1 pago a 30 días/ }).click();
      await expect(panel.getByRole('radio', { name: /^1 pago a 30 días/ })).toBeChecked();
      await panel.getByRole('button', { name: 'Transferir' }).click();
      await closeMessage(ctx.provider, /factoraje/i);
      break;
    }
    case 'invoice.disburse':
      // Flujo's operator has no screen: it records the transfer it made with the CLI.
      expect(operator('disburse', String(ctx.id), '--force')).toContain(`(id ${ctx.id}) pagada`);
      break;
    case 'invoice.deskReject':
      // The control desk's rejection (decision 0054), made here with the operator's CLI (the same service as
      // /operacion/mesa/'s 'Rechazar'); the provider reads its reason in the Historial (checked at the end).
      expect(operator('desk:reject', String(ctx.id), '--reason', event.reason)).toContain(
        `(id ${ctx.id}) rechazado`,
      );
      break;
    case 'invoice.cancelAtSat':
      // SAT's cancellation reaches Flujo through the operator's CLI; the product has no screen for it.
      expect(operator('sat:cancel', ctx.uuid)).toContain(`Factura ${ctx.id} cancelada ante el SAT`);
      break;
  }
}

/** The provider's offer of a gesture follows the machine: shown where it may make it, absent elsewhere. */
function providerMay(state: AnyMachineSnapshot, type: InvoiceLifecycleEvent['type']): boolean {
  return LIFECYCLE_EVENTS.some(
    (event) => event.type === type && event.actor.kind === 'provider' && state.can(event),
  );
}

async function expectState(ctx: Ctx, state: AnyMachineSnapshot, path: ModelPath): Promise<void> {
  const from = ctx.status;
  const status = STATUS_BY_STATE[String(state.value)] as InvoiceStatusCode;
  ctx.status = status;
  const label = PROVIDER_STATUS_LABELS[status];

  // The provider's Pronto Pago: the status badge, and the buttons the machine allows there.
  await openProntoPago(ctx);
  const row = invoiceRow(ctx.provider, ctx.uuid);
  await expect(row.locator('[data-status]')).toHaveAttribute('data-status', String(status), SERVER_WAIT);
  await expect(row.locator('[data-status]')).toHaveText(label);
  await expect(row.getByRole('button', { name: `Solicitar adelanto ${ctx.uuid}` })).toHaveCount(
    providerMay(state, 'invoice.requestAuthorization') ? 1 : 0,
  );
  await expect(row.getByRole('button', { name: `Adelantar pago ${ctx.uuid}` })).toHaveCount(
    providerMay(state, 'invoice.approveAdvance') ? 1 : 0,
  );

  // The corporate's Solicitudes lists the invoice exactly while the provider's request waits for an answer;
  // checked when that changes (into or out of Solicitado).
  if (status === InvoiceStatus.PENDING) {
    // Only the provider's request leads here: the corporate's page is free.
    await openRequests(ctx);
    await expect(invoiceRow(ctx.corporate, ctx.uuid)).toBeVisible(SERVER_WAIT);
  } else if (from === InvoiceStatus.PENDING) {
    // The quotation may still hold its resume dialog on the corporate's page: a second page reads the list.
    const lists = ctx.requestsFresh ? ctx.corporate : ctx.corporateLists;
    if (!ctx.requestsFresh) await lists.goto(`/dashboard/solicitudes/?search=${ctx.uuid}`);
    await expect(lists.getByText('No hay facturas para revisar')).toBeVisible(SERVER_WAIT);
  }

  // At the end of the path, the audit trail the provider reads: the import, then one line per step with its
  // statuses and its actor.
  if (state === path.state) {
    await row.getByRole('button', { name: `Historial ${ctx.uuid}` }).click();
    const items = ctx.provider.getByRole('list', { name: 'Movimientos' }).getByRole('listitem');
    await expect(items).toHaveCount(path.steps.length, SERVER_WAIT);
    const statuses = path.steps.map((step) => STATUS_BY_STATE[String(step.state.value)] as InvoiceStatusCode);
    for (let i = 1; i < path.steps.length; i += 1) {
      const item = items.nth(i);
      await expect(item).toContainText(
        `${PROVIDER_STATUS_LABELS[statuses[i - 1]!]} → ${PROVIDER_STATUS_LABELS[statuses[i]!]}`,
      );
      await expect(item).toContainText(ctx.actors[i - 1]!);
      const step = path.steps[i]?.event as InvoiceLifecycleEvent | undefined;
      if (step?.type === 'invoice.deskReject') await expect(item).toContainText(step.reason);
    }
  }
}

const stateChecks = Object.fromEntries(
  Object.keys(invoiceLifecycleModel.machine.config.states ?? {}).map((name) => [
    `#invoiceLifecycle.${name}`,
    expectState,
  ]),
);

/** Every partition of every lifecycle event type goes to `perform`, which reads its payload. */
const executors = Object.fromEntries(
  [...new Set(LIFECYCLE_EVENTS.map((event: EventObject) => event.type))].map((type) => [type, perform]),
);

defineGeneratedPathTests<Ctx>({
  model: invoiceLifecycleModel,
  prepare,
  async setup(browser, _path, index) {
    const own = pathInvoices.get(index);
    if (!own) throw new Error(`no invoice was imported for path ${index}`);
    const { username, sessions: providerSessions } = provider();
    const providerContext = await providerSessions.contextAs(browser, username);
    const corporateContext = await sessions.contextAs(browser, CORPORATE);
    return {
      provider: await providerContext.newPage(),
      corporate: await corporateContext.newPage(),
      corporateLists: await corporateContext.newPage(),
      contexts: [providerContext, corporateContext],
      ...own,
      emission,
      buyerFunds: false,
      status: InvoiceStatus.AVAILABLE,
      actors: [],
      providerListFresh: false,
      requestsFresh: false,
    };
  },
  async teardown(ctx) {
    for (const context of ctx.contexts) await context.close();
  },
  events: executors,
  states: stateChecks,
});
