import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '../../server/modules/accounts/messages';
import { gateEndpoint } from '../model/harness/msw-gate';
import { renderApp } from '../model/harness/render-app';
import { testApp } from '../model/harness/test-server';
import { NEW_PASSWORD } from '../model/password-reset.model';
import { SERVER_WAIT } from '../support/server-wait';
import {
  db,
  ENDPOINT,
  emailedResetLink,
  passwordHashOf,
  rule,
  submitButton,
  USERNAME,
} from './password-reset.page';

describe('password-reset (page)', () => {
  it('turns the first two rules red while they are broken, from the domain rule (spec §5)', async () => {
    const user = userEvent.setup();
    renderApp('/auth/reiniciar-contrasena/?token=abc');
    const input = (await screen.findByLabelText('Nueva contraseña', {}, SERVER_WAIT)) as HTMLInputElement;
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
    await user.type(await screen.findByLabelText('Nueva contraseña', {}, SERVER_WAIT), '12345678');
    await user.click(submitButton());
    expect(
      await screen.findByText(
        'Su contraseña no puede ser completamente numérica.',
        {
          selector: '.bp6-form-helper-text > span',
        },
        SERVER_WAIT,
      ),
    ).toBeTruthy();
    expect(call.bodies).toEqual([]);
  });

  it('explains a link without its token and offers a new e-mail', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/auth/reiniciar-contrasena/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Cambiar clave' }, SERVER_WAIT)).toBeTruthy();
    expect(screen.getByText('El enlace no es válido')).toBeTruthy();
    expect(screen.queryByLabelText('Nueva contraseña')).toBeNull();
    await user.click(screen.getByRole('link', { name: 'Solicitar un nuevo correo de restablecimiento' }));
    await waitFor(
      () => expect(router.state.location.pathname).toBe('/auth/recuperar-contrasena/'),
      SERVER_WAIT,
    );
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
      await user.type(
        await screen.findByLabelText('Nueva contraseña', {}, SERVER_WAIT),
        'Otra-Clave-Distinta-9',
      );
      await user.click(submitButton());
      // The server lists its reason under old_password, which is what the screen shows (spec §8).
      expect((await screen.findByRole('alert', {}, SERVER_WAIT)).textContent).toBe(
        ACCOUNT_MESSAGES.resetLinkInvalid,
      );
      expect(router.state.location.pathname).toBe('/auth/reiniciar-contrasena/');
    } finally {
      await db().updateTable('users').set({ password_hash: hash }).where('username', '=', USERNAME).execute();
    }
  });
});
