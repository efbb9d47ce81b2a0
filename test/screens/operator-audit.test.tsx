import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { OPERATOR_AUDIT_MESSAGES } from '../../src/domain/schemas/operator-audit';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY } from '../../src/stores/storage-keys';
import { setUser } from '../../src/stores/user.store';
import { renderApp } from '../model/harness/render-app';
import { world } from '../model/harness/world';
import { SERVER_WAIT } from '../support/server-wait';

// /operacion/bitacora/ through the real server: the one back-office list, its filters in the URL, a refused
// filter at its field (not as a failure).

async function signInOperator() {
  const session = await world.operatorSession(['auditor']);
  localStorage.setItem(ACCESS_TOKEN_KEY, session.access);
  localStorage.setItem(REFRESH_TOKEN_KEY, session.refresh);
  setUser({ isAuthenticated: true, operatorRoles: ['auditor'] });
  return session;
}

describe('operator audit (page, through the real server)', () => {
  it('lists the calls and filters them in the URL', async () => {
    await signInOperator();
    const user = userEvent.setup();
    const { router } = renderApp('/operacion/bitacora/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Bitácora' }, SERVER_WAIT)).toBeTruthy();
    await screen.findByText(/Sin acciones|\d+ acci(ón|ones)/, {}, SERVER_WAIT);
    await user.type(screen.getByLabelText('Operador'), 'nadie.aqui');
    await user.click(screen.getByRole('button', { name: 'Filtrar' }));
    await waitFor(
      () => expect(router.state.location.search).toMatchObject({ operator: 'nadie.aqui' }),
      SERVER_WAIT,
    );
    expect(await screen.findByText('Sin acciones', {}, SERVER_WAIT)).toBeTruthy();
    expect((screen.getByLabelText('Operador') as HTMLInputElement).value).toBe('nadie.aqui');
    await user.click(screen.getByRole('button', { name: 'Limpiar' }));
    await waitFor(
      () => expect((screen.getByLabelText('Operador') as HTMLInputElement).value).toBe(''),
      SERVER_WAIT,
    );
  });

  it('writes one row per visit, its time as DD/MM/YYYY HH:mm', async () => {
    const session = await signInOperator();
    const user = userEvent.setup();
    renderApp('/operacion/bitacora/');
    await screen.findByRole('button', { name: 'Filtrar' }, SERVER_WAIT);
    await screen.findAllByText(/Sin acciones|\d+ acci(ón|ones)/, {}, SERVER_WAIT);
    // Only this operator's visits of the bitácora: the first one's row, written as its answer left.
    await user.type(screen.getByLabelText('Operador'), session.username);
    await user.type(screen.getByLabelText('Acción'), 'Consultar la bitácora');
    await user.click(screen.getByRole('button', { name: 'Filtrar' }));
    const table = await screen.findByRole('table', { name: 'Bitácora' }, SERVER_WAIT);
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(screen.getByText('1 acción')).toBeTruthy();
    const [, row] = within(table).getAllByRole('row');
    expect(within(row!).getAllByRole('cell')[0]!.textContent).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
  });

  it("shows the server's refusal of a date at its field", async () => {
    await signInOperator();
    renderApp('/operacion/bitacora/?from=2026-02-30');
    expect(await screen.findByText(OPERATOR_AUDIT_MESSAGES.invalidDate, {}, SERVER_WAIT)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
