import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import { DESK_MESSAGES } from '../../server/modules/control-desk/control-desk.service';
import { NO_RESPONSE_MESSAGE } from '../../src/domain/call-failure';
import type { Batch } from '../../src/domain/schemas/control-desk';
import type { BackOfficeIntent } from '../../src/machines/back-office-action';
import { ACCESS_TOKEN_KEY } from '../../src/stores/storage-keys';
import { setUser } from '../../src/stores/user.store';
import { type DeskAdvance, deskWorld, queuedAdvance } from '../support/control-desk';
import type { OperatorSession } from '../support/operator';
import { SERVER_WAIT } from '../support/server-wait';
import { disbursementActionsModel } from './disbursement-actions.model';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp } from './harness/render-app';
import { callServer, forwardToServer, testApp } from './harness/test-server';
import { world } from './harness/world';

// /operacion/dispersiones/ driven by its disbursement-actions machine. Each path gets two approved advances of its
// own to batch (the second for a gesture after the first), and a batch another tesorería made with one more advance,
// whose bank result the signed-in tesorería uploads (who made a batch does not confirm it, decision 0059). Every
// approved advance left by earlier paths goes into that batch, so the list to batch holds the path's two only.

const BATCHES = '/api/operator/disbursements/';

interface Operators {
  aprobador: OperatorSession;
  /** Makes each path's batch to upload to. */
  maker: OperatorSession;
  /** The screen's tesorería. */
  treasurer: OperatorSession;
}

type Item = DeskAdvance & { state: 'approved' | 'in_batch' };

interface Ctx {
  operators: Operators;
  ready: Item[];
  /** The batch the path uploads the bank's result to, and its order's clave de rastreo. */
  batch: { id: number; clave: string };
  action: 'createBatch' | 'upload' | null;
  current: Item | null;
  create: ReturnType<typeof gateEndpoint>;
  upload: ReturnType<typeof gateEndpoint>;
  /** Idempotency-Key of each money request, in order. */
  keys: string[];
  refusal: string | null;
  settled: boolean;
}

let operators: Promise<Operators> | null = null;
const db = () => testApp().database.db;
const bearer = (session: OperatorSession) => ({ authorization: `Bearer ${session.access}` });

async function theOperators(): Promise<Operators> {
  await deskWorld(db());
  return {
    aprobador: await world.operatorSession(['aprobador']),
    maker: await world.operatorSession(['tesoreria']),
    treasurer: await world.operatorSession(['tesoreria']),
  };
}

async function approved(ops: Operators): Promise<DeskAdvance> {
  const advance = await queuedAdvance(db());
  const answer = await callServer('POST', `/api/operator/desk/${advance.invoiceId}/approve/`, {
    body: {},
    headers: bearer(ops.aprobador),
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return advance;
}

/** Every approved advance on the desk but the path's own two, batched by the other tesorería. */
async function batchLeftovers(ops: Operators, keep: readonly DeskAdvance[]): Promise<Ctx['batch']> {
  const list = await callServer('GET', '/api/operator/desk/?state=approved', { headers: bearer(ops.maker) });
  expect(list.status).toBe(200);
  const ids = (list.body as { results: { invoice_id: number }[] }).results
    .map((item) => item.invoice_id)
    .filter((id) => !keep.some((advance) => advance.invoiceId === id));
  const answer = await callServer('POST', BATCHES, {
    body: { invoice_ids: ids },
    headers: bearer(ops.maker),
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  const batch = answer.body as Batch;
  return { id: batch.id, clave: (batch.orders[0] as Batch['orders'][number]).clave_rastreo };
}

async function deskState(ctx: Ctx, item: DeskAdvance): Promise<string> {
  const answer = await callServer('GET', `/api/operator/desk/${item.invoiceId}/`, {
    headers: bearer(ctx.operators.treasurer),
  });
  expect(answer.status).toBe(200);
  return (answer.body as { state: string }).state;
}

/** The list to batch holds what the server still has approved, and the server agrees with the path's record. */
async function expectReady(ctx: Ctx): Promise<void> {
  for (const item of ctx.ready) expect(await deskState(ctx, item)).toBe(item.state);
  const waiting = ctx.ready.filter((item) => item.state === 'approved');
  await waitFor(() => {
    for (const item of ctx.ready) {
      const box = screen.queryByRole('checkbox', { name: `Seleccionar ${item.label}` });
      expect(box === null, item.label).toBe(item.state !== 'approved');
    }
    if (waiting.length === 0)
      expect(screen.getByText('No hay adelantos aprobados por dispersar')).toBeTruthy();
  }, SERVER_WAIT);
}

async function batchOrder(ctx: Ctx): Promise<string> {
  const answer = await callServer('GET', `${BATCHES}${ctx.batch.id}/`, {
    headers: bearer(ctx.operators.treasurer),
  });
  const order = (answer.body as Batch).orders.find((line) => line.clave_rastreo === ctx.batch.clave);
  return order?.state ?? 'missing';
}

function fileInput(ctx: Ctx): HTMLInputElement {
  const panel = screen
    .getByRole('table', { name: `Órdenes SPEI del lote ${ctx.batch.id}` })
    .closest('section');
  return within(panel as HTMLElement).getByLabelText('Cargar resultado del banco (CSV)') as HTMLInputElement;
}

const gate = (ctx: Ctx) => (ctx.action === 'upload' ? ctx.upload : ctx.create);

async function recordKey(ctx: Ctx): Promise<void> {
  const request = await gate(ctx).waitForRequest();
  ctx.keys.push(request.headers.get('idempotency-key') ?? '');
  expect(ctx.keys.at(-1)).toMatch(/^[0-9a-f-]{36}$/);
}

/** What the server did with the current gesture. */
function acted(ctx: Ctx): void {
  if (ctx.action === 'createBatch' && ctx.current) ctx.current.state = 'in_batch';
  if (ctx.action === 'upload') ctx.settled = true;
}

defineModelTests<Ctx>(disbursementActionsModel, {
  setup: async () => {
    operators ??= theOperators();
    const ops = await operators;
    const ready = [await approved(ops), await approved(ops)];
    await approved(ops);
    const batch = await batchLeftovers(ops, ready);
    return {
      operators: ops,
      ready: ready.map((item) => ({ ...item, state: 'approved' as const })),
      batch,
      action: null,
      current: null,
      create: gateEndpoint('post', BATCHES),
      upload: gateEndpoint('post', `${BATCHES}:id/confirmation/`),
      keys: [],
      refusal: null,
      settled: false,
    };
  },
  render: (ctx) => {
    localStorage.setItem(ACCESS_TOKEN_KEY, ctx.operators.treasurer.access);
    setUser({ isAuthenticated: true, operatorRoles: ['tesoreria'] });
    renderApp('/operacion/dispersiones/');
  },
  states: {
    '#disbursement-actions.ready.idle': async ({ ctx }) => {
      await screen.findByRole('table', { name: 'Lotes SPEI' }, SERVER_WAIT);
      await expectReady(ctx);
      expect(screen.queryByRole('alert')).toBeNull();
      expect(screen.queryByRole('status')).toBeNull();
      expect(await batchOrder(ctx)).toBe(ctx.settled ? 'liquidada' : 'pendiente');
    },
    '#disbursement-actions.ready.succeeded': async ({ ctx, state }) => {
      const notice = await screen.findByRole('status', {}, SERVER_WAIT);
      expect(notice.textContent).toBe(state.context.outcome);
      await expectReady(ctx);
      expect(screen.queryByRole('alert')).toBeNull();
      if (ctx.action === 'createBatch') {
        expect(notice.textContent).toBe('Lote creado.');
        // The new batch opens with the advance's order.
        const orders = await screen.findByRole('table', { name: /^Órdenes SPEI del lote \d+$/ }, SERVER_WAIT);
        await waitFor(() => expect(orders.textContent).toContain(`F${ctx.current?.invoiceId}`), SERVER_WAIT);
      } else {
        expect(notice.textContent).toMatch(/^Resultado aplicado al lote/);
        expect(await batchOrder(ctx)).toBe('liquidada');
      }
    },
    '#disbursement-actions.ready.refused': async ({ ctx }) => {
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      expect(alert.textContent).toContain(ctx.refusal);
      await expectReady(ctx);
    },
    '#disbursement-actions.editing': async ({ ctx }) => {
      // The file chooser is open: nothing is sent yet, nothing is pending.
      const input = fileInput(ctx);
      expect(input.disabled).toBe(false);
      expect(screen.queryByLabelText('Procesando')).toBeNull();
      expect(screen.queryByRole('alert')).toBeNull();
      expect(screen.queryByRole('status')).toBeNull();
      expect(await batchOrder(ctx)).toBe('pendiente');
    },
    '#disbursement-actions.acting': async ({ ctx, state }) => {
      const intent = state.context.intent as BackOfficeIntent;
      await waitFor(() => {
        expect((screen.getByRole('button', { name: 'Crear lote' }) as HTMLButtonElement).disabled).toBe(true);
      }, SERVER_WAIT);
      if (intent.action === 'upload') {
        expect(fileInput(ctx).disabled).toBe(true);
        expect(screen.getByLabelText('Procesando')).toBeTruthy();
      }
      // The request is held: the server has done only what an earlier, lost request did.
      if (ctx.current) expect(await deskState(ctx, ctx.current)).toBe(ctx.current.state);
    },
    '#disbursement-actions.answerLost': async ({ ctx }) => {
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      expect(alert.textContent).toContain(NO_RESPONSE_MESSAGE);
      expect(within(alert).getByRole('button', { name: 'Reintentar' })).toBeTruthy();
      // The request reached the server before its answer was lost.
      if (ctx.action === 'createBatch') expect(await deskState(ctx, ctx.current as Item)).toBe('in_batch');
      else expect(await batchOrder(ctx)).toBe('liquidada');
    },
  },
  events: {
    'action.run': async ({ ctx, user }) => {
      const item = ctx.ready.find((candidate) => candidate.state === 'approved');
      if (!item) throw new Error('no approved advance left to batch');
      ctx.action = 'createBatch';
      ctx.current = item;
      await user.click(
        await screen.findByRole('checkbox', { name: `Seleccionar ${item.label}` }, SERVER_WAIT),
      );
      await user.click(screen.getByRole('button', { name: 'Crear lote' }));
      await recordKey(ctx);
      expect(ctx.create.bodies.at(-1)).toEqual({ invoice_ids: [item.invoiceId] });
    },
    'action.open': async ({ ctx, user }) => {
      ctx.action = 'upload';
      ctx.current = null;
      const name = `Órdenes SPEI del lote ${ctx.batch.id}`;
      if (!screen.queryByRole('table', { name })) {
        await user.click(
          await screen.findByRole('button', { name: `Ver órdenes del lote ${ctx.batch.id}` }, SERVER_WAIT),
        );
      }
      await screen.findByRole('table', { name }, SERVER_WAIT);
      await user.click(fileInput(ctx));
    },
    'action.submit': async ({ ctx, user }) => {
      const file = new File(
        [`clave_rastreo,estado,motivo\r\n${ctx.batch.clave},liquidada,\r\n`],
        'resultado.csv',
        {
          type: 'text/csv',
        },
      );
      await user.upload(fileInput(ctx), file);
      await recordKey(ctx);
    },
    'action.cancel': async ({ ctx, user }) => {
      const alert = screen.queryByRole('alert');
      // From the lost answer, 'Cancelar'; from the file chooser, closing it without a file.
      if (alert) await user.click(within(alert).getByRole('button', { name: 'Cancelar' }));
      else fireEvent(fileInput(ctx), new Event('cancel'));
    },
    'action.retry': async ({ ctx, user }) => {
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      await user.click(within(alert).getByRole('button', { name: 'Reintentar' }));
      await recordKey(ctx);
      // The retry of a lost answer is the same request: the same Idempotency-Key.
      expect(ctx.keys.at(-1)).toBe(ctx.keys.at(-2));
    },
    'xstate.done.actor.act': async ({ ctx }) => {
      await gate(ctx).pass();
      acted(ctx);
    },
    'xstate.error.actor.act': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number } };
      if (error.status === 0) {
        // The server acts, but its answer never reaches the browser.
        const answer = await forwardToServer(await gate(ctx).waitForRequest());
        expect(answer.status).toBeLessThan(300);
        acted(ctx);
        await gate(ctx).networkError();
        return;
      }
      if (ctx.action === 'upload') {
        // Who made the batch may not confirm it: the server's refusal, answered here.
        ctx.refusal = DESK_MESSAGES.sameTreasurer;
        await ctx.upload.respond(403, { detail: ctx.refusal });
        return;
      }
      // The other tesorería batched the advance first: the held request is refused.
      const item = ctx.current as Item;
      const first = await callServer('POST', BATCHES, {
        body: { invoice_ids: [item.invoiceId] },
        headers: bearer(ctx.operators.maker),
      });
      expect(first.status).toBe(201);
      item.state = 'in_batch';
      const { request, resolve } = await ctx.create.take();
      const answer = await forwardToServer(request);
      expect(answer.status).toBe(409);
      ctx.refusal = ((await answer.clone().json()) as { detail: string }).detail;
      resolve(answer);
    },
  },
});
