import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { gateEndpoint } from '../model/harness/msw-gate';
import { renderApp, signInAs } from '../model/harness/render-app';
import { DEMO_PROFILE, REJECTED_BODY } from '../model/profile.model';
import { SERVER_WAIT } from '../support/server-wait';
import { ENDPOINT, input, LABELS, PATH, saveButton, USERNAME } from './profile.page';

describe('profile (page)', () => {
  it('is only for a signed-in user (spec §2)', async () => {
    const { router } = renderApp(PATH);
    await waitFor(() => expect(router.state.location.pathname).toBe('/inicio/'), SERVER_WAIT);
  });

  it('shows only the CLABEs the profile has, read-only (spec §3)', async () => {
    await signInAs(USERNAME);
    const load = gateEndpoint('get', ENDPOINT);
    renderApp(PATH);
    await load.respond(200, {
      ...DEMO_PROFILE,
      disbursement_clabe: '012180001234567897',
      wallet_clabe: null,
    });
    const clabe = (await screen.findByLabelText('CLABE de dispersión', {}, SERVER_WAIT)) as HTMLInputElement;
    expect(clabe.value).toBe('012180001234567897');
    expect(clabe.readOnly).toBe(true);
    expect(screen.queryByLabelText('CLABE de monedero')).toBeNull();
    expect(screen.queryByLabelText('CLABE para pago de crédito')).toBeNull();
  });

  it('requires every text field (spec §5) before calling the server', async () => {
    await signInAs(USERNAME);
    const user = userEvent.setup();
    const load = gateEndpoint('get', ENDPOINT);
    const save = gateEndpoint('put', ENDPOINT);
    renderApp(PATH);
    await load.respond(200, DEMO_PROFILE);
    for (const label of Object.values(LABELS))
      await user.clear(await screen.findByLabelText(label, {}, SERVER_WAIT));
    await user.click(saveButton());
    await waitFor(
      () => expect(screen.getAllByText('Este campo es obligatorio')).toHaveLength(4),
      SERVER_WAIT,
    );
    expect(save.bodies).toEqual([]);
  });

  it('shows why the server refuses a save, through the real server', async () => {
    await signInAs(USERNAME);
    const user = userEvent.setup();
    renderApp(PATH);
    const company = await screen.findByLabelText(LABELS.company, {}, SERVER_WAIT);
    await user.clear(company);
    await user.type(company, 'Otra Razón Social, S.A. de C.V.');
    await user.click(saveButton());
    expect((await screen.findByRole('alert', {}, SERVER_WAIT)).textContent).toBe(REJECTED_BODY.company[0]);
    expect(input(LABELS.company).value).toBe('Otra Razón Social, S.A. de C.V.');
  });
});
