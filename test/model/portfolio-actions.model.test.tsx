import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import { DEMO_CORPORATE } from '../../server/seed/demo-world';
import { ACTION_FAILED, NO_RESPONSE_MESSAGE } from '../../src/domain/call-failure';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY } from '../../src/stores/storage-keys';
import { setUser } from '../../src/stores/user.store';
import { PORTFOLIO_TEXTS } from '../../src/views/operator/portfolio/portfolio-page';
import { SERVER_WAIT } from '../support/server-wait';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp } from './harness/render-app';
import { forwardToServer, testApp } from './harness/test-server';
import { world } from './harness/world';
import { NOTE_REFUSAL, portfolioActionsModel } from './portfolio-actions.model';

// Each path records one action in the demo corporate's collection log through 'Registrar gestión' on
// /operacion/cartera/?corporativo=<id>, against the real server behind MSW (in process: it reads the buyer's id).

interface Ctx {
  corporateId: number;
  note: string;
  save: ReturnType<typeof gateEndpoint>;
  fault: number | null;
}

let sequence = 0;
const dialog = () => screen.findByRole('dialog', {}, SERVER_WAIT);

async function expectNoDialog(): Promise<void> {
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SERVER_WAIT);
}

defineModelTests<Ctx>(portfolioActionsModel, {
  setup: async () => {
    const session = await world.operatorSession(['analista']);
    localStorage.setItem(ACCESS_TOKEN_KEY, session.access);
    localStorage.setItem(REFRESH_TOKEN_KEY, session.refresh);
    setUser({ isAuthenticated: true, operatorRoles: ['analista'] });
    const corporate = await testApp()
      .database.db.selectFrom('companies')
      .select('id')
      .where('rfc', '=', DEMO_CORPORATE.rfc)
      .executeTakeFirstOrThrow();
    sequence += 1;
    return {
      corporateId: corporate.id,
      note: `Llamada del modelo ${process.pid}-${sequence}`,
      save: gateEndpoint('post', `/api/operator/corporates/${corporate.id}/collection-log/`),
      fault: null,
    };
  },
  render: (ctx) => {
    renderApp(`/operacion/cartera/?corporativo=${ctx.corporateId}`);
  },
  states: {
    '#portfolio-actions.ready.idle': async () => {
      expect(await screen.findByRole('button', { name: PORTFOLIO_TEXTS.record }, SERVER_WAIT)).toBeTruthy();
      await expectNoDialog();
      expect(screen.queryByRole('alert')).toBeNull();
    },
    '#portfolio-actions.ready.succeeded': async ({ ctx }) => {
      await expectNoDialog();
      const notice = await screen.findByRole('status', {}, SERVER_WAIT);
      expect(notice.textContent).toContain(PORTFOLIO_TEXTS.recorded);
      // The log was read again: the entry, with who recorded it.
      const table = await screen.findByRole('table', { name: PORTFOLIO_TEXTS.logTitle }, SERVER_WAIT);
      await waitFor(() => expect(table.textContent).toContain(ctx.note), SERVER_WAIT);
    },
    '#portfolio-actions.ready.refused': async () => {
      await expectNoDialog();
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      expect(alert.textContent).toContain(ACTION_FAILED);
    },
    '#portfolio-actions.editing': async ({ ctx }) => {
      const open = await dialog();
      if (ctx.fault === 400) expect(within(open).getByText(NOTE_REFUSAL.note[0] as string)).toBeTruthy();
    },
    '#portfolio-actions.acting': async () => {
      const open = await dialog();
      expect(
        (within(open).getByRole('button', { name: PORTFOLIO_TEXTS.cancel }) as HTMLButtonElement).disabled,
      ).toBe(true);
    },
    '#portfolio-actions.answerLost': async () => {
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      expect(alert.textContent).toContain(NO_RESPONSE_MESSAGE);
    },
  },
  events: {
    'action.open': async ({ user }) => {
      await user.click(await screen.findByRole('button', { name: PORTFOLIO_TEXTS.record }, SERVER_WAIT));
      await dialog();
    },
    'action.submit': async ({ ctx, user }) => {
      const open = await dialog();
      const note = within(open).getByLabelText(PORTFOLIO_TEXTS.note);
      await user.clear(note);
      await user.type(note, ctx.note);
      ctx.fault = null;
      await user.click(within(open).getByRole('button', { name: PORTFOLIO_TEXTS.record }));
      await ctx.save.waitForRequest();
      expect(ctx.save.bodies.at(-1)).toMatchObject({ action: 'llamada', note: ctx.note });
    },
    'xstate.done.actor.act': async ({ ctx }) => {
      await ctx.save.pass();
    },
    'xstate.error.actor.act': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number } };
      ctx.fault = error.status;
      if (error.status === 0) {
        const answer = await forwardToServer(await ctx.save.waitForRequest());
        expect(answer.status).toBeLessThan(300);
        await ctx.save.networkError();
      } else if (error.status === 400) {
        await ctx.save.respond(400, NOTE_REFUSAL);
      } else {
        await ctx.save.respond(500, { detail: 'Error interno' });
      }
    },
    'action.retry': async ({ ctx, user }) => {
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      await user.click(within(alert).getByRole('button', { name: 'Reintentar' }));
      await ctx.save.waitForRequest();
    },
    'action.cancel': async ({ user }) => {
      const open = screen.queryByRole('dialog');
      if (open) await user.click(within(open).getByRole('button', { name: PORTFOLIO_TEXTS.cancel }));
      else {
        const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
        await user.click(within(alert).getByRole('button', { name: 'Cancelar' }));
      }
    },
    'outcome.dismiss': async ({ user }) => {
      await user.click(await screen.findByRole('button', { name: 'Cerrar aviso' }, SERVER_WAIT));
    },
  },
});
