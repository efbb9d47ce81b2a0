import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import { fromPromise } from 'xstate';
import { wiredSignUpMachine } from '../../src/routes/-machines';
import { solveAltcha } from '../support/accounts';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp } from './harness/render-app';
import { testApp } from './harness/test-server';
import { SIGN_UP_VALUES, signUpModel, USERNAME_TAKEN } from './sign-up.model';

const TOAST_MS = 700;
let sequence = 0;

const LABELS: Record<Exclude<keyof typeof SIGN_UP_VALUES, 'receive_notification'>, string> = {
  name: 'Nombre',
  last_name: 'Apellido',
  username: 'Usuario',
  mobile_phone: 'Teléfono celular',
  company: 'Empresa',
  email: 'Correo electrónico',
  password1: 'Contraseña',
  password2: 'Confirmar contraseña',
};

interface Ctx {
  register: ReturnType<typeof gateEndpoint>;
  /** Each time the form asks for a CAPTCHA token, held until the model's executor answers it. */
  captchaRequests: { resolve: (token: string) => void; reject: (error: Error) => void }[];
  username: string;
}

async function nextCaptchaRequest(ctx: Ctx) {
  await waitFor(() => expect(ctx.captchaRequests.length).toBeGreaterThan(0));
  return ctx.captchaRequests.shift()!;
}

// The ALTCHA widget stays on the page (and, under happy-dom's non-secure context, shows its own alert);
// the machine's feedback is the toast.
const toastAlerts = () => screen.queryAllByRole('alert').filter((alert) => alert.closest('.bp6-toast'));
const findToast = async () => {
  await waitFor(() => expect(toastAlerts().length).toBeGreaterThan(0));
  return toastAlerts()[0]!;
};

const submitButton = () => screen.getByRole('button', { name: /Siguiente/ }) as HTMLButtonElement;

defineModelTests<Ctx>(signUpModel, {
  setup: () => ({
    register: gateEndpoint('post', '/api/accounts/register/'),
    captchaRequests: [],
    username: '',
  }),
  render: (ctx) => {
    // The ALTCHA widget needs a real browser (the e2e test uses it); here the 'register' token comes from
    // solving the real server's challenge with altcha-lib, released when the model says so.
    const signUp = wiredSignUpMachine.provide({
      actors: {
        obtainCaptcha: fromPromise<string>(
          () =>
            new Promise<string>((resolve, reject) => {
              ctx.captchaRequests.push({ resolve, reject });
            }),
        ),
      },
      delays: { TOAST_MS },
    });
    renderApp('/auth/registro/', { machines: { signUp } });
  },
  states: {
    '#signUp.editing': async () => {
      expect(await screen.findByRole('heading', { level: 1, name: 'Crea tu perfil' })).toBeTruthy();
      await waitFor(() => expect(submitButton().disabled).toBe(false));
      await waitFor(() => expect(toastAlerts()).toEqual([]));
    },
    '#signUp.verifying': async () => {
      expect(await screen.findByText('Verificando que no eres un robot…')).toBeTruthy();
      expect(submitButton().disabled).toBe(true);
    },
    '#signUp.submitting': async () => {
      await waitFor(() => expect(screen.queryByText('Verificando que no eres un robot…')).toBeNull());
      expect(submitButton().disabled).toBe(true);
    },
    '#signUp.failed': async ({ state }) => {
      const { message, fieldErrors } = state.context as {
        message: string;
        fieldErrors: Record<string, string[]>;
      };
      expect((await findToast()).textContent).toBe(message);
      // A server field error also sits under its field; nothing typed is lost.
      for (const [field, [first]] of Object.entries(fieldErrors)) {
        expect(screen.getAllByText(first!).length).toBeGreaterThan(field ? 1 : 0);
      }
      expect((screen.getByLabelText('Empresa') as HTMLInputElement).value).toBe(SIGN_UP_VALUES.company);
    },
    '#signUp.registered': async ({ ctx }) => {
      expect(await screen.findByRole('status')).toBeTruthy();
      expect(screen.getByRole('status').textContent).toContain('Tu cuenta se creó correctamente');
      const user = await testApp()
        .database.db.selectFrom('users')
        .select('username')
        .where('username', '=', ctx.username)
        .executeTakeFirst();
      expect(user?.username).toBe(ctx.username);
    },
  },
  events: {
    'signUp.submit': async ({ ctx, user }) => {
      sequence += 1;
      ctx.username = `ana.quintero.${sequence}`;
      const values = { ...SIGN_UP_VALUES, username: ctx.username, email: `ana.${sequence}@ejemplo.mx` };
      for (const [field, label] of Object.entries(LABELS)) {
        const input = screen.getByLabelText(label, { exact: true });
        await user.clear(input);
        await user.click(input);
        await user.paste(values[field as keyof typeof LABELS]);
      }
      await user.click(submitButton());
    },
    'signUp.dismiss': async ({ user }) => {
      const toast = (await findToast()).closest('.bp6-toast') as HTMLElement;
      await user.click(within(toast).getByRole('button', { name: 'Cerrar' }));
    },
    'xstate.done.actor.obtainCaptcha': async ({ ctx }) => {
      (await nextCaptchaRequest(ctx)).resolve(await solveAltcha(testApp().app));
    },
    'xstate.error.actor.obtainCaptcha': async ({ ctx }) => {
      (await nextCaptchaRequest(ctx)).reject(new Error('CAPTCHA no disponible'));
      // Spec §5: without a CAPTCHA token nothing is sent.
      await findToast();
      expect(ctx.register.bodies).toEqual([]);
    },
    'xstate.done.actor.register': async ({ ctx }) => {
      await ctx.register.pass();
      expect(ctx.register.bodies.at(-1)).toMatchObject({
        username: ctx.username,
        recaptcha_token: expect.any(String),
      });
    },
    'xstate.error.actor.register': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number } };
      if (error.status === 0) await ctx.register.networkError();
      else await ctx.register.respond(400, USERNAME_TAKEN);
    },
    'xstate.after.TOAST_MS.signUp.failed': async () => {
      await waitFor(() => expect(toastAlerts()).toEqual([]), { timeout: TOAST_MS * 4 });
    },
  },
});
