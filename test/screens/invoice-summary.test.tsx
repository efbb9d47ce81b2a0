import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CORPORATE_STATUS_MEANINGS, InvoiceStatus } from '../../src/domain/invoice-status';
import { formatMoney, parseMoney } from '../../src/domain/money';
import type { CorporateSummaryPage } from '../../src/domain/schemas/corporates';
import { setUser } from '../../src/stores/user.store';
import { renderApp, signInAs } from '../model/harness/render-app';
import { testApp } from '../model/harness/test-server';
import { SERVER_WAIT } from '../support/server-wait';

const CORPORATE = 'corporativo.demo';

async function summaryPage(access: string, query: string): Promise<CorporateSummaryPage> {
  const response = await testApp().app.inject({
    method: 'GET',
    url: `/api/corporates/summary/?page=1&page_size=25&${query}`,
    headers: { authorization: `Bearer ${access}` },
  });
  return response.json() as CorporateSummaryPage;
}

describe('corporate invoice summary (page)', () => {
  it("shows the first page's three indicators and each status's buyer-side explanation on focus", async () => {
    const { access } = await signInAs(CORPORATE);
    setUser({ role: 'corporate' });
    const expected = await summaryPage(access, `status=${InvoiceStatus.PENDING}`);
    const indicators = expected.indicators!;
    renderApp(`/dashboard/resumen-de-facturas/?status=${InvoiceStatus.PENDING}`);

    await screen.findByRole('region', { name: 'Indicadores' }, SERVER_WAIT);
    const card = (name: string) =>
      screen.getByRole('heading', { name }).closest('.flujo-stat-card') as HTMLElement;
    await waitFor(
      () => expect(within(card('Facturas')).getByText(String(indicators.count))).toBeTruthy(),
      SERVER_WAIT,
    );
    expect(within(card('Clientes')).getByText(String(indicators.suppliers_customers))).toBeTruthy();
    // One line per currency, each with its code (the code is set smaller, in its own span).
    const total = card('Monto Total').textContent;
    expect(total).toContain(formatMoney(parseMoney(indicators.total!), 'MXN'));
    expect(total).toContain(formatMoney(parseMoney(indicators.total_usd!), 'USD'));

    const table = screen.getByRole('table', { name: 'Facturas recibidas' });
    const badge = await waitFor(() => {
      const first = table.querySelector<HTMLElement>('.flujo-status-explained');
      expect(first?.textContent).toBe('Solicitado');
      return first as HTMLElement;
    }, SERVER_WAIT);
    fireEvent.focus(badge);
    expect(
      await screen.findByText(CORPORATE_STATUS_MEANINGS[InvoiceStatus.PENDING], {}, SERVER_WAIT),
    ).toBeTruthy();
  });

  it('sends a provider view to its own home', async () => {
    await signInAs(CORPORATE);
    setUser({ role: 'provider' });
    renderApp('/dashboard/resumen-de-facturas/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Pronto Pago' }, SERVER_WAIT)).toBeTruthy();
  });
});
