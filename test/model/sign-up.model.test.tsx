import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { ACCOUNT_MESSAGES } from '../../server/modules/accounts/messages';
import { SIGN_UP_CAPTCHA_FAILED, SIGN_UP_FAILED } from '../../src/machines/sign-up.machine';
import { wiredSignUpMachine } from '../../src/routes/-machines';
import { SIGN_UP_VALUES } from '../fixtures/sign-up';
import { solveAltcha } from '../support/accounts';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp } from './harness/render-app';
import { testApp } from './harness/test-server';
import { SERVER_ERROR, signUpModel, TOO_MANY_SIGN_UPS, USERNAME_TAKEN } from './sign-up.model';

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
  await waitFor(() => expect(ctx.captchaRequests.length).toBeGreaterThan(0));
  return ctx.captchaRequests.shift()!;
}

// The ALTCHA widget stays on the page (and, under happy-dom's non-secure context, shows its own alert);
// the machine's feedback is the toast.
const toastAlerts = () => screen.queryAllByRole('alert').filter((alert) => alert.closest('.bp6-toast'));
const findToast = async () => {
  await waitFor(() => expect(toastAlerts().length).toBeGreaterThan(0), { timeout: 15_000 });
  return toastAlerts()[0]!;
};

const submitButton = () => screen.getByRole('button', { name: /Siguiente/ }) as HTMLButtonElement;

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

describe('sign-up (page)', () => {
  /** The message under a field, or null when it has none. */
  const messageOf = (label: string) =>
    (screen.getByLabelText(label, { exact: true }).closest('.bp6-form-group') as HTMLElement).querySelector(
      '.bp6-form-helper-text',
    )?.textContent ?? null;

  it('checks every field with the spec §5 messages before the CAPTCHA or the server', async () => {
    const user = userEvent.setup();
    const register = gateEndpoint('post', '/api/accounts/register/');
    let captchaRuns = 0;
    const signUp = wiredSignUpMachine.provide({
      actors: {
        obtainCaptcha: fromPromise<string>(async () => {
          captchaRuns += 1;
          return 'no-debe-pedirse';
        }),
      },
    });
    renderApp('/auth/registro/', { machines: { signUp } });
    await screen.findByRole('heading', { level: 1, name: 'Crea tu perfil' });
    const fill = async (label: string, text: string) => {
      const input = screen.getByLabelText(label, { exact: true });
      await user.clear(input);
      if (text) await user.type(input, text);
    };

    await user.click(submitButton());
    await waitFor(() => expect(messageOf(LABELS.name)).toBe('Este campo es obligatorio'));
    for (const field of ['last_name', 'username', 'mobile_phone', 'company', 'email'] as const) {
      expect(messageOf(LABELS[field]), field).toBe('Este campo es obligatorio');
    }
    expect(messageOf(LABELS.password1)).toBe('La contraseña es obligatoria');
    expect(messageOf(LABELS.password2)).toBe('Por favor, confirma tu contraseña');

    for (const field of ['name', 'last_name', 'username', 'mobile_phone', 'company'] as const) {
      await fill(LABELS[field], SIGN_UP_VALUES[field]);
    }
    await fill(LABELS.email, 'ana.quintero@ejemplo');
    await fill(LABELS.password1, 'Corta-1');
    await user.click(submitButton());
    await waitFor(() => expect(messageOf(LABELS.email)).toBe('Debe ser un correo valido'));
    expect(messageOf(LABELS.name)).toBeNull();
    expect(messageOf(LABELS.password1)).toBe('La contraseña debe tener al menos 8 caracteres');

    await fill(LABELS.email, SIGN_UP_VALUES.email);
    await fill(LABELS.password1, SIGN_UP_VALUES.password1);
    await fill(LABELS.password2, `${SIGN_UP_VALUES.password1}x`);
    await user.click(submitButton());
    await waitFor(() => expect(messageOf(LABELS.password2)).toBe('Las contraseñas deben coincidir'));
    expect(messageOf(LABELS.email)).toBeNull();
    expect(messageOf(LABELS.password1)).toBeNull();

    // Spec §5: nothing leaves the page while the form is invalid, not even the CAPTCHA.
    expect(captchaRuns).toBe(0);
    expect(register.bodies).toEqual([]);
  });

  it("refuses in the browser what the server's rules refuse (username, lengths, all digits), before any CAPTCHA", async () => {
    const user = userEvent.setup();
    const register = gateEndpoint('post', '/api/accounts/register/');
    let captchaRuns = 0;
    const signUp = wiredSignUpMachine.provide({
      actors: {
        obtainCaptcha: fromPromise<string>(async () => {
          captchaRuns += 1;
          return 'no-debe-pedirse';
        }),
      },
    });
    renderApp('/auth/registro/', { machines: { signUp } });
    await screen.findByRole('heading', { level: 1, name: 'Crea tu perfil' });
    const values = {
      ...SIGN_UP_VALUES,
      username: 'mariana quintero',
      company: 'c'.repeat(256),
      password1: '83920417',
      password2: '83920417',
    };
    for (const [field, label] of Object.entries(LABELS)) {
      const input = screen.getByLabelText(label, { exact: true });
      await user.click(input);
      await user.paste(values[field as keyof typeof LABELS]);
    }
    await user.click(submitButton());

    // The wording the server answers with (test/api/accounts-register.test.ts).
    await waitFor(() =>
      expect(messageOf(LABELS.username)).toBe(
        'Ingresa un nombre de usuario válido: solo letras, números y los caracteres @ . + - _ (sin espacios).',
      ),
    );
    expect(messageOf(LABELS.company)).toBe('Asegúrate de que este campo no tenga más de 255 caracteres.');
    expect(messageOf(LABELS.password1)).toBe('La contraseña no puede ser completamente numérica.');
    expect(captchaRuns).toBe(0);
    expect(register.bodies).toEqual([]);
  });

  it("shows the real server's refusal of a taken username under the field and in a toast", async () => {
    const user = userEvent.setup();
    // Nothing is held or answered by hand: the CAPTCHA is the real server's challenge, and the register
    // call goes through MSW's default handler to the real app, where the seeded 'proveedor.demo' exists.
    const signUp = wiredSignUpMachine.provide({
      actors: { obtainCaptcha: fromPromise<string>(() => solveAltcha(testApp().app)) },
    });
    renderApp('/auth/registro/', { machines: { signUp } });
    await screen.findByRole('heading', { level: 1, name: 'Crea tu perfil' });
    const values = { ...SIGN_UP_VALUES, username: 'proveedor.demo', email: 'otra.persona@ejemplo.mx' };
    for (const [field, label] of Object.entries(LABELS)) {
      const input = screen.getByLabelText(label, { exact: true });
      await user.click(input);
      await user.paste(values[field as keyof typeof LABELS]);
    }
    await user.click(submitButton());

    expect((await findToast()).textContent).toBe(ACCOUNT_MESSAGES.usernameTaken);
    await waitFor(() => expect(messageOf(LABELS.username)).toBe(ACCOUNT_MESSAGES.usernameTaken));
    expect(messageOf(LABELS.email)).toBeNull();
    // The model's hand-written 400 is this same body.
    expect(USERNAME_TAKEN.username).toEqual([ACCOUNT_MESSAGES.usernameTaken]);
    // Nothing typed is lost, and no second account was made with the new address.
    expect((screen.getByLabelText(LABELS.company, { exact: true }) as HTMLInputElement).value).toBe(
      values.company,
    );
    const created = await testApp()
      .database.db.selectFrom('users')
      .select('id')
      .where('email', '=', values.email)
      .executeTakeFirst();
    expect(created).toBeUndefined();
  });
});
