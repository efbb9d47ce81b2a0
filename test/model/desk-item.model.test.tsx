import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { businessDate } from '../../server/http/business-date';
import { approveDeskItem, DeskError } from '../../server/modules/control-desk/control-desk.service';
import { OPERATOR_LABEL } from '../../server/modules/control-desk/disbursement.service';
import { reserveForAdvance } from '../../server/modules/credit-programmes/programme-ledger.repository';
import { applyInvoiceEvent } from '../../server/modules/invoices/lifecycle.service';
import { SatStatusUnavailableError } from '../../server/modules/sat/sat-status-client';
import { DEMO_PROVIDERS } from '../../server/seed/demo-world';
import type { DeskState } from '../../src/domain/control-desk';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { DESK_BODY_MESSAGES } from '../../src/domain/schemas/control-desk';
import {
  DESK_STATE_BY_NODE,
  type DeskItemEvent,
  type DeskItemStateName,
} from '../../src/machines/desk-item.machine';
import { DESK_PROVIDER_CLABE, deskWorld } from '../support/control-desk';
import { createOperatorSession } from '../support/operator';
import { advanceTo, importInvoice } from '../support/pronto-pago';
import { SERVER_WAIT } from '../support/server-wait';
import {
  BANK_RETURN_REASON,
  DESK_ITEM_EVENTS,
  DESK_REJECT_REASON,
  deskItemModel,
  REFUSED_DESK_EVENTS,
} from './desk-item.model';
import { defineModelTests } from './harness/define-model-tests';
import { callServer, forwardToServer, TEST_ORIGIN, testApp } from './harness/test-server';
import { openOperatorScreen, type ScreenOperator } from './operator-screens';

// The operator's gestures go through the screens, each opened fresh (as after a reload) by the operator who makes
// it, with the real server behind MSW (in process: the world needs the programme ledger and the provider's CLABE
// set in the database). The aprobador clicks 'Aprobar <factura>', or 'Rechazar <factura>' and gives the reason in
// the dialog, at /operacion/mesa/ (filtered by the item's state); tesorería selects the advance and clicks 'Crear
// lote' at /operacion/dispersiones/, and a second tesorería opens that batch there and uploads the bank's result
// file (liquidada or devuelta) through the page's file input. What no screen offers stays a call: the
// automation's forced approval (`ops disburse --force`, in process) and the provider's new request after a
// rejection (the lifecycle's 'Adelantar pago' with its reservation). Every state is asserted through
// GET /api/operator/desk/{id}/, the invoice's status and its payment. The gestures the machine refuses are looked
// for where a screen would offer them (the desk's row, its reject dialog, the batch's selection: once per state
// and file) and must be missing; at every state they are then tried against the server, which must refuse them
// and change nothing (a bank line for an order already confirmed is a file's content, which only the server
// judges: it answers the file and applies nothing).

const CLABE = DESK_PROVIDER_CLABE;
/** Who `ops disburse` approves as (no operator row: the automation). */
const AUTOMATION = { id: null, username: OPERATOR_LABEL };

const DESK_PATH = (state: DeskState) => `/operacion/mesa/?state=${state}`;
const DISBURSEMENTS_PATH = '/operacion/dispersiones/';

interface Ctx {
  invoiceId: number;
  /** How the screens name the invoice (serie-folio): 'Aprobar <label>', 'Seleccionar <label>'. */
  label: string;
  /** One operator with both roles the desk needs: approves, rejects and makes the batches. */
  operator: ScreenOperator;
  /** A second tesorería: who made a batch does not confirm its result (decision 0059). */
  confirmer: ScreenOperator;
  batchId: number | null;
  clave: string | null;
  /** The operator's hands where a state is checked on a screen (the executors get the path's own). */
  user: UserEvent;
}

const db = () => testApp().database.db;
const today = () => businessDate(new Date());

let operators: { operator: ScreenOperator; confirmer: ScreenOperator } | null = null;

/**
 * One operator with both roles the desk needs, a second tesorería who confirms the bank's result of the first
 * one's batches, and the world's facts the checks read.
 */
async function theOperators(): Promise<{ operator: ScreenOperator; confirmer: ScreenOperator }> {
  if (operators) return operators;
  const { database, config } = testApp();
  const operator = { roles: ['aprobador', 'tesoreria'] as const };
  const confirmer = { roles: ['tesoreria'] as const };
  const session = await createOperatorSession({ database, config, now: () => new Date() }, operator);
  const confirmerSession = await createOperatorSession(
    { database, config, now: () => new Date() },
    confirmer,
  );
  await deskWorld(db());
  operators = {
    operator: { access: session.access, roles: operator.roles },
    confirmer: { access: confirmerSession.access, roles: confirmer.roles },
  };
  return operators;
}

/** The provider's deposit CLABE; null is the failing check the refused approvals need. */
async function setClabe(clabe: string | null): Promise<void> {
  await db()
    .updateTable('companies')
    .set({ disbursement_clabe: clabe })
    .where('rfc', '=', DEMO_PROVIDERS[0].rfc)
    .execute();
}

/** Runs `work` while the provider has no deposit CLABE (one check fails), then gives it back. */
async function withoutClabe<T>(work: () => Promise<T>): Promise<T> {
  await setClabe(null);
  try {
    return await work();
  } finally {
    await setClabe(CLABE);
  }
}

/** 'Adelantar pago' as the provider, with the reservation the advance makes on the buyer's programme. */
async function advance(invoiceId: number): Promise<void> {
  const invoice = await db()
    .selectFrom('invoices')
    .select(['emitter_company_id', 'receiver_company_id', 'amount_with_exchange_rate'])
    .where('id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  await applyInvoiceEvent(
    db(),
    invoiceId,
    {
      type: 'invoice.approveAdvance',
      actor: { kind: 'provider', companyId: invoice.emitter_company_id, satAuthorized: true },
    },
    { userId: null, label: 'prueba' },
  );
  await reserveForAdvance(db(), {
    corporateId: invoice.receiver_company_id,
    invoiceId,
    amount: invoice.amount_with_exchange_rate,
    today: today(),
    actorUserId: null,
  });
}

async function newItem(): Promise<Ctx> {
  const { operator, confirmer } = await theOperators();
  const invoiceId = await importInvoice(db(), { today: today() });
  await advanceTo(db(), invoiceId, 'approved', businessDate(new Date(Date.now() + 30 * 86_400_000)));
  await advance(invoiceId);
  const ctx: Ctx = {
    invoiceId,
    label: '',
    operator,
    confirmer,
    batchId: null,
    clave: null,
    user: userEvent.setup(),
  };
  ctx.label = (await deskState(ctx)).label;
  return ctx;
}

const auth = (ctx: Ctx) => ({ authorization: `Bearer ${ctx.operator.access}` });

/** The bank's result file for the batch's one order: `line` after the header. */
const resultFile = (line: string) =>
  new File([`clave_rastreo,estado,motivo\r\n${line}\r\n`], 'resultado.csv', { type: 'text/csv' });

/** The result file posted by the confirmer without a screen: only for the refused lines (no screen refuses them). */
async function uploadResult(ctx: Ctx, line: string): Promise<{ status: number; body: unknown }> {
  // Built by hand: happy-dom's FormData does not carry a Blob's file name through a Request.
  const boundary = 'limitecsv';
  const body =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="resultado.csv"\r\n` +
    `Content-Type: text/csv\r\n\r\nclave_rastreo,estado,motivo\n${line}\n\r\n--${boundary}--\r\n`;
  const answer = await forwardToServer(
    new Request(`${TEST_ORIGIN}/api/operator/disbursements/${ctx.batchId}/confirmation/`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ctx.confirmer.access}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body,
    }),
  );
  return { status: answer.status, body: await answer.json() };
}

/**
 * The automation's approval: `ops disburse --force` calls the desk's own approveDeskItem with `force` (and goes
 * on to batch and settle in the same call); here the approval alone, in process, so its state can be asserted.
 */
async function forcedApproval(ctx: Ctx): Promise<{ status: number; body: unknown }> {
  try {
    const item = await approveDeskItem(db(), ctx.invoiceId, AUTOMATION, { today: today(), force: true });
    return { status: 200, body: item };
  } catch (error) {
    if (error instanceof DeskError) return { status: error.statusCode, body: { detail: error.message } };
    throw error;
  }
}

/** Runs `call` while SAT's status service does not answer (a timeout), then lets it answer again. */
async function withSilentSat<T>(call: () => Promise<T>): Promise<T> {
  const { authenticity } = testApp().app;
  const answering = authenticity.satStatus;
  authenticity.satStatus = () => ({
    consult: async () => {
      throw new SatStatusUnavailableError('timeout', 'model test: SAT held the request');
    },
  });
  try {
    return await call();
  } finally {
    authenticity.satStatus = answering;
  }
}

// --- The screens -------------------------------------------------------------------------------------------

/** /operacion/mesa/ filtered by the item's desk state, opened by the aprobador; the item's row there. */
async function deskRow(ctx: Ctx, state: DeskState): Promise<HTMLElement> {
  openOperatorScreen(DESK_PATH(state), ctx.operator);
  const table = await screen.findByRole('table', { name: 'Adelantos en la mesa de control' }, SERVER_WAIT);
  const label = await within(table).findByText(ctx.label, { selector: 'td' }, SERVER_WAIT);
  return label.closest('tr') as HTMLElement;
}

/**
 * Waits until the screen shows what the gesture's success looks like (`done` finds it) or an alert: the server's
 * refusal in Spanish, which fails the step at once with its text.
 */
async function settled<T>(done: () => T | null): Promise<T> {
  let outcome: { refusal: string } | { done: T } | null = null;
  await waitFor(() => {
    const alert = screen.queryByRole('alert');
    const found = alert ? null : done();
    outcome = alert ? { refusal: alert.textContent ?? '' } : found === null ? null : { done: found };
    expect(outcome, 'the gesture settled').not.toBeNull();
  }, SERVER_WAIT);
  const result = outcome as unknown as { refusal: string } | { done: T };
  if ('refusal' in result) expect.fail(`the screen refused the gesture: ${result.refusal}`);
  return result.done;
}

/** A decision taken at the desk: the row leaves the state's list when the desk reloads. */
async function decided(ctx: Ctx): Promise<void> {
  await settled(() => (screen.queryByText(ctx.label, { selector: 'td' }) ? null : true));
  cleanup();
}

/** 'Aprobar <factura>' on the item's row, then 'Aprobar' in its confirmation. */
async function approveOnScreen(ctx: Ctx, user: UserEvent): Promise<void> {
  const row = await deskRow(ctx, (await deskState(ctx)).state);
  await user.click(within(row).getByRole('button', { name: `Aprobar ${ctx.label}` }));
  const dialog = await screen.findByRole('dialog', {}, SERVER_WAIT);
  expect(dialog.textContent).toContain(`Aprobar el adelanto ${ctx.label}`);
  await user.click(within(dialog).getByRole('button', { name: 'Aprobar' }));
  await decided(ctx);
}

/** The reject dialog of the item's row, with `reason` typed in (pasted: one input event, not one per letter). */
async function rejectDialog(ctx: Ctx, row: HTMLElement, reason: string, user: UserEvent) {
  await user.click(within(row).getByRole('button', { name: `Rechazar ${ctx.label}` }));
  const dialog = await screen.findByRole('dialog', {}, SERVER_WAIT);
  expect(dialog.textContent).toContain(`Rechazar el adelanto ${ctx.label}`);
  await user.click(within(dialog).getByLabelText(/^Motivo/));
  await user.paste(reason);
  return within(dialog).getByRole('button', { name: 'Rechazar' }) as HTMLButtonElement;
}

/** 'Rechazar <factura>', the reason in the dialog, and its 'Rechazar'. */
async function rejectOnScreen(ctx: Ctx, reason: string, user: UserEvent): Promise<void> {
  const row = await deskRow(ctx, (await deskState(ctx)).state);
  await user.click(await rejectDialog(ctx, row, reason, user));
  await decided(ctx);
}

/** /operacion/dispersiones/ by `operator`, once its approved advances have loaded (a table, or none). */
async function disbursementsScreen(operator: ScreenOperator): Promise<void> {
  openOperatorScreen(DISBURSEMENTS_PATH, operator);
  await waitFor(
    () =>
      expect(
        screen.queryByRole('table', { name: 'Adelantos aprobados por dispersar' }) ??
          screen.queryByText('No hay adelantos aprobados por dispersar'),
      ).not.toBeNull(),
    SERVER_WAIT,
  );
}

/** 'Seleccionar <factura>' and 'Crear lote': the new batch opens with the item's one order. */
async function batchOnScreen(ctx: Ctx, user: UserEvent): Promise<void> {
  await disbursementsScreen(ctx.operator);
  await user.click(screen.getByRole('checkbox', { name: `Seleccionar ${ctx.label}` }));
  await user.click(screen.getByRole('button', { name: 'Crear lote' }));
  const orders = await settled(() => screen.queryByRole('table', { name: /^Órdenes SPEI del lote \d+$/ }));
  expect(screen.getByRole('status').textContent).toBe('Lote creado.');
  ctx.batchId = Number(/\d+$/.exec(orders.getAttribute('aria-label') ?? '')?.[0]);
  const rows = within(orders).getAllByRole('row').slice(1);
  expect(rows).toHaveLength(1);
  ctx.clave = rows[0]?.querySelector('td')?.textContent ?? null;
  expect(ctx.clave).toBe(`FLUJO${ctx.batchId}F${ctx.invoiceId}`);
  cleanup();
}

/** The second tesorería opens the batch's orders and uploads the bank's result file with the order's `line`. */
async function bankResultOnScreen(
  ctx: Ctx,
  line: string,
  counts: { settled: number; returned: number },
  user: UserEvent,
): Promise<void> {
  openOperatorScreen(DISBURSEMENTS_PATH, ctx.confirmer);
  await user.click(
    await screen.findByRole('button', { name: `Ver órdenes del lote ${ctx.batchId}` }, SERVER_WAIT),
  );
  await screen.findByRole('table', { name: `Órdenes SPEI del lote ${ctx.batchId}` }, SERVER_WAIT);
  await user.upload(screen.getByLabelText('Cargar resultado del banco (CSV)'), resultFile(line));
  const summary = await settled(() => screen.queryByText(/^Resultado aplicado al lote/));
  expect(summary.textContent).toBe(
    `Resultado aplicado al lote ${ctx.batchId}: ${counts.settled} liquidada(s), ` +
      `${counts.returned} devuelta(s), 0 ya confirmada(s) antes.`,
  );
  cleanup();
}

/** The states whose screens were already looked at in this file (see screensOfferNoRefusedGesture). */
const screensSeen = new Set<DeskItemStateName>();

/**
 * Where a screen would offer a gesture the machine refuses here, it does not: the desk's row shows no 'Aprobar'
 * with a failing check (nor any decision once decided), its reject dialog refuses a blank reason at the field, and only an approved advance can be selected for a batch. What the screens offer depends on the item's
 * state alone (the desk asks the same machine), so each state's screens are looked at once per file, on the
 * first path that reaches it; the server is asked at every step.
 */
async function screensOfferNoRefusedGesture(ctx: Ctx, node: DeskItemStateName, user: UserEvent) {
  if (screensSeen.has(node)) return;
  screensSeen.add(node);
  const state = DESK_STATE_BY_NODE[node];
  if (node === 'queued' || node === 'returned') {
    await withoutClabe(async () => {
      const row = await deskRow(ctx, state);
      expect(within(row).getByText('Falla: CLABE del proveedor')).toBeTruthy();
      expect(within(row).queryByRole('button', { name: `Aprobar ${ctx.label}` })).toBeNull();
      // A blank reason is refused at the field, with the server's own message, and nothing is sent.
      const confirm = await rejectDialog(ctx, row, '   ', user);
      await user.click(confirm);
      const dialog = screen.getByRole('dialog');
      expect(await within(dialog).findByText(DESK_BODY_MESSAGES.reasonRequired)).toBeTruthy();
      expect((await deskState(ctx)).state).toBe(state);
    });
  } else {
    const row = await deskRow(ctx, state);
    expect(within(row).queryByRole('button', { name: /^(Aprobar|Rechazar) / })).toBeNull();
  }
  if (node !== 'approved') {
    await disbursementsScreen(ctx.operator);
    expect(screen.queryByRole('checkbox', { name: `Seleccionar ${ctx.label}` })).toBeNull();
  }
  cleanup();
}

// --- The server --------------------------------------------------------------------------------------------

/** Performs one refused desk event the way its actor really can, without a screen; the answer's status. */
async function refusedCall(
  ctx: Ctx,
  event: DeskItemEvent,
  options: { approvable: boolean },
): Promise<{ status: number; body: unknown }> {
  const desk = `/api/operator/desk/${ctx.invoiceId}/`;
  switch (event.type) {
    case 'desk.approve': {
      if (!event.force) {
        // A failing check that is SAT's silence: the desk asks again before deciding, SAT does not answer, and
        // the check reads pending; the approval is refused like any other failing check (issue 30). Where the
        // machine would approve (queued, returned) that check is what refuses it.
        const silent = await withSilentSat(() =>
          callServer('POST', `${desk}approve/`, { body: {}, headers: auth(ctx) }),
        );
        if (silent.status < 300) return silent;
        if (options.approvable) {
          expect(silent.status).toBe(409);
          expect(JSON.stringify(silent.body)).toContain(
            'CFDI vigente en el SAT: Pendiente (el SAT no respondió el ',
          );
        }
      }
      // A failing check: the provider's CLABE is gone while the aprobador (or the automation) approves.
      return withoutClabe(() =>
        event.force
          ? forcedApproval(ctx)
          : callServer('POST', `${desk}approve/`, { body: {}, headers: auth(ctx) }),
      );
    }
    case 'desk.reject':
      return callServer('POST', `${desk}reject/`, { body: { reason: event.reason }, headers: auth(ctx) });
    case 'desk.batch':
      return callServer('POST', '/api/operator/disbursements/', {
        body: { invoice_ids: [ctx.invoiceId] },
        headers: auth(ctx),
      });
    case 'bank.settle':
      return uploadResult(ctx, `${ctx.clave},liquidada,`);
    case 'bank.return':
      return uploadResult(ctx, `${ctx.clave},devuelta,${event.reason}`);
    case 'desk.requeue':
      throw new Error('the provider’s new request is refused by the lifecycle’s own tests');
  }
}

const INVOICE_STATUS: Record<DeskItemStateName, number> = {
  queued: InvoiceStatus.PROCESS,
  approved: InvoiceStatus.PROCESS,
  inBatch: InvoiceStatus.PROCESS,
  returned: InvoiceStatus.PROCESS,
  rejected: InvoiceStatus.APPROVED,
  paid: InvoiceStatus.PAID,
};

async function deskState(ctx: Pick<Ctx, 'invoiceId' | 'operator'>) {
  const answer = await callServer('GET', `/api/operator/desk/${ctx.invoiceId}/`, {
    headers: { authorization: `Bearer ${ctx.operator.access}` },
  });
  expect(answer.status).toBe(200);
  return answer.body as { state: DeskState; label: string; reason: string | null; checks_pass: boolean };
}

async function assertState(ctx: Ctx, state: AnyMachineSnapshot): Promise<void> {
  const node = String(state.value) as DeskItemStateName;
  const item = await deskState(ctx);
  expect(item.state).toBe(DESK_STATE_BY_NODE[node]);
  if (node === 'rejected') expect(item.reason).toBe(DESK_REJECT_REASON);
  if (node === 'returned') expect(item.reason).toBe(BANK_RETURN_REASON);
  const invoice = await db()
    .selectFrom('invoices')
    .select('status')
    .where('id', '=', ctx.invoiceId)
    .executeTakeFirstOrThrow();
  expect(invoice.status).toBe(INVOICE_STATUS[node]);
  const paid = await db()
    .selectFrom('disbursements')
    .select('id')
    .where('invoice_id', '=', ctx.invoiceId)
    .execute();
  expect(paid).toHaveLength(node === 'paid' ? 1 : 0);

  // What the machine refuses here no screen offers, the server refuses too, and nothing changes. The bank's
  // lines are tried only where the item has an order; the provider's new request is the lifecycle's, refused by
  // its own tests.
  await screensOfferNoRefusedGesture(ctx, node, ctx.user);
  const refused = [
    ...(DESK_ITEM_EVENTS as readonly DeskItemEvent[]).filter((event) => !state.can(event)),
    ...(REFUSED_DESK_EVENTS as readonly DeskItemEvent[]),
  ].filter(
    (event) => event.type !== 'desk.requeue' && (!event.type.startsWith('bank.') || ctx.clave !== null),
  );
  for (const event of refused) {
    expect(state.can(event), `the machine accepts ${event.type} here`).toBe(false);
    const answer = await refusedCall(ctx, event, { approvable: node === 'queued' || node === 'returned' });
    if (event.type.startsWith('bank.')) {
      // An order already confirmed: the file is answered, and nothing is applied.
      expect(answer.status, `${event.type} at ${node}`).toBe(200);
      expect(answer.body).toMatchObject({ applied: 0, unchanged: 1 });
    } else {
      expect([400, 404, 409], `${event.type} at ${node}: ${JSON.stringify(answer.body)}`).toContain(
        answer.status,
      );
    }
    expect((await deskState(ctx)).state).toBe(item.state);
  }
}

/** Performs one event of a path: the operator's gestures on their screens, the rest as their actors call. */
async function execute(ctx: Ctx, modelEvent: EventObject, user: UserEvent): Promise<void> {
  const event = modelEvent as DeskItemEvent;
  switch (event.type) {
    case 'desk.approve': {
      if (!event.force) return approveOnScreen(ctx, user);
      const answer = await withoutClabe(() => forcedApproval(ctx));
      expect(answer.status, `desk.approve (force): ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      return;
    }
    case 'desk.reject':
      return rejectOnScreen(ctx, event.reason, user);
    case 'desk.batch':
      return batchOnScreen(ctx, user);
    case 'bank.settle':
      return bankResultOnScreen(ctx, `${ctx.clave},liquidada,`, { settled: 1, returned: 0 }, user);
    case 'bank.return':
      await bankResultOnScreen(
        ctx,
        `${ctx.clave},devuelta,${event.reason}`,
        { settled: 0, returned: 1 },
        user,
      );
      // A returned order is done with: the next batch makes a new one.
      ctx.batchId = null;
      ctx.clave = null;
      return;
    case 'desk.requeue':
      return advance(ctx.invoiceId);
  }
}

defineModelTests<Ctx>(deskItemModel, {
  setup: newItem,
  // Each gesture opens its own screen (another page, or another operator): nothing is on screen before the first.
  render: () => {},
  states: Object.fromEntries(
    Object.keys(deskItemModel.machine.config.states ?? {}).map((name) => [
      `#deskItem.${name}`,
      ({ ctx, state }: { ctx: Ctx; state: AnyMachineSnapshot }) => assertState(ctx, state),
    ]),
  ),
  events: Object.fromEntries(
    [...new Set(DESK_ITEM_EVENTS.map((event) => event.type))].map((type) => [
      type,
      ({ ctx, event, user }: { ctx: Ctx; event: EventObject; user: UserEvent }) => execute(ctx, event, user),
    ]),
  ),
});
