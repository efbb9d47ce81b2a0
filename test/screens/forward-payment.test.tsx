import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DEMO_CORPORATE } from '../../server/seed/demo-world';
import { IMPORTED_LABEL, InvoiceStatus } from '../../src/domain/invoice-status';
import { PROGRAMME_REFUSALS } from '../../src/domain/programme-lending';
import { AUDIT_TRAIL_FAILED } from '../../src/views/invoices/audit-trail-drawer';
import { formatDisplayDateTime } from '../../src/views/invoices/invoice-format';
import { EMPTY_INVOICES_TEXT } from '../../src/views/invoices/invoice-table';
import { gateEndpoint } from '../model/harness/msw-gate';
import { findMessageDialog, renderApp, signInAs } from '../model/harness/render-app';
import { testApp } from '../model/harness/test-server';
import { findRow, invoiceUuid, PROVIDER } from '../model/pronto-pago-helpers';
import { forwardToApp } from '../support/msw-app';
import { SERVER_WAIT } from '../support/server-wait';
import {
  APPROVE,
  approvedInvoice,
  db,
  expectFigures,
  openDrawer,
  processEvents,
} from './forward-payment.page';

describe('forward payment (page)', () => {
  it('takes the advanced row out of a single status filter it no longer matches (spec §4)', async () => {
    await signInAs(PROVIDER);
    const invoiceId = await approvedInvoice();
    const uuid = await invoiceUuid(invoiceId);
    const user = userEvent.setup();
    renderApp(`/dashboard/pronto-pago/?search=${uuid}&status=${InvoiceStatus.APPROVED}`);
    const row = await findRow(uuid);
    await user.click(within(row).getByRole('button', { name: `Adelantar pago ${uuid}` }));
    const panel = await openDrawer();
    await waitFor(() => expectFigures(panel), SERVER_WAIT);
    await user.click(within(panel).getByRole('button', { name: 'Adelantar pago' }));
    const open = await findMessageDialog();
    await waitFor(() => expect(open.querySelector('[data-variant="success"]')).toBeTruthy(), SERVER_WAIT);
    await user.click(within(open).getByRole('button', { name: 'Cerrar' }));
    expect(await screen.findByText(EMPTY_INVOICES_TEXT, {}, SERVER_WAIT)).toBeTruthy();
  });

  it("shows the buyer's programme refusal in the server's words; the invoice stays Autorizada (issue 19)", async () => {
    await signInAs(PROVIDER);
    const invoiceId = await approvedInvoice();
    const uuid = await invoiceUuid(invoiceId);
    // The demo corporate's programme is frozen for this test (decision 0052), and thawed after it.
    const setProgrammeState = (state: 'activo' | 'congelado') =>
      db()
        .updateTable('credit_programmes')
        .set({ state })
        .where(
          'corporate_id',
          '=',
          db().selectFrom('companies').select('id').where('rfc', '=', DEMO_CORPORATE.rfc),
        )
        .execute();
    await setProgrammeState('congelado');
    try {
      const user = userEvent.setup();
      renderApp(`/dashboard/pronto-pago/?search=${uuid}`);
      await user.click(within(await findRow(uuid)).getByRole('button', { name: `Adelantar pago ${uuid}` }));
      const panel = await openDrawer();
      await waitFor(() => expectFigures(panel), SERVER_WAIT);
      await user.click(within(panel).getByRole('button', { name: 'Adelantar pago' }));
      const open = await findMessageDialog();
      expect(within(open).getByText(PROGRAMME_REFUSALS.congelado)).toBeTruthy();
      expect(await processEvents(invoiceId)).toBe(0);
    } finally {
      await setProgrammeState('activo');
    }
  });

  it('retries an approval whose answer was lost with the same key: one advance, the first answer (issue 5)', async () => {
    await signInAs(PROVIDER);
    const invoiceId = await approvedInvoice();
    const uuid = await invoiceUuid(invoiceId);
    const approve = gateEndpoint('post', APPROVE);
    const user = userEvent.setup();
    renderApp(`/dashboard/pronto-pago/?search=${uuid}`);
    await user.click(within(await findRow(uuid)).getByRole('button', { name: `Adelantar pago ${uuid}` }));
    const panel = await openDrawer();
    await waitFor(() => expectFigures(panel), SERVER_WAIT);
    await user.click(within(panel).getByRole('button', { name: 'Adelantar pago' }));
    const first = await approve.waitForRequest();
    expect((await forwardToApp(testApp().app, first)).status).toBe(200);
    await approve.networkError();
    await user.click(
      within(await within(panel).findByRole('alert', {}, SERVER_WAIT)).getByRole('button', {
        name: 'Reintentar',
      }),
    );
    const second = await approve.waitForRequest();
    expect(second.headers.get('idempotency-key')).toBe(first.headers.get('idempotency-key'));
    await approve.pass();
    const open = await findMessageDialog();
    await waitFor(() => expect(open.querySelector('[data-variant="success"]')).toBeTruthy(), SERVER_WAIT);
    expect(await processEvents(invoiceId)).toBe(1);
    await user.click(within(open).getByRole('button', { name: 'Cerrar' }));
    await waitFor(
      async () => expect(within(await findRow(uuid)).getByText('En trámite')).toBeTruthy(),
      SERVER_WAIT,
    );
  });

  it('shows the audit trail of a row: each step with provider labels, actor and date-time; retry on error', async () => {
    await signInAs(PROVIDER);
    const invoiceId = await approvedInvoice();
    const uuid = await invoiceUuid(invoiceId);
    const events = gateEndpoint('get', `/api/invoices/${invoiceId}/events/`);
    const user = userEvent.setup();
    renderApp(`/dashboard/pronto-pago/?search=${uuid}`);
    await user.click(within(await findRow(uuid)).getByRole('button', { name: `Historial ${uuid}` }));
    const panel = await openDrawer();
    expect(within(panel).getByLabelText('Cargando historial…')).toBeTruthy();
    // The app's queries retry once before showing the error.
    await events.respond(500, { detail: 'Error interno' });
    await events.respond(500, { detail: 'Error interno' });
    const alert = await within(panel).findByRole('alert', {}, SERVER_WAIT);
    expect(alert.textContent).toContain(AUDIT_TRAIL_FAILED);
    await user.click(within(alert).getByRole('button', { name: 'Reintentar' }));
    await events.pass();
    const list = await within(panel).findByRole('list', { name: 'Movimientos' }, SERVER_WAIT);
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('strong')?.textContent)).toEqual([
      `${IMPORTED_LABEL} → Por Autorizar`,
      'Por Autorizar → Solicitado',
      'Solicitado → Autorizada',
    ]);
    const trail = await db()
      .selectFrom('invoice_events')
      .select(['actor', 'at'])
      .where('invoice_id', '=', invoiceId)
      .orderBy('id')
      .execute();
    trail.forEach((step, index) => {
      expect(items[index]?.textContent).toContain(step.actor);
      expect(items[index]?.textContent).toContain(formatDisplayDateTime(new Date(step.at).toISOString()));
    });
    expect(items[0]?.querySelector('time')?.textContent).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
  });
});
