import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { DESK_BODY_MESSAGES } from '../../src/domain/schemas/control-desk';
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
    // One tag names the failing check; every check and its reason behind «Ver las … verificaciones».
    const firstRow = firstChecks.closest('tr') as HTMLElement;
    expect(within(firstRow).getByText(/^Falla 1 de \d+: CLABE del proveedor$/)).toBeTruthy();
    expect(within(firstRow).getByText(/^Ver las \d+ verificaciones$/).tagName).toBe('SUMMARY');
    // No deposit CLABE: the desk says so in words, not only in colour.
    expect(within(firstChecks).getByText('Pasa: Vinculación SAT')).toBeTruthy();
    expect(within(firstChecks).getByText('Falla: CLABE del proveedor')).toBeTruthy();
    expect(within(firstChecks).getByText('El proveedor no tiene CLABE de depósito.')).toBeTruthy();
    // A dollar advance (the demo's A-1003) shows its own amount with its code, then its peso value with the
    // CFDI's rate and what the provider receives (issue 33).
    const usd = [...table.querySelectorAll('td.flujo-operator-table__amount')].find((cell) =>
      cell.textContent?.includes(' USD'),
    );
    expect(usd?.textContent).toMatch(
      /^\$[\d,]+\.\d{2} USD\$[\d,]+\.\d{2} MXN al tipo de cambio \d+\.\d+Recibe \$[\d,]+\.\d{2} MXN$/,
    );

    // A failing check offers no 'Aprobar' (the desk-item machine refuses it, as the server does); 'Rechazar' asks why.
    const row = firstChecks.closest('tr') as HTMLElement;
    expect(within(row).queryByRole('button', { name: /^Aprobar / })).toBeNull();
    fireEvent.click(within(row).getByRole('button', { name: /^Rechazar / }));
    const dialog = await screen.findByRole('dialog', {}, SERVER_WAIT);
    const confirm = within(dialog).getByRole('button', { name: 'Rechazar' }) as HTMLButtonElement;
    // The reason is required and the field says so; sent empty, it is refused there with the server's text.
    expect(within(dialog).getByText('Obligatorio para rechazar.')).toBeTruthy();
    fireEvent.click(confirm);
    expect(await within(dialog).findByText(DESK_BODY_MESSAGES.reasonRequired)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/^Motivo/), {
      target: { value: 'Falta la CLABE del proveedor' },
    });
    fireEvent.click(confirm);
    expect(await within(row).findByText('Falta la CLABE del proveedor', {}, SERVER_WAIT)).toBeTruthy();
    expect(within(row).getByText(/^Rechazado/)).toBeTruthy();
    expect(screen.getByRole('status').textContent).toMatch(
      /^Adelanto \S+ rechazado: la factura vuelve a Autorizada/,
    );

    fireEvent.change(screen.getByLabelText('Estado'), { target: { value: 'paid' } });
    expect(await screen.findByText('No hay adelantos en la mesa', {}, SERVER_WAIT)).toBeTruthy();
  });
});
