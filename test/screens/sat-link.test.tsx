import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SAT_LINK_MESSAGES } from '../../server/modules/sat/sat-link.service';
import { SatStatus } from '../../src/domain/sat-status';
import { setUser } from '../../src/stores/user.store';
import { gateEndpoint } from '../model/harness/msw-gate';
import { renderApp, signInAs } from '../model/harness/render-app';
import { testApp } from '../model/harness/test-server';
import { MODEL_CIEC } from '../model/sat-link.model';
import { addCompanyWithUser } from '../support/pronto-pago';
import { SERVER_WAIT } from '../support/server-wait';
import { ENDPOINT, input, PATH, PRONTO_PAGO, submitButton } from './sat-link.page';

const ADVANCED_INVOICES = '/dashboard/facturas-pronto-pago/';

// Spec §2: the corporate dashboard's home.
const CORPORATE_HOME = '/dashboard/resumen-de-facturas/';

describe('sat-link (page)', () => {
  it('requires RFC and CIEC and checks the RFC (spec §5) before calling the server', async () => {
    const username = 'sat.campos.modelo';
    await addCompanyWithUser(testApp().database.db, {
      rfc: null,
      name: 'Empresa campos',
      username,
      satStatus: SatStatus.DONT_SENT,
    });
    await signInAs(username);
    const user = userEvent.setup();
    const submit = gateEndpoint('post', ENDPOINT);
    renderApp(PATH);
    await user.click(await screen.findByRole('button', { name: /Enviar credenciales/ }, SERVER_WAIT));
    await waitFor(
      () => expect(screen.getAllByText('Este campo es obligatorio')).toHaveLength(2),
      SERVER_WAIT,
    );
    await user.type(input('RFC'), 'ABC123');
    await user.type(input('Contraseña CIEC'), MODEL_CIEC);
    await user.click(submitButton());
    expect(await screen.findByText('El RFC no tiene un formato válido', {}, SERVER_WAIT)).toBeTruthy();
    expect(submit.bodies).toEqual([]);
    // A wrong check digit is only a hint: SAT has issued such RFCs, and the server accepts them.
    await user.clear(input('RFC'));
    await user.type(input('RFC'), 'MOVE800101ST1');
    expect(
      await screen.findByText(/dígito verificador de este RFC no coincide/, {}, SERVER_WAIT),
    ).toBeTruthy();
  });

  it('tells a provider whose pending link lost its RFC to another account why, above the form', async () => {
    const username = 'sat.perdida.modelo';
    const reason = SAT_LINK_MESSAGES.claimLost;
    const { companyId } = await addCompanyWithUser(testApp().database.db, {
      rfc: null,
      name: 'Empresa perdida',
      username,
      satStatus: SatStatus.UNAUTHORIZED,
    });
    await testApp()
      .database.db.updateTable('companies')
      .set({ sat_status_reason: reason })
      .where('id', '=', companyId)
      .execute();
    await signInAs(username);
    renderApp(PATH);
    expect(await screen.findByText(reason, {}, SERVER_WAIT)).toBeTruthy();
    expect(screen.getByRole('button', { name: /Enviar credenciales/ })).toBeTruthy();
  });

  it('sends a provider without an authorized link from any section to the SAT form (spec §2)', async () => {
    const username = 'sat.guardia.modelo';
    await addCompanyWithUser(testApp().database.db, {
      rfc: null,
      name: 'Empresa guardia',
      username,
      satStatus: SatStatus.DONT_SENT,
    });
    await signInAs(username);
    const { router } = renderApp('/dashboard/factoraje/');
    await waitFor(() => expect(router.state.location.pathname).toBe(PATH), SERVER_WAIT);
    expect(screen.queryByText('Resumen de tus Facturas Adelantadas')).toBeNull();
  });

  it('sends a corporate from the provider screens to its home (spec §2)', async () => {
    await signInAs('corporativo.demo');
    setUser({ role: 'corporate' });
    for (const path of [PRONTO_PAGO, ADVANCED_INVOICES, PATH]) {
      const { router, unmount } = renderApp(path);
      await waitFor(() => expect(router.state.location.pathname).toBe(CORPORATE_HOME), SERVER_WAIT);
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Resumen de facturas' }, SERVER_WAIT),
      ).toBeTruthy();
      // Not the provider page with a 403 load error.
      expect(screen.queryByRole('heading', { level: 1, name: 'Pronto Pago' })).toBeNull();
      expect(screen.queryByText('Resumen de tus Facturas Adelantadas')).toBeNull();
      expect(screen.queryByLabelText('RFC')).toBeNull();
      unmount();
    }
  });

  it('sends an authorized provider from the SAT form to Pronto Pago, with the header cards (spec §2)', async () => {
    await signInAs('proveedor.demo');
    const { router } = renderApp(PATH);
    await waitFor(() => expect(router.state.location.pathname).toBe(PRONTO_PAGO), SERVER_WAIT);
    expect(await screen.findByText('Resumen de tus Facturas Adelantadas', {}, SERVER_WAIT)).toBeTruthy();
    expect(await screen.findByText('Monto total', {}, SERVER_WAIT)).toBeTruthy();
  });
});
