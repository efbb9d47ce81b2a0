import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { UNKNOWN_EMAIL } from '../../src/machines/password-reset-request.machine';
import { gateEndpoint } from '../model/harness/msw-gate';
import { renderApp } from '../model/harness/render-app';
import { SERVER_WAIT } from '../support/server-wait';
import { ENDPOINT, emailInput, forgetThrottles, PATH, submitButton } from './password-reset-request.page';

describe('password-reset-request (page)', () => {
  it('is reached from the login screen through «Olvidé mi contraseña»', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/auth/ingresar/');
    await user.click(await screen.findByRole('link', { name: 'Olvidé mi contraseña' }, SERVER_WAIT));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Restablecer contraseña' }, SERVER_WAIT),
    ).toBeTruthy();
    expect(router.state.location.pathname).toBe(PATH);
  });

  it('asks for a valid address before calling the server (spec §5)', async () => {
    const user = userEvent.setup();
    const call = gateEndpoint('post', ENDPOINT);
    renderApp(PATH);
    await user.click(await screen.findByRole('button', { name: /Enviar enlace/ }, SERVER_WAIT));
    expect(await screen.findByText('Este campo es obligatorio', {}, SERVER_WAIT)).toBeTruthy();
    await user.type(emailInput(), 'ana@');
    await user.click(submitButton());
    expect(await screen.findByText('Debe ser un correo valido', {}, SERVER_WAIT)).toBeTruthy();
    expect(emailInput().getAttribute('aria-invalid')).toBe('true');
    expect(call.bodies).toEqual([]);
  });

  it('tells an unknown address apart, through the real server', async () => {
    await forgetThrottles();
    const user = userEvent.setup();
    renderApp(PATH);
    await user.type(
      await screen.findByLabelText('Correo electrónico', {}, SERVER_WAIT),
      'nadie.registrado@example.mx',
    );
    await user.click(submitButton());
    expect((await screen.findByRole('alert', {}, SERVER_WAIT)).textContent).toBe(UNKNOWN_EMAIL);
  });
});
