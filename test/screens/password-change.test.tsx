import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { gateEndpoint } from '../model/harness/msw-gate';
import { DEMO_PASSWORD, renderApp, signInAs } from '../model/harness/render-app';
import { testApp } from '../model/harness/test-server';
import { CHANGED_PASSWORD, WRONG_CURRENT_BODY } from '../model/password-change.model';
import { SERVER_WAIT } from '../support/server-wait';
import { ENDPOINT, input, LABELS, PATH, submitButton, USERNAME } from './password-change.page';

async function canLogIn(password: string): Promise<boolean> {
  const response = await testApp().app.inject({
    method: 'POST',
    url: '/api/accounts/login/',
    payload: { username: USERNAME, password },
  });
  return response.statusCode === 200;
}

describe('password-change (page)', () => {
  it('is only for a signed-in user (spec §2)', async () => {
    const { router } = renderApp(PATH);
    await waitFor(() => expect(router.state.location.pathname).toBe('/inicio/'), SERVER_WAIT);
  });

  it('checks every field with the spec §5 messages before calling the server', async () => {
    await signInAs(USERNAME);
    const user = userEvent.setup();
    const call = gateEndpoint('post', ENDPOINT);
    renderApp(PATH);
    await user.click(await screen.findByRole('button', { name: /Cambiar contraseña/ }, SERVER_WAIT));
    expect(await screen.findByText('Este campo es obligatorio', {}, SERVER_WAIT)).toBeTruthy();
    expect(screen.getByText('Por favor, confirma tu contraseña')).toBeTruthy();

    await user.type(input(LABELS.new_password1), '1234');
    await user.click(submitButton());
    expect(
      await screen.findByText(
        'Su contraseña es muy corta. Debe contener al menos 8 caracteres.',
        {},
        SERVER_WAIT,
      ),
    ).toBeTruthy();

    await user.type(input(LABELS.new_password1), '5678');
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

    await user.type(input(LABELS.new_password1), 'x');
    await user.type(input(LABELS.new_password2), '12345678y');
    await user.click(submitButton());
    expect(await screen.findByText('Las contraseñas deben coincidir', {}, SERVER_WAIT)).toBeTruthy();
    expect(call.bodies).toEqual([]);
  });

  it('shows a password on request, by keyboard', async () => {
    await signInAs(USERNAME);
    const user = userEvent.setup();
    renderApp(PATH);
    const field = (await screen.findByLabelText(LABELS.old_password, {}, SERVER_WAIT)) as HTMLInputElement;
    const group = field.closest('.bp6-input-group') as HTMLElement;
    const toggle = within(group).getByRole('button', { name: 'Mostrar contraseña' });
    expect(field.type).toBe('password');
    toggle.focus();
    await user.keyboard('{Enter}');
    expect(field.type).toBe('text');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
  });

  it('shows the server message for a wrong current password at its field, through the real server', async () => {
    await signInAs(USERNAME);
    const user = userEvent.setup();
    renderApp(PATH);
    await user.type(await screen.findByLabelText(LABELS.old_password, {}, SERVER_WAIT), 'No-Es-La-Actual-1');
    await user.type(input(LABELS.new_password1), CHANGED_PASSWORD);
    await user.type(input(LABELS.new_password2), CHANGED_PASSWORD);
    await user.click(submitButton());
    // Issue 33: under the field, as its description, and it stays (no toast that vanishes).
    const current = input(LABELS.old_password);
    await waitFor(() => expect(current.getAttribute('aria-invalid')).toBe('true'), SERVER_WAIT);
    const message = document.getElementById(current.getAttribute('aria-describedby') ?? '');
    expect(message?.textContent).toBe(WRONG_CURRENT_BODY.old_password[0]);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(document.activeElement).toBe(current);
    expect(await canLogIn(DEMO_PASSWORD)).toBe(true);
  });
});
