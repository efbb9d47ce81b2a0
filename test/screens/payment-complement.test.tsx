import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { businessDate } from '../../server/http/business-date';
import { seedDemoPaymentComplements } from '../../server/seed/demo-payment-complements';
import { ACCESS_TOKEN_KEY } from '../../src/stores/storage-keys';
import { setUser } from '../../src/stores/user.store';
import { renderApp } from '../model/harness/render-app';
import { testApp } from '../model/harness/test-server';
import { testAuthenticity } from '../support/demo-authority';
import { createOperatorSession } from '../support/operator';
import { SERVER_WAIT } from '../support/server-wait';

// Issue 34 (decision 0070): the desk shows a paid advance's payment complement, received or still owed.
describe('payment complement on the control desk (page)', () => {
  it("shows 'REP recibido' with the REP's folio fiscal, and 'REP pendiente' where it has not arrived", async () => {
    const { database, config } = testApp();
    const session = await createOperatorSession(
      { database, config, now: () => new Date() },
      { roles: ['tesoreria'] },
    );
    const seeded = await seedDemoPaymentComplements(
      database.db,
      testAuthenticity(database.db),
      businessDate(new Date()),
    );
    expect(seeded.created).toBe(true);
    const rep = await database.db
      .selectFrom('payment_complements')
      .select('cfdi_uuid')
      .executeTakeFirstOrThrow();
    localStorage.setItem(ACCESS_TOKEN_KEY, session.access);
    setUser({ isAuthenticated: true, operatorRoles: ['tesoreria'] });
    renderApp('/operacion/mesa/?state=paid');

    const table = await screen.findByRole('table', { name: 'Adelantos en la mesa de control' }, SERVER_WAIT);
    const received = within(table).getByText('REP recibido').closest('tr') as HTMLElement;
    expect(
      within(received).getByText(new RegExp(`^${rep.cfdi_uuid} del \\d{2}/\\d{2}/\\d{4}$`)),
    ).toBeTruthy();
    expect(within(table).getByText('REP pendiente')).toBeTruthy();
  });
});
