import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import { fromPromise } from 'xstate';
import { SIGN_UP_CAPTCHA_FAILED, SIGN_UP_FAILED } from '../../src/machines/sign-up.machine';
import { wiredSignUpMachine } from '../../src/routes/-machines';
import { SIGN_UP_VALUES } from '../fixtures/sign-up';
import { findToast, LABELS, submitButton, toastAlerts } from '../screens/sign-up.page';
import { solveAltcha } from '../support/accounts';
import { SERVER_WAIT } from '../support/server-wait';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp } from './harness/render-app';
import { testApp } from './harness/test-server';
import { SERVER_ERROR, signUpModel, TOO_MANY_SIGN_UPS, USERNAME_TAKEN } from './sign-up.model';

const TOAST_MS = 700;
let sequence = 0;

interface Ctx {
  register: ReturnType<typeof gateEndpoint>;
  /** Each time the form asks for a CAPTCHA token, held until the model's executor answers it. */
  captchaRequests: { resolve: (token: string) => void; reject: (error: Error) => void }[];
  username: string;
  /** How the last attempt was refused: the register call's status, or null when the CAPTCHA failed. */
  refusal: number | null;
}

/** The toast each refusal must show: field or throttle text from the server, never raw 5xx text. */
const REFUSAL_TOAST: Record<number, string> = {
  0: SIGN_UP_FAILED,
  400: USERNAME_TAKEN.username[0]!,
  429: TOO_MANY_SIGN_UPS.detail,
  500: SIGN_UP_FAILED,
};

async function nextCaptchaRequest(ctx: Ctx) {
  await waitFor(() => expect(ctx.captchaRequests.length).toBeGreaterThan(0), SERVER_WAIT);
  return ctx.captchaRequests.shift()!;
}

defineModelTests<Ctx>(signUpModel, {
  setup: () => ({
    register: gateEndpoint('post', '/api/accounts/register/'),
    captchaRequests: [],
    username: '',
    refusal: null,
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
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Crea tu perfil' }, SERVER_WAIT),
      ).toBeTruthy();
      await waitFor(() => expect(submitButton().disabled).toBe(false), SERVER_WAIT);
      await waitFor(() => expect(toastAlerts()).toEqual([]), SERVER_WAIT);
    },
    '#signUp.verifying': async () => {
      expect(await screen.findByText('Verificando que no eres un robot…', {}, SERVER_WAIT)).toBeTruthy();
      expect(submitButton().disabled).toBe(true);
    },
    '#signUp.submitting': async () => {
      await waitFor(
        () => expect(screen.queryByText('Verificando que no eres un robot…')).toBeNull(),
        SERVER_WAIT,
      );
      expect(submitButton().disabled).toBe(true);
    },
    '#signUp.failed': async ({ ctx, state }) => {
      const { message, fieldErrors } = state.context as {
        message: string;
        fieldErrors: Record<string, string[]>;
      };
      const toast = (await findToast()).textContent;
      expect(toast).toBe(message);
      expect(toast).toBe(ctx.refusal === null ? SIGN_UP_CAPTCHA_FAILED : REFUSAL_TOAST[ctx.refusal]);
      expect(toast).not.toContain(SERVER_ERROR.detail);
      // A server field error also sits under its field; nothing typed is lost.
      for (const [field, [first]] of Object.entries(fieldErrors)) {
        expect(screen.getAllByText(first!).length).toBeGreaterThan(field ? 1 : 0);
      }
      expect((screen.getByLabelText('Empresa') as HTMLInputElement).value).toBe(SIGN_UP_VALUES.company);
    },
    '#signUp.registered': async ({ ctx }) => {
      expect(await screen.findByRole('status', {}, SERVER_WAIT)).toBeTruthy();
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
      ctx.refusal = null;
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
      const { error } = event as unknown as { error: { status: number; body: unknown } };
      ctx.refusal = error.status;
      if (error.status === 0) await ctx.register.networkError();
      else await ctx.register.respond(error.status, error.body);
    },
    'xstate.after.TOAST_MS.signUp.failed': async () => {
      await waitFor(() => expect(toastAlerts()).toEqual([]), { timeout: TOAST_MS * 4 });
    },
  },
});
