import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { paths } from '../../src/domain/paths';
import { ACCESS_TOKEN_KEY } from '../../src/stores/storage-keys';
import { gateEndpoint } from '../model/harness/msw-gate';
import { renderApp, signInAs } from '../model/harness/render-app';
import { DEMO_CREDENTIALS } from '../model/session.model';
import { SERVER_WAIT } from '../support/server-wait';
import { dashboardHeading } from './session.page';

describe('session (page)', () => {
  it('sends an unknown auth path to the login screen (spec §2)', async () => {
    const { router } = renderApp('/auth/xyz/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Inicio' }, SERVER_WAIT)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/auth/ingresar/');
  });

  it('sends a signed-in user from an auth page to the dashboard (spec §2)', async () => {
    await signInAs(DEMO_CREDENTIALS.username);
    const { router } = renderApp('/auth/registro/');
    expect(await dashboardHeading()).toBeTruthy();
    expect(router.state.location.pathname).toBe(paths.prontoPago);
    expect(screen.queryByRole('heading', { level: 1, name: 'Crea tu perfil' })).toBeNull();
  });

  it('checks the login form with the spec §5 message before calling the server', async () => {
    const user = userEvent.setup();
    const login = gateEndpoint('post', '/api/accounts/login/');
    renderApp('/auth/ingresar/');
    const username = await screen.findByLabelText('Usuario', {}, SERVER_WAIT);
    const messageOf = (label: string) =>
      (screen.getByLabelText(label).closest('.bp6-form-group') as HTMLElement).querySelector(
        '.bp6-form-helper-text',
      )?.textContent ?? null;

    await user.click(screen.getByRole('button', { name: /Ingresar/ }));
    await waitFor(() => expect(messageOf('Usuario')).toBe('Este campo es obligatorio'), SERVER_WAIT);
    expect(messageOf('Contraseña')).toBe('Este campo es obligatorio');

    // Blanks are not a username; only the password is still missing once a real one is typed.
    await user.type(username, '   ');
    await user.click(screen.getByRole('button', { name: /Ingresar/ }));
    await waitFor(() => expect(messageOf('Usuario')).toBe('Este campo es obligatorio'), SERVER_WAIT);
    await user.clear(username);
    await user.type(username, DEMO_CREDENTIALS.username);
    await user.click(screen.getByRole('button', { name: /Ingresar/ }));
    await waitFor(() => expect(messageOf('Usuario')).toBeNull(), SERVER_WAIT);
    expect(messageOf('Contraseña')).toBe('Este campo es obligatorio');

    expect(login.bodies).toEqual([]);
    expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
  });
});
