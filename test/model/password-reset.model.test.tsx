import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { ACCOUNT_MESSAGES } from '../../server/modules/accounts/messages';
import { PASSWORD_RESET_FAILED } from '../../src/machines/password-reset.machine';
import type { AppRouter } from '../../src/routes/-app';
import {
  db,
  ENDPOINT,
  emailedResetLink,
  passwordHashOf,
  rule,
  submitButton,
  USERNAME,
} from '../screens/password-reset.page';
import { SERVER_WAIT } from '../support/server-wait';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp } from './harness/render-app';
import { testApp } from './harness/test-server';
import { NEW_PASSWORD, passwordResetModel, REJECTED_BODY } from './password-reset.model';

// Real machine times: 3 s toast, 4 s to the login screen.

interface Ctx {
  call: ReturnType<typeof gateEndpoint>;
  link: string;
  token: string;
  passwordHash: string;
  router: AppRouter | null;
}

const passwordInput = () => screen.getByLabelText('Nueva contraseña') as HTMLInputElement;

async function canLogIn(password: string): Promise<boolean> {
  const response = await testApp().app.inject({
    method: 'POST',
    url: '/api/accounts/login/',
    payload: { username: USERNAME, password },
  });
  return response.statusCode === 200;
}

function errorOf(state: AnyMachineSnapshot): string {
  return (state.context as { error: string }).error;
}

defineModelTests<Ctx>(passwordResetModel, {
  setup: async () => ({
    ...(await emailedResetLink()),
    call: gateEndpoint('post', ENDPOINT),
    passwordHash: await passwordHashOf(USERNAME),
    router: null,
  }),
  render: (ctx) => {
    ctx.router = renderApp(ctx.link).router;
  },
  // A successful path changed the demo user's password; the next path starts from the seeded one.
  teardown: async (ctx) => {
    await db()
      .updateTable('users')
      .set({ password_hash: ctx.passwordHash })
      .where('username', '=', USERNAME)
      .execute();
  },
  states: {
    '#passwordReset.editing': async () => {
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Cambiar clave' }, SERVER_WAIT),
      ).toBeTruthy();
      await waitFor(() => expect(screen.queryAllByRole('alert')).toEqual([]), SERVER_WAIT);
      expect(passwordInput().disabled).toBe(false);
      expect(submitButton().disabled).toBe(false);
      expect(screen.getByRole('list', { name: 'Requisitos de la contraseña' }).children).toHaveLength(4);
    },
    '#passwordReset.submitting': async () => {
      await waitFor(() => expect(submitButton().disabled).toBe(true), SERVER_WAIT);
      expect(passwordInput().disabled).toBe(true);
    },
    '#passwordReset.done': async () => {
      // The server's message, then a way to go on at once; the password really changed.
      const status = await screen.findByRole('status', {}, SERVER_WAIT);
      expect(status.textContent).toContain(ACCOUNT_MESSAGES.passwordReset);
      expect(status.textContent).toContain('En unos segundos te llevaremos a la pantalla de ingreso');
      expect(within(status).getByRole('link', { name: 'Ingresar ahora' })).toBeTruthy();
      expect(screen.queryByLabelText('Nueva contraseña')).toBeNull();
      expect(await canLogIn(NEW_PASSWORD)).toBe(true);
    },
    '#passwordReset.failed': async ({ state }) => {
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      expect(alert.textContent).toBe(errorOf(state));
      expect([REJECTED_BODY.old_password[0], PASSWORD_RESET_FAILED]).toContain(alert.textContent);
      // What was typed stays for a correction; a new e-mail is one link away.
      expect(passwordInput().value).toBe(NEW_PASSWORD);
      expect(screen.getByRole('link', { name: 'Solicita un nuevo correo' })).toBeTruthy();
    },
    '#passwordReset.leaving': async ({ ctx }) => {
      // Spec §4: the login screen after 4 s, the spent link replaced in history.
      expect(await screen.findByRole('heading', { level: 1, name: 'Inicio' }, SERVER_WAIT)).toBeTruthy();
      expect(ctx.router?.state.location.pathname).toBe('/auth/ingresar/');
      expect(screen.getByLabelText('Usuario')).toBeTruthy();
    },
  },
  events: {
    'passwordReset.submit': async ({ user }) => {
      await user.clear(passwordInput());
      await user.type(passwordInput(), NEW_PASSWORD);
      expect(rule('minLength').dataset.status).toBe('met');
      expect(rule('notNumeric').dataset.status).toBe('met');
      await user.click(submitButton());
    },
    'passwordReset.dismiss': async ({ user }) => {
      const toast = (await screen.findByRole('alert', {}, SERVER_WAIT)).closest('.bp6-toast') as HTMLElement;
      await user.click(within(toast).getByRole('button', { name: 'Cerrar' }));
    },
    'xstate.done.actor.resetPassword': async ({ ctx }) => {
      await ctx.call.pass();
      expect(ctx.call.bodies.at(-1)).toEqual({ new_password: NEW_PASSWORD, token: ctx.token });
    },
    'xstate.error.actor.resetPassword': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number; body: unknown } };
      if (error.status === 0) await ctx.call.networkError();
      else await ctx.call.respond(error.status, error.body);
    },
    'xstate.after.TOAST_MS.passwordReset.failed': async () => {
      await waitFor(() => expect(screen.queryByRole('alert')).toBeNull(), SERVER_WAIT);
    },
    'xstate.after.REDIRECT_MS.passwordReset.done': async ({ ctx }) => {
      await waitFor(() => expect(ctx.router?.state.location.pathname).toBe('/auth/ingresar/'), SERVER_WAIT);
    },
  },
});
