import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import dayjs from 'dayjs';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { businessDate } from '../../server/http/business-date';
import { disburseInvoice } from '../../server/modules/control-desk/disbursement.service';
import type { OperatorRole } from '../../src/domain/operator-roles';
import { MESSAGES } from '../../src/domain/schemas/fields';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY } from '../../src/stores/storage-keys';
import { setUser } from '../../src/stores/user.store';
import { renderApp } from '../model/harness/render-app';
import { mswServer, TEST_ORIGIN, testApp } from '../model/harness/test-server';
import { world as modelWorld } from '../model/harness/world';
import { testAuthenticity } from '../support/demo-authority';
import { addCompanyWithUser, advanceTo, importInvoice, requestAdvance } from '../support/pronto-pago';
import { SERVER_WAIT } from '../support/server-wait';

// /operacion/programas/ against the real server behind MSW: the seeded demo programme with its figures and
// utilisation bar, a proposal made in the dialog, Aprobar disabled (with the reason) for its proposer and
// enabled for another aprobador; tesorería records the corporate's payment of a paid advance ('Registrar cobro');
// and the loading error with Reintentar.

async function signInOperator(roles: OperatorRole[]) {
  const session = await modelWorld.operatorSession(roles);
  localStorage.setItem(ACCESS_TOKEN_KEY, session.access);
  localStorage.setItem(REFRESH_TOKEN_KEY, session.refresh);
  setUser({ isAuthenticated: true, operatorRoles: roles });
  return session;
}

describe('credit programmes (page)', () => {
  it('lists the programmes with their figures; a proposal waits for another aprobador', async () => {
    const { db } = testApp().database;
    const { companyId } = await addCompanyWithUser(db, {
      rfc: null,
      name: 'Corporativo de Pantalla, S.A. de C.V.',
      username: 'corporativo.pantalla',
    });
    await db.updateTable('companies').set({ is_corporate: true }).where('id', '=', companyId).execute();
    // The corporates' list is another section's: the dialog gets this corporate from it.
    mswServer.use(
      http.get(`${TEST_ORIGIN}/api/operator/corporates/`, () =>
        HttpResponse.json({
          count: 1,
          next: null,
          previous: null,
          results: [{ id: companyId, name: 'Corporativo de Pantalla, S.A. de C.V.', rfc: null }],
        }),
      ),
    );

    await signInOperator(['aprobador']);
    const view = renderApp('/operacion/programas/');
    const table = await screen.findByRole('table', { name: 'Programas de crédito' }, SERVER_WAIT);
    const demoRow = await within(table).findByRole('row', { name: /Grupo Altamira/ }, SERVER_WAIT);
    expect(within(demoRow).getByText('Activo')).toBeTruthy();
    expect(within(demoRow).getByText('$500,000,000.00 MXN', { selector: 'td' })).toBeTruthy();
    expect(within(demoRow).getByRole('progressbar')).toBeTruthy();
    expect(screen.getByText('No hay límites pendientes de aprobación.')).toBeTruthy();
    // The page's own structure and names (contrast needs a real layout; the frame around it is the layout's).
    const page = view.container.querySelector('.programmes-page') as HTMLElement;
    const audit = await axe.run(page, { rules: { 'color-contrast': { enabled: false } } });
    expect(audit.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Proponer límite' }));
    const dialog = await screen.findByRole('dialog', { name: 'Proponer límite' }, SERVER_WAIT);
    const dialogAudit = await axe.run(dialog, { rules: { 'color-contrast': { enabled: false } } });
    expect(dialogAudit.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
    fireEvent.change(within(dialog).getByLabelText('Límite (MXN)'), { target: { value: '1,000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Enviar a aprobación' }));
    expect(await within(dialog).findByText(/monto mayor a cero/, {}, SERVER_WAIT)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Límite (MXN)'), { target: { value: '1000000' } });
    fireEvent.change(within(dialog).getByLabelText('Fecha de inicio'), { target: { value: '2026-01-01' } });
    fireEvent.change(within(dialog).getByLabelText('Fecha de fin'), { target: { value: '2030-12-31' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Enviar a aprobación' }));
    expect(await screen.findByText('Límite enviado a aprobación.', {}, SERVER_WAIT)).toBeTruthy();

    const pending = await screen.findByRole(
      'table',
      { name: 'Límites pendientes de aprobación' },
      SERVER_WAIT,
    );
    const row = within(pending).getByRole('row', { name: /Corporativo de Pantalla/ });
    const approve = within(row).getByRole('button', { name: 'Aprobar' });
    expect(approve.hasAttribute('disabled')).toBe(true);
    expect(within(row).getByText('Tú propusiste este límite: debe aprobarlo otro Aprobador.')).toBeTruthy();
    view.unmount();

    // Another aprobador approves it.
    await signInOperator(['aprobador']);
    renderApp('/operacion/programas/');
    const pendingAgain = await screen.findByRole(
      'table',
      { name: 'Límites pendientes de aprobación' },
      SERVER_WAIT,
    );
    const button = within(
      within(pendingAgain).getByRole('row', { name: /Corporativo de Pantalla/ }),
    ).getByRole('button', { name: 'Aprobar' });
    expect(button.hasAttribute('disabled')).toBe(false);
    fireEvent.click(button);
    expect(
      await screen.findByText('Límite de Corporativo de Pantalla, S.A. de C.V. aprobado.', {}, SERVER_WAIT),
    ).toBeTruthy();
    const list = screen.getByRole('table', { name: 'Programas de crédito' });
    await waitFor(() => {
      const approved = within(list).getByRole('row', { name: /Corporativo de Pantalla/ });
      expect(within(approved).getByText('Activo')).toBeTruthy();
    }, SERVER_WAIT);
  });

  it("records the corporate's payment of a paid advance, which leaves the list to collect", async () => {
    const { db } = testApp().database;
    const today = businessDate(new Date());
    const id = await importInvoice(db, { today });
    await advanceTo(db, id, 'approved', dayjs(today).add(30, 'day').format('YYYY-MM-DD'));
    // 'Adelantar pago' reserves on the demo corporate's programme; the disbursement turns it into used.
    await requestAdvance(db, id);
    // Forced past the desk's checks: they are the desk's tests' subject, not this one's.
    await disburseInvoice(db, String(id), {
      account: 'pruebas',
      today,
      force: true,
      authenticity: testAuthenticity(db),
    });

    await signInOperator(['tesoreria']);
    renderApp('/operacion/programas/');
    const table = await screen.findByRole('table', { name: 'Programas de crédito' }, SERVER_WAIT);
    const demoRow = await within(table).findByRole('row', { name: /Grupo Altamira/ }, SERVER_WAIT);
    fireEvent.click(within(demoRow).getByRole('button', { name: 'Ver movimientos' }));
    const collectible = await screen.findByRole('table', { name: 'Por cobrar al corporativo' }, SERVER_WAIT);
    const buttons = within(collectible).getAllByRole('button', { name: /^Registrar cobro de la factura / });
    const button = buttons.at(-1);
    if (!button) throw new Error('no invoice to collect');
    const invoiceName = button.getAttribute('aria-label') ?? '';
    // The shared test world repeats serie-folio labels across invoices: count them.
    const sameLabel = buttons.filter((other) => other.getAttribute('aria-label') === invoiceName).length;
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: invoiceName }, SERVER_WAIT);
    const dialogAudit = await axe.run(dialog, { rules: { 'color-contrast': { enabled: false } } });
    expect(dialogAudit.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
    // The amount comes filled with what the invoice still uses; the clave is the operator's to copy.
    expect((within(dialog).getByLabelText('Monto pagado (MXN)') as HTMLInputElement).value).toMatch(
      /^\d+\.\d{2}$/,
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Registrar cobro' }));
    expect(await within(dialog).findByText(MESSAGES.required, {}, SERVER_WAIT)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Clave de rastreo del pago'), {
      target: { value: `COBRO${id}` },
    });
    // More than remains to collect: the server's reason shows at the amount, and nothing is recorded.
    const amount = within(dialog).getByLabelText('Monto pagado (MXN)') as HTMLInputElement;
    const used = amount.value;
    fireEvent.change(amount, { target: { value: '99999999.00' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Registrar cobro' }));
    expect(
      await within(dialog).findByText(
        /^El monto excede lo que falta por cobrar de esta factura/,
        {},
        SERVER_WAIT,
      ),
    ).toBeTruthy();
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(amount, { target: { value: used } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Registrar cobro' }));
    expect(await screen.findByText(/^Pago registrado: se liberaron/, {}, SERVER_WAIT)).toBeTruthy();
    await waitFor(() => {
      expect(screen.queryAllByRole('button', { name: invoiceName })).toHaveLength(sameLabel - 1);
    }, SERVER_WAIT);
  });

  it('says so when the programmes cannot be loaded, and retries', async () => {
    await signInOperator(['auditor']);
    mswServer.use(
      http.get(`${TEST_ORIGIN}/api/operator/programmes/`, () =>
        HttpResponse.json({ detail: 'x' }, { status: 500 }),
      ),
    );
    renderApp('/operacion/programas/');
    expect(await screen.findByText('No pudimos cargar los programas.', {}, SERVER_WAIT)).toBeTruthy();
    // An auditor reads only: no proposal button.
    expect(screen.queryByRole('button', { name: 'Proponer límite' })).toBeNull();
    // The server answers again.
    mswServer.resetHandlers();
    fireEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByRole('table', { name: 'Programas de crédito' }, SERVER_WAIT)).toBeTruthy();
  });
});
