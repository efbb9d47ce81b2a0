import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_KEY } from '../../src/stores/storage-keys';
import { setUser } from '../../src/stores/user.store';
import { renderApp } from '../model/harness/render-app';
import { testApp } from '../model/harness/test-server';
import { createOperatorSession } from '../support/operator';
import { SERVER_WAIT } from '../support/server-wait';

describe('control desk (page)', () => {
  it('lists the advances in process with each check as a pass/fail tag and its reason, filtered by state', async () => {
    const { database, config } = testApp();
    const session = await createOperatorSession(
      { database, config, now: () => new Date() },
      { roles: ['auditor'] },
    );
    localStorage.setItem(ACCESS_TOKEN_KEY, session.access);
    setUser({ isAuthenticated: true, operatorRoles: ['auditor'] });
    renderApp('/operacion/mesa/');

    const table = await screen.findByRole('table', { name: 'Adelantos en la mesa de control' }, SERVER_WAIT);
    const firstChecks = within(table).getAllByRole('list')[0] as HTMLElement;
    // The demo providers have no deposit CLABE: the desk says so in words, not only in colour.
    expect(within(firstChecks).getByText('Pasa: Vinculación SAT')).toBeTruthy();
    expect(within(firstChecks).getByText('Falla: CLABE del proveedor')).toBeTruthy();
    expect(within(firstChecks).getByText('El proveedor no tiene CLABE de depósito.')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Estado'), { target: { value: 'paid' } });
    expect(await screen.findByText('No hay adelantos en la mesa', {}, SERVER_WAIT)).toBeTruthy();
  });
});
