import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { ACCOUNT_MESSAGES } from '../../server/modules/accounts/messages';
import { wiredSignUpMachine } from '../../src/routes/-machines';
import { SIGN_UP_VALUES } from '../fixtures/sign-up';
import { gateEndpoint } from '../model/harness/msw-gate';
import { renderApp } from '../model/harness/render-app';
import { testApp } from '../model/harness/test-server';
import { USERNAME_TAKEN } from '../model/sign-up.model';
import { solveAltcha } from '../support/accounts';
import { SERVER_WAIT } from '../support/server-wait';
import { findToast, LABELS, submitButton } from './sign-up.page';

/**
 * The sign-up page with the register call held and a CAPTCHA that only counts its runs: what the browser
 * refuses must reach neither.
 */
function renderSignUpCountingCaptcha() {
  const register = gateEndpoint('post', '/api/accounts/register/');
  let runs = 0;
  const signUp = wiredSignUpMachine.provide({
    actors: {
      obtainCaptcha: fromPromise<string>(async () => {
        runs += 1;
        return 'no-debe-pedirse';
      }),
    },
  });
  renderApp('/auth/registro/', { machines: { signUp } });
  return { register, captchaRuns: () => runs };
}

describe('sign-up (page)', () => {
  /** The message under a field, or null when it has none. */
  const messageOf = (label: string) =>
    (screen.getByLabelText(label, { exact: true }).closest('.bp6-form-group') as HTMLElement).querySelector(
      '.bp6-form-helper-text',
    )?.textContent ?? null;

  it('checks every field with the spec §5 messages before the CAPTCHA or the server', async () => {
    const user = userEvent.setup();
    const { register, captchaRuns } = renderSignUpCountingCaptcha();
    await screen.findByRole('heading', { level: 1, name: 'Crea tu perfil' }, SERVER_WAIT);
    const fill = async (label: string, text: string) => {
      const input = screen.getByLabelText(label, { exact: true });
      await user.clear(input);
      if (text) await user.type(input, text);
    };

    await user.click(submitButton());
    await waitFor(() => expect(messageOf(LABELS.name)).toBe('Este campo es obligatorio'), SERVER_WAIT);
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
    await waitFor(() => expect(messageOf(LABELS.email)).toBe('Debe ser un correo valido'), SERVER_WAIT);
    expect(messageOf(LABELS.name)).toBeNull();
    expect(messageOf(LABELS.password1)).toBe('La contraseña debe tener al menos 8 caracteres');

    await fill(LABELS.email, SIGN_UP_VALUES.email);
    await fill(LABELS.password1, SIGN_UP_VALUES.password1);
    await fill(LABELS.password2, `${SIGN_UP_VALUES.password1}x`);
    await user.click(submitButton());
    await waitFor(
      () => expect(messageOf(LABELS.password2)).toBe('Las contraseñas deben coincidir'),
      SERVER_WAIT,
    );
    expect(messageOf(LABELS.email)).toBeNull();
    expect(messageOf(LABELS.password1)).toBeNull();

    // Spec §5: nothing leaves the page while the form is invalid, not even the CAPTCHA.
    expect(captchaRuns()).toBe(0);
    expect(register.bodies).toEqual([]);
  });

  it("refuses in the browser what the server's rules refuse (username, lengths, all digits), before any CAPTCHA", async () => {
    const user = userEvent.setup();
    const { register, captchaRuns } = renderSignUpCountingCaptcha();
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
    await waitFor(
      () =>
        expect(messageOf(LABELS.username)).toBe(
          'Ingresa un nombre de usuario válido: solo letras, números y los caracteres @ . + - _ (sin espacios).',
        ),
      SERVER_WAIT,
    );
    expect(messageOf(LABELS.company)).toBe('Asegúrate de que este campo no tenga más de 255 caracteres.');
    expect(messageOf(LABELS.password1)).toBe('La contraseña no puede ser completamente numérica.');
    expect(captchaRuns()).toBe(0);
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
    await screen.findByRole('heading', { level: 1, name: 'Crea tu perfil' }, SERVER_WAIT);
    const values = { ...SIGN_UP_VALUES, username: 'proveedor.demo', email: 'otra.persona@ejemplo.mx' };
    for (const [field, label] of Object.entries(LABELS)) {
      const input = screen.getByLabelText(label, { exact: true });
      await user.click(input);
      await user.paste(values[field as keyof typeof LABELS]);
    }
    await user.click(submitButton());

    expect((await findToast()).textContent).toBe(ACCOUNT_MESSAGES.usernameTaken);
    await waitFor(() => expect(messageOf(LABELS.username)).toBe(ACCOUNT_MESSAGES.usernameTaken), SERVER_WAIT);
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
