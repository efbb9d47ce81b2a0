// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { formatCurrency, parseMoney } from '../../domain/money';
import { advanceQuote, daysUntil, displayedAnnualRate, RATE_LABEL } from '../../domain/quote';
import { CalculatorPage } from './calculator-page';

afterEach(cleanup);

/** What the page shows in its result list, by label. */
function shown(label: string): string {
  const results = screen.getByRole('region', { name: 'Tu adelanto' });
  const term = within(results).getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent ?? '';
}

async function enter({ amount, maxRate, days }: { amount: string; maxRate: string; days: number }) {
  const user = userEvent.setup();
  await user.clear(screen.getByLabelText('Monto de la factura (MXN)'));
  await user.type(screen.getByLabelText('Monto de la factura (MXN)'), amount);
  await user.clear(screen.getByLabelText('Días para la fecha de pago'));
  await user.type(screen.getByLabelText('Días para la fecha de pago'), String(days));
  await user.selectOptions(
    screen.getByLabelText('Tasa anual'),
    `${displayedAnnualRate(maxRate)} % ${RATE_LABEL}`,
  );
}

/** The domain's own answer for the same inputs, formatted the way every money figure is shown. */
function domainFigures(amount: string, maxRate: string, days: number) {
  const invoice = parseMoney(amount);
  const quote = advanceQuote({ amount: invoice, maxRate, days });
  return {
    invoice: formatCurrency(invoice, 'MXN'),
    costFinancing: `−${formatCurrency(quote.costFinancing, 'MXN')}`,
    costConsultancy: `−${formatCurrency(quote.costConsultancy, 'MXN')}`,
    total: formatCurrency(quote.total, 'MXN'),
    rate: `${displayedAnnualRate(maxRate)} % ${RATE_LABEL}`,
  };
}

describe('Calculadora', () => {
  it.each([
    // The decision-0002 example shape at the calculator's default: 250,000.00 at 15.00 % + IVA for 45 days.
    { amount: '250000.00', maxRate: '17.40', days: 45, total: '$241,662.50' },
    // Odd centavos: financing 184.98 after one half-up rounding (src/domain/quote.test.ts).
    { amount: '12345.67', maxRate: '17.40', days: 31, total: '$12,017.48' },
    { amount: '1000000.00', maxRate: '13.92', days: 90, total: '$953,600.00' },
    { amount: '85000.50', maxRate: '23.20', days: 1, total: '$83,959.71' },
  ])('shows the domain quote for $amount at $maxRate for $days days', async (worked) => {
    render(createElement(CalculatorPage));
    await enter(worked);
    const expected = domainFigures(worked.amount, worked.maxRate, worked.days);
    expect(shown('Monto de la factura')).toBe(expected.invoice);
    expect(shown('Tasa anual')).toBe(expected.rate);
    expect(shown('Costo financiero')).toBe(expected.costFinancing);
    expect(shown('Comisión por asesoría (1 % + IVA)')).toBe(expected.costConsultancy);
    expect(shown('Recibes hoy')).toBe(expected.total);
    // And the worked figure by hand, so a shared mistake in both would still show up.
    expect(shown('Recibes hoy')).toBe(worked.total);
  });

  it('shows the rate with the tasa + IVA rule: the stored 17.40 is 15.00 % tasa + IVA', () => {
    render(createElement(CalculatorPage));
    expect(shown('Tasa anual')).toBe('15.00 % tasa + IVA');
    const options = within(screen.getByLabelText('Tasa anual')).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(
      ['12.00', '13.00', '14.00', '15.00', '16.00', '17.00', '18.00', '19.00', '20.00'].map(
        (rate) => `${rate} % tasa + IVA`,
      ),
    );
  });

  it('counts the days to a payment date with the domain, from the visitor’s today', async () => {
    const user = userEvent.setup();
    render(createElement(CalculatorPage));
    await user.click(screen.getByLabelText('Fecha de pago'));
    const now = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    const today = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
    const later = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 60);
    const paymentDate = `${later.getFullYear()}-${pad(later.getMonth() + 1)}-${pad(later.getDate())}`;
    await user.type(screen.getByLabelText('Fecha de pago de la factura'), paymentDate);
    const days = daysUntil(paymentDate, today);
    expect(days).toBe(60);
    expect(shown('Plazo')).toBe('60 días');
    expect(shown('Recibes hoy')).toBe(domainFigures('250000.00', '17.40', days).total);
  });

  it('explains what is wrong instead of computing with a bad amount or term', async () => {
    const user = userEvent.setup();
    render(createElement(CalculatorPage));
    await user.clear(screen.getByLabelText('Monto de la factura (MXN)'));
    await user.type(screen.getByLabelText('Monto de la factura (MXN)'), 'mil pesos');
    expect(screen.getByText('Escribe el monto de la factura en pesos, por ejemplo 150000.00')).toBeTruthy();
    expect(screen.getByLabelText('Monto de la factura (MXN)').getAttribute('aria-invalid')).toBe('true');
    await user.clear(screen.getByLabelText('Monto de la factura (MXN)'));
    await user.type(screen.getByLabelText('Monto de la factura (MXN)'), '$150,000.00');
    await user.clear(screen.getByLabelText('Días para la fecha de pago'));
    await user.type(screen.getByLabelText('Días para la fecha de pago'), '120');
    expect(screen.getByText('Elige un plazo de 1 a 90 días')).toBeTruthy();
    expect(screen.getByText('Completa los datos para ver tu adelanto.')).toBeTruthy();
  });

  it('says a huge amount is too large, with the range, instead of the generic text (issue 33)', async () => {
    const user = userEvent.setup();
    render(createElement(CalculatorPage));
    const amount = screen.getByLabelText('Monto de la factura (MXN)');
    for (const typed of ['$1,000,000,000', '100000000.01', '9'.repeat(40)]) {
      await user.clear(amount);
      await user.type(amount, typed);
      expect(screen.getByText('El monto no puede ser mayor a $100,000,000.00 MXN.')).toBeTruthy();
      expect(amount.getAttribute('aria-invalid')).toBe('true');
    }
    await user.clear(amount);
    await user.type(amount, '100000000.00');
    expect(screen.queryByText('El monto no puede ser mayor a $100,000,000.00 MXN.')).toBeNull();
    expect(shown('Monto de la factura')).toContain('$100,000,000.00');
  });
});
