import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import { ACTION_FAILED, NO_RESPONSE_MESSAGE } from '../../src/domain/call-failure';
import { EXPOSURE_MESSAGES } from '../../src/domain/schemas/exposure';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY } from '../../src/stores/storage-keys';
import { setUser } from '../../src/stores/user.store';
import { EXPOSURE_OUTCOMES, EXPOSURE_TEXTS } from '../../src/views/operator/exposure/exposure-page';
import { SERVER_WAIT } from '../support/server-wait';
import { exposureActionsModel, VALUE_REFUSED_BODY } from './exposure-actions.model';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp } from './harness/render-app';
import { forwardToServer, testApp } from './harness/test-server';
import { world } from './harness/world';

interface Ctx {
  save: ReturnType<typeof gateEndpoint>;
  fault: number | null;
  keys: string[];
}

const dialog = () => screen.findByRole('dialog', {}, SERVER_WAIT);

async function expectNoDialog(): Promise<void> {
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SERVER_WAIT);
}

defineModelTests<Ctx>(exposureActionsModel, {
  setup: async () => {
    // One pending proposal per subject: each path starts with none.
    await testApp().database.db.deleteFrom('concentration_caps').where('status', '=', 'propuesto').execute();
    const session = await world.operatorSession(['analista']);
    localStorage.setItem(ACCESS_TOKEN_KEY, session.access);
    localStorage.setItem(REFRESH_TOKEN_KEY, session.refresh);
    setUser({ isAuthenticated: true, operatorRoles: ['analista'] });
    return { save: gateEndpoint('post', '/api/operator/exposure/caps/'), fault: null, keys: [] };
  },
  render: () => {
    renderApp('/operacion/exposicion/');
  },
  states: {
    '#exposure-actions.ready.idle': async () => {
      expect(
        await screen.findByRole('heading', { level: 2, name: 'Topes de concentración' }, SERVER_WAIT),
      ).toBeTruthy();
      await expectNoDialog();
      expect(screen.queryByRole('alert')).toBeNull();
    },
    '#exposure-actions.ready.succeeded': async () => {
      await expectNoDialog();
      const notice = await screen.findByRole('status', {}, SERVER_WAIT);
      expect(notice.textContent).toContain(EXPOSURE_OUTCOMES.propose);
      // The caps were read again: the proposal is listed, waiting for another aprobador.
      const table = await screen.findByRole('table', { name: 'Topes de concentración' }, SERVER_WAIT);
      await waitFor(
        () => expect(within(table).getAllByText('Propuesto').length).toBeGreaterThan(0),
        SERVER_WAIT,
      );
    },
    '#exposure-actions.ready.refused': async () => {
      await expectNoDialog();
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      expect(alert.textContent).toContain(ACTION_FAILED);
      expect(screen.getByRole('button', { name: 'Cerrar aviso' })).toBeTruthy();
    },
    '#exposure-actions.editing': async ({ ctx }) => {
      const open = await dialog();
      const send = within(open).getByRole('button', { name: 'Enviar a aprobación' }) as HTMLButtonElement;
      await waitFor(() => expect(send.disabled).toBe(false), SERVER_WAIT);
      if (ctx.fault === 400) expect(within(open).getByText(EXPOSURE_MESSAGES.percentTooLarge)).toBeTruthy();
      else expect(within(open).queryByRole('alert')).toBeNull();
    },
    '#exposure-actions.acting': async () => {
      const open = await dialog();
      await waitFor(
        () =>
          expect((within(open).getByRole('button', { name: 'Cancelar' }) as HTMLButtonElement).disabled).toBe(
            true,
          ),
        SERVER_WAIT,
      );
    },
    '#exposure-actions.answerLost': async ({ ctx }) => {
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      expect(alert.textContent).toContain(NO_RESPONSE_MESSAGE);
      expect(await screen.findByRole('button', { name: 'Reintentar' }, SERVER_WAIT)).toBeTruthy();
      expect(new Set(ctx.keys).size).toBeLessThanOrEqual(1);
    },
  },
  events: {
    'action.open': async ({ user }) => {
      await user.click(await screen.findByRole('button', { name: EXPOSURE_TEXTS.propose }, SERVER_WAIT));
      await dialog();
    },
    'action.submit': async ({ ctx, user }) => {
      const open = await dialog();
      const value = within(open).getByLabelText(/Monto máximo/);
      await user.clear(value);
      await user.type(value, '5000000');
      ctx.fault = null;
      await user.click(within(open).getByRole('button', { name: 'Enviar a aprobación' }));
      await ctx.save.waitForRequest();
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
        await ctx.save.respond(400, VALUE_REFUSED_BODY);
      } else {
        await ctx.save.respond(500, { detail: 'Error interno' });
      }
    },
    'action.retry': async ({ ctx, user }) => {
      await user.click(await screen.findByRole('button', { name: 'Reintentar' }, SERVER_WAIT));
      await ctx.save.waitForRequest();
    },
    'action.cancel': async ({ user }) => {
      const buttons = await screen.findAllByRole('button', { name: 'Cancelar' }, SERVER_WAIT);
      await user.click(buttons.at(-1) as HTMLElement);
    },
    'outcome.dismiss': async ({ user }) => {
      await user.click(await screen.findByRole('button', { name: 'Cerrar aviso' }, SERVER_WAIT));
    },
  },
});
