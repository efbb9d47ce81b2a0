import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import { DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { NO_RESPONSE_MESSAGE } from '../../src/domain/call-failure';
import { maskClabe } from '../../src/domain/clabe';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { formatMxn, parseMoney } from '../../src/domain/money';
import { DESK_BODY_MESSAGES, type DeskItem } from '../../src/domain/schemas/control-desk';
import type { BackOfficeIntent } from '../../src/machines/back-office-action';
import { ACCESS_TOKEN_KEY } from '../../src/stores/storage-keys';
import { setUser } from '../../src/stores/user.store';
import { DESK_PROVIDER_CLABE, type DeskAdvance, deskWorld, queuedAdvance } from '../support/control-desk';
import type { OperatorSession } from '../support/operator';
import { SERVER_WAIT } from '../support/server-wait';
import { DESK_ACTIONS_REJECT_REASON, deskActionsModel } from './desk-actions.model';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp } from './harness/render-app';
import { callServer, forwardToServer, testApp } from './harness/test-server';
import { world } from './harness/world';

// /operacion/mesa/ driven by its desk-actions machine: each path gets two advances of its own on the desk (the
// second for a gesture after the first was decided), an aprobador signed in, and the real server behind MSW. The
// approve and reject calls are held until the model says how they end.

type DeskState = 'queued' | 'approved' | 'rejected';

interface Ctx {
  operator: OperatorSession;
  advances: (DeskAdvance & { state: DeskState })[];
  /** The advance of the current gesture. */
  current: (DeskAdvance & { state: DeskState }) | null;
  action: 'approve' | 'reject' | null;
  approve: ReturnType<typeof gateEndpoint>;
  reject: ReturnType<typeof gateEndpoint>;
  /** Idempotency-Key of each approval request, in order. */
  keys: string[];
  /** The server's refusal, as it answered. */
  refusal: string | null;
}

let aprobador: Promise<OperatorSession> | null = null;

const db = () => testApp().database.db;
const deskPath = (id: number) => `/api/operator/desk/${id}/`;

function row(advance: DeskAdvance): HTMLElement {
  const table = screen.getByRole('table', { name: 'Adelantos en la mesa de control' });
  return within(table).getByText(advance.label).closest('tr') as HTMLElement;
}

async function findRow(advance: DeskAdvance): Promise<HTMLElement> {
  await screen.findByRole('table', { name: 'Adelantos en la mesa de control' }, SERVER_WAIT);
  return waitFor(() => row(advance), SERVER_WAIT);
}

async function serverItem(ctx: Ctx, advance: DeskAdvance): Promise<DeskItem> {
  const answer = await callServer('GET', deskPath(advance.invoiceId), {
    headers: { authorization: `Bearer ${ctx.operator.access}` },
  });
  expect(answer.status).toBe(200);
  return answer.body as DeskItem;
}

async function serverState(ctx: Ctx, advance: DeskAdvance): Promise<string> {
  return (await serverItem(ctx, advance)).state;
}

/** The open dialog's confirming button: «Aprobar» or «Rechazar». */
function confirmButton(dialog: HTMLElement, ctx: Ctx): HTMLButtonElement {
  const name = ctx.action === 'approve' ? 'Aprobar' : 'Rechazar';
  return within(dialog).getByRole('button', { name }) as HTMLButtonElement;
}

/** Every advance of the path shows what the server holds: 'Aprobar' only while queued, the reason once rejected. */
async function expectRows(ctx: Ctx): Promise<void> {
  for (const advance of ctx.advances) {
    expect(await serverState(ctx, advance)).toBe(advance.state);
    await waitFor(() => {
      const line = row(advance);
      const approve = within(line).queryByRole('button', { name: `Aprobar ${advance.label}` });
      expect(approve === null).toBe(advance.state !== 'queued');
      if (advance.state === 'rejected') expect(within(line).getByText(/^Rechazado/)).toBeTruthy();
    }, SERVER_WAIT);
  }
}

function next(ctx: Ctx, action: 'approve' | 'reject'): Ctx['advances'][number] {
  const advance = ctx.advances.find((candidate) => candidate.state === 'queued');
  if (!advance) throw new Error(`no queued advance left to ${action}`);
  ctx.current = advance;
  ctx.action = action;
  return advance;
}

const gate = (ctx: Ctx) => (ctx.action === 'approve' ? ctx.approve : ctx.reject);

/** What the server did with the current gesture: the advance's new state. */
function acted(ctx: Ctx): void {
  if (ctx.current) ctx.current.state = ctx.action === 'approve' ? 'approved' : 'rejected';
}

async function recordKey(ctx: Ctx): Promise<void> {
  const request = await ctx.approve.waitForRequest();
  ctx.keys.push(request.headers.get('idempotency-key') ?? '');
  expect(ctx.keys.at(-1)).toMatch(/^[0-9a-f-]{36}$/);
}

/**
 * A path's advances leave the desk when it ends (a test world's shortcut, not the lifecycle): the desk lists the
 * oldest first, 20 a page, and every path adds two, so the next path's advances stay on the first page.
 */
async function clearDesk(ctx: Ctx): Promise<void> {
  const ids = ctx.advances.map((advance) => advance.invoiceId);
  await db().deleteFrom('desk_items').where('invoice_id', 'in', ids).execute();
  await db()
    .updateTable('invoices')
    .set({ status: InvoiceStatus.APPROVED })
    .where('id', 'in', ids)
    .where('status', '=', InvoiceStatus.PROCESS)
    .execute();
}

defineModelTests<Ctx>(deskActionsModel, {
  teardown: clearDesk,
  setup: async () => {
    aprobador ??= deskWorld(db()).then(() => world.operatorSession(['aprobador']));
    const operator = await aprobador;
    const advances = [];
    for (let i = 0; i < 2; i++) advances.push({ ...(await queuedAdvance(db())), state: 'queued' as const });
    return {
      operator,
      advances,
      current: null,
      action: null,
      approve: gateEndpoint('post', '/api/operator/desk/:id/approve/'),
      reject: gateEndpoint('post', '/api/operator/desk/:id/reject/'),
      keys: [],
      refusal: null,
    };
  },
  render: (ctx) => {
    localStorage.setItem(ACCESS_TOKEN_KEY, ctx.operator.access);
    setUser({ isAuthenticated: true, operatorRoles: ['aprobador'] });
    renderApp('/operacion/mesa/');
  },
  states: {
    '#desk-actions.ready.idle': async ({ ctx }) => {
      await findRow(ctx.advances[0] as DeskAdvance);
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SERVER_WAIT);
      expect(screen.queryByRole('alert')).toBeNull();
      await expectRows(ctx);
    },
    '#desk-actions.ready.succeeded': async ({ ctx }) => {
      await findRow(ctx.current as DeskAdvance);
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SERVER_WAIT);
      expect(screen.queryByRole('alert')).toBeNull();
      // What happened, in words, until «Cerrar aviso».
      const done = ctx.action === 'approve' ? 'aprobado' : 'rechazado';
      const notice = await screen.findByRole('status', {}, SERVER_WAIT);
      expect(notice.textContent).toContain(`Adelanto ${ctx.current?.label} ${done}`);
      expect(screen.getByRole('button', { name: 'Cerrar aviso' })).toBeTruthy();
      await expectRows(ctx);
      // However the approval went, one key.
      expect(new Set(ctx.keys).size).toBeLessThanOrEqual(1);
    },
    '#desk-actions.ready.refused': async ({ ctx }) => {
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      expect(alert.textContent).toContain(ctx.refusal);
      await expectRows(ctx);
    },
    '#desk-actions.editing': async ({ ctx }) => {
      const dialog = await screen.findByRole('dialog', {}, SERVER_WAIT);
      const current = ctx.current as DeskAdvance;
      expect(confirmButton(dialog, ctx).disabled).toBe(false);
      if (ctx.action === 'approve') {
        // Before money is cleared: the amounts with their currency, the beneficiary and its account, masked.
        expect(dialog.textContent).toContain(`Aprobar el adelanto ${current.label}`);
        const item = await serverItem(ctx, current);
        expect(dialog.textContent).toContain(formatMxn(parseMoney(item.amount)));
        expect(dialog.textContent).toContain(formatMxn(parseMoney(item.payout as string)));
        expect(dialog.textContent).toContain(DEMO_PROVIDERS[0].name);
        expect(dialog.textContent).toContain(maskClabe(DESK_PROVIDER_CLABE));
        expect(dialog.textContent).not.toContain(DESK_PROVIDER_CLABE);
      } else {
        expect(dialog.textContent).toContain(`Rechazar el adelanto ${current.label}`);
        // The reason is required, and the field says so before the first try.
        const reason = within(dialog).getByLabelText(/^Motivo/) as HTMLTextAreaElement;
        expect(reason.value).toBe('');
        expect(reason.getAttribute('aria-describedby')).toBe('mesa-motivo-ayuda');
        expect(dialog.textContent).toContain('Obligatorio para rechazar.');
      }
    },
    '#desk-actions.acting': async ({ ctx, state }) => {
      const intent = state.context.intent as BackOfficeIntent;
      const current = ctx.current as DeskAdvance;
      expect(intent.action).toBe(ctx.action);
      // The dialog stays while the call is out, its gesture disabled.
      const dialog = await screen.findByRole('dialog', {}, SERVER_WAIT);
      await waitFor(() => expect(confirmButton(dialog, ctx).disabled).toBe(true), SERVER_WAIT);
      // The request is held: the server has not decided yet unless an earlier, lost request did.
      expect(await serverState(ctx, current)).toBe((ctx.current as Ctx['advances'][number]).state);
    },
    '#desk-actions.answerLost': async ({ ctx }) => {
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      expect(alert.textContent).toContain(NO_RESPONSE_MESSAGE);
      expect(within(alert).getByRole('button', { name: 'Reintentar' })).toBeTruthy();
      // The request reached the server before its answer was lost.
      expect(await serverState(ctx, ctx.current as DeskAdvance)).toBe(ctx.current?.state);
    },
  },
  events: {
    'action.open': async ({ ctx, user, event }) => {
      const { intent } = event as unknown as { intent: BackOfficeIntent };
      const action = intent.action === 'approve' ? 'approve' : 'reject';
      const advance = next(ctx, action);
      const gesture = action === 'approve' ? 'Aprobar' : 'Rechazar';
      await user.click(
        within(await findRow(advance)).getByRole('button', { name: `${gesture} ${advance.label}` }),
      );
    },
    'action.submit': async ({ ctx, user }) => {
      const dialog = await screen.findByRole('dialog', {}, SERVER_WAIT);
      if (ctx.action === 'approve') {
        await user.click(confirmButton(dialog, ctx));
        await recordKey(ctx);
        return;
      }
      // An empty reason is refused at the field with the server's own message, and nothing is sent.
      const sent = ctx.reject.bodies.length;
      await user.click(confirmButton(dialog, ctx));
      expect(await within(dialog).findByText(DESK_BODY_MESSAGES.reasonRequired)).toBeTruthy();
      expect(ctx.reject.bodies).toHaveLength(sent);
      await user.type(within(dialog).getByLabelText(/^Motivo/), DESK_ACTIONS_REJECT_REASON);
      await user.click(confirmButton(dialog, ctx));
      await ctx.reject.waitForRequest();
      expect(ctx.reject.bodies.at(-1)).toEqual({ reason: DESK_ACTIONS_REJECT_REASON });
    },
    'outcome.dismiss': async ({ user }) => {
      await user.click(await screen.findByRole('button', { name: 'Cerrar aviso' }, SERVER_WAIT));
    },
    'action.cancel': async ({ user }) => {
      const dialog = screen.queryByRole('dialog');
      const alert = screen.queryByRole('alert');
      const where = (dialog ?? alert) as HTMLElement;
      await user.click(within(where).getByRole('button', { name: 'Cancelar' }));
    },
    'action.retry': async ({ ctx, user }) => {
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      await user.click(within(alert).getByRole('button', { name: 'Reintentar' }));
      if (ctx.action === 'approve') {
        await recordKey(ctx);
        // The retry of a lost answer is the same request: the same Idempotency-Key.
        expect(ctx.keys.at(-1)).toBe(ctx.keys.at(-2));
      } else {
        await ctx.reject.waitForRequest();
      }
    },
    'xstate.done.actor.act': async ({ ctx }) => {
      await gate(ctx).pass();
      acted(ctx);
    },
    'xstate.error.actor.act': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number } };
      const current = ctx.current as DeskAdvance;
      if (error.status === 0) {
        // The server decides, but its answer never reaches the browser.
        const answer = await forwardToServer(await gate(ctx).waitForRequest());
        expect(answer.status).toBe(200);
        acted(ctx);
        await gate(ctx).networkError();
        return;
      }
      // Another aprobador rejected the advance first: the held request is refused (no longer in the queue).
      const first = await callServer('POST', `${deskPath(current.invoiceId)}reject/`, {
        body: { reason: 'Lo decidió otra sesión' },
        headers: { authorization: `Bearer ${ctx.operator.access}` },
      });
      expect(first.status).toBe(200);
      (ctx.current as Ctx['advances'][number]).state = 'rejected';
      const { request, resolve } = await gate(ctx).take();
      const answer = await forwardToServer(request);
      expect(answer.status).toBe(404);
      ctx.refusal = ((await answer.clone().json()) as { detail: string }).detail;
      resolve(answer);
    },
  },
});
