import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { ACCOUNT_MESSAGES } from '../../server/modules/accounts/messages';
import { PASSWORD_RESET_FAILED } from '../../src/machines/password-reset.machine';
import type { AppRouter } from '../../src/routes/-app';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp } from './harness/render-app';
import { testApp } from './harness/test-server';
import { NEW_PASSWORD, passwordResetModel, REJECTED_BODY } from './password-reset.model';

const USERNAME = 'proveedor.demo';
const EMAIL = 'proveedor.demo@flujo.mx';
const ENDPOINT = '/api/users/reset-password/';
const LINK = /\/auth\/reiniciar-contrasena\/\?token=[^\s"'<>]+/;
// Real machine times: 3 s toast, 4 s to the login screen.
const TOAST_WAIT = { timeout: 5000 };
const REDIRECT_WAIT = { timeout: 6500 };

interface Ctx {
  call: ReturnType<typeof gateEndpoint>;
  link: string;
  token: string;
  passwordHash: string;
  router: AppRouter | null;
}

const db = () => testApp().database.db;
const submitButton = () => screen.getByRole('button', { name: /Guardar contraseña/ }) as HTMLButtonElement;
const passwordInput = () => screen.getByLabelText('Nueva contraseña') as HTMLInputElement;
const rule = (id: string) => document.querySelector(`[data-rule="${id}"]`) as HTMLElement;

/**
 * What the user clicks: the real server sends the reset e-mail (mail_outbox) and the test reads its link,
 * as the browser test does. The server keeps only a hash of the token, so the e-mail is the one source.
 */
async function emailedResetLink(): Promise<{ link: string; token: string }> {
  await db().deleteFrom('throttle_hits').execute();
  const response = await testApp().app.inject({
    method: 'POST',
    url: '/api/users/request-reset-password/',
    payload: { email: EMAIL },
  });
  if (response.statusCode !== 200) throw new Error(`reset request failed: ${response.body}`);
  const mail = await db()
    .selectFrom('mail_outbox')
    .select('body_text')
    .where('recipient', '=', EMAIL)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const link = LINK.exec(mail.body_text)?.[0];
  if (!link) throw new Error(`no reset link in the e-mail: ${mail.body_text}`);
  const token = new URLSearchParams(link.split('?')[1]).get('token') ?? '';
  return { link, token };
}

async function passwordHashOf(username: string): Promise<string> {
  const row = await db()
    .selectFrom('users')
    .select('password_hash')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return row.password_hash;
}

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
      expect(await screen.findByRole('heading', { level: 1, name: 'Cambiar clave' })).toBeTruthy();
      await waitFor(() => expect(screen.queryAllByRole('alert')).toEqual([]));
      expect(passwordInput().disabled).toBe(false);
      expect(submitButton().disabled).toBe(false);
      expect(screen.getByRole('list', { name: 'Requisitos de la contraseña' }).children).toHaveLength(4);
    },
    '#passwordReset.submitting': async () => {
      await waitFor(() => expect(submitButton().disabled).toBe(true));
      expect(passwordInput().disabled).toBe(true);
    },
    '#passwordReset.done': async () => {
      // The server's message, then a way to go on at once; the password really changed.
      const status = await screen.findByRole('status');
      expect(status.textContent).toContain(ACCOUNT_MESSAGES.passwordReset);
      expect(status.textContent).toContain('En unos segundos te llevaremos a la pantalla de ingreso');
      expect(within(status).getByRole('link', { name: 'Ingresar ahora' })).toBeTruthy();
      expect(screen.queryByLabelText('Nueva contraseña')).toBeNull();
      expect(await canLogIn(NEW_PASSWORD)).toBe(true);
    },
    '#passwordReset.failed': async ({ state }) => {
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toBe(errorOf(state));
      expect([REJECTED_BODY.old_password[0], PASSWORD_RESET_FAILED]).toContain(alert.textContent);
      // What was typed stays for a correction; a new e-mail is one link away.
      expect(passwordInput().value).toBe(NEW_PASSWORD);
      expect(screen.getByRole('link', { name: 'Solicita un nuevo correo' })).toBeTruthy();
    },
    '#passwordReset.leaving': async ({ ctx }) => {
      // Spec §4: the login screen after 4 s, the spent link replaced in history.
      expect(await screen.findByRole('heading', { level: 1, name: 'Inicio' })).toBeTruthy();
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
      const toast = (await screen.findByRole('alert')).closest('.bp6-toast') as HTMLElement;
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
      await waitFor(() => expect(screen.queryByRole('alert')).toBeNull(), TOAST_WAIT);
    },
    'xstate.after.REDIRECT_MS.passwordReset.done': async ({ ctx }) => {
      await waitFor(() => expect(ctx.router?.state.location.pathname).toBe('/auth/ingresar/'), REDIRECT_WAIT);
    },
  },
});

describe('password-reset (page)', () => {
  it('turns the first two rules red while they are broken, from the domain rule (spec §5)', async () => {
    const user = userEvent.setup();
    renderApp('/auth/reiniciar-contrasena/?token=abc');
    const input = (await screen.findByLabelText('Nueva contraseña')) as HTMLInputElement;
    const statuses = () =>
      ['minLength', 'notNumeric', 'notSimilar', 'notCommon'].map((id) => rule(id).dataset.status);

    expect(statuses()).toEqual(['hint', 'hint', 'hint', 'hint']);
    await user.type(input, '1234');
    expect(statuses()).toEqual(['violated', 'violated', 'hint', 'hint']);
    expect(rule('minLength').className).toContain('bp6-intent-danger');
    expect(rule('minLength').textContent).toContain('(no se cumple)');
    await user.type(input, '5678');
    expect(statuses()).toEqual(['met', 'violated', 'hint', 'hint']);
    await user.type(input, 'x');
    expect(statuses()).toEqual(['met', 'met', 'hint', 'hint']);
    expect(input.getAttribute('aria-describedby')).toBe(rule('minLength').parentElement?.id);
  });

  it('does not send a password the rules reject', async () => {
    const user = userEvent.setup();
    const call = gateEndpoint('post', ENDPOINT);
    renderApp('/auth/reiniciar-contrasena/?token=abc');
    await user.type(await screen.findByLabelText('Nueva contraseña'), '12345678');
    await user.click(submitButton());
    expect(
      await screen.findByText('Su contraseña no puede ser completamente numérica.', {
        selector: '.bp6-form-helper-text',
      }),
    ).toBeTruthy();
    expect(call.bodies).toEqual([]);
  });

  it('explains a link without its token and offers a new e-mail', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/auth/reiniciar-contrasena/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Cambiar clave' })).toBeTruthy();
    expect(screen.getByText('El enlace no es válido')).toBeTruthy();
    expect(screen.queryByLabelText('Nueva contraseña')).toBeNull();
    await user.click(screen.getByRole('link', { name: 'Solicitar un nuevo correo de restablecimiento' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/recuperar-contrasena/'));
  });

  it('refuses a spent link with the server message, through the real server (single use)', async () => {
    const { link, token } = await emailedResetLink();
    const hash = await passwordHashOf(USERNAME);
    try {
      const first = await testApp().app.inject({
        method: 'POST',
        url: ENDPOINT,
        payload: { new_password: NEW_PASSWORD, token },
      });
      expect(first.statusCode).toBe(200);
      const user = userEvent.setup();
      const { router } = renderApp(link);
      await user.type(await screen.findByLabelText('Nueva contraseña'), 'Otra-Clave-Distinta-9');
      await user.click(submitButton());
      // The server lists its reason under old_password, which is what the screen shows (spec §8).
      expect((await screen.findByRole('alert')).textContent).toBe(ACCOUNT_MESSAGES.resetLinkInvalid);
      expect(router.state.location.pathname).toBe('/auth/reiniciar-contrasena/');
    } finally {
      await db().updateTable('users').set({ password_hash: hash }).where('username', '=', USERNAME).execute();
    }
  });
});
