import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { ACCESS_TOKEN_KEY } from '../../src/stores/storage-keys';
import { setUser } from '../../src/stores/user.store';
import { renderApp } from '../model/harness/render-app';
import { testApp } from '../model/harness/test-server';
import { createOperatorSession } from '../support/operator';
import { SERVER_WAIT } from '../support/server-wait';

describe('control desk (page)', () => {
  it('lists the advances in process with their checks, rejects one with a reason, and filters by state', async () => {
    const { database, config } = testApp();
    const session = await createOperatorSession(
      { database, config, now: () => new Date() },
      { roles: ['aprobador'] },
    );
    // The first demo provider's deposit CLABE is missing here, so its advances fail one check.
    await database.db
      .updateTable('companies')
      .set({ disbursement_clabe: null })
      .where('rfc', '=', DEMO_PROVIDERS[0].rfc)
      .execute();
    localStorage.setItem(ACCESS_TOKEN_KEY, session.access);
    setUser({ isAuthenticated: true, operatorRoles: ['aprobador'] });
    renderApp('/operacion/mesa/');

    const table = await screen.findByRole('table', { name: 'Adelantos en la mesa de control' }, SERVER_WAIT);
    const firstChecks = within(table).getAllByRole('list')[0] as HTMLElement;
    // No deposit CLABE: the desk says so in words, not only in colour.
    expect(within(firstChecks).getByText('Pasa: Vinculación SAT')).toBeTruthy();
    expect(within(firstChecks).getByText('Falla: CLABE del proveedor')).toBeTruthy();
    expect(within(firstChecks).getByText('El proveedor no tiene CLABE de depósito.')).toBeTruthy();

    // A failing check offers no 'Aprobar' (the desk-item machine refuses it, as the server does); 'Rechazar' asks why.
    const row = firstChecks.closest('tr') as HTMLElement;
    expect(within(row).queryByRole('button', { name: /^Aprobar / })).toBeNull();
    fireEvent.click(within(row).getByRole('button', { name: /^Rechazar / }));
    const dialog = await screen.findByRole('dialog', {}, SERVER_WAIT);
    const confirm = within(dialog).getByRole('button', { name: 'Rechazar' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText(/^Motivo/), {
      target: { value: 'Falta la CLABE del proveedor' },
    });
    fireEvent.click(confirm);
    expect(await within(row).findByText('Falta la CLABE del proveedor', {}, SERVER_WAIT)).toBeTruthy();
    expect(within(row).getByText(/^Rechazado/)).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Estado'), { target: { value: 'paid' } });
    expect(await screen.findByText('No hay adelantos en la mesa', {}, SERVER_WAIT)).toBeTruthy();
  });
});
