import { waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import { businessDate } from '../../server/http/business-date';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { formatMxn, parseMoney } from '../../src/domain/money';
import { advanceQuote, displayedAnnualRate, RATE_LABEL } from '../../src/domain/quote';
import { DAYS_TO_PAYMENT } from '../model/forward-payment.model';
import { testApp } from '../model/harness/test-server';
import { plusDays } from '../model/invoice-lifecycle.model';
import { advanceTo, DEMO_PROVIDER, importInvoice } from '../support/pronto-pago';
import { SERVER_WAIT } from '../support/server-wait';

export const APPROVE = '/api/providers/forward-payment/';

/** The imported test invoice: 86,206.90 + 16% IVA (test/support/pronto-pago.ts). */
export const INVOICE_AMOUNT = '100000.00';

export const db = () => testApp().database.db;

/** What the drawer must show for a 100,000.00 invoice 45 days before its payment date: the domain's figures. */
export function expectedFigures(): Record<string, string> {
  const quote = advanceQuote({
    amount: parseMoney(INVOICE_AMOUNT),
    maxRate: DEMO_PROVIDER.rate,
    days: DAYS_TO_PAYMENT,
  });
  return {
    'Tasa anual': `${displayedAnnualRate(DEMO_PROVIDER.rate)}% ${RATE_LABEL}`,
    'Días de adelanto': String(DAYS_TO_PAYMENT),
    'Costo financiero': formatMxn(quote.costFinancing),
    'Costo de asesoría': formatMxn(quote.costConsultancy),
    'Total a recibir': formatMxn(quote.total),
  };
}

export function drawer(): HTMLElement | null {
  return document.querySelector('.bp6-drawer');
}

export async function openDrawer(): Promise<HTMLElement> {
  await waitFor(() => expect(drawer()).toBeTruthy(), SERVER_WAIT);
  return drawer() as HTMLElement;
}

/**
 * The drawer names the 100,000.00 peso invoice with its currency (no conversion to show) and shows the domain's
 * quote figures, in pesos.
 */
export function expectFigures(panel: HTMLElement): void {
  const invoice = panel.querySelector('dl[aria-label="Factura"]');
  expect(invoice?.querySelector('[data-figure="Monto de la factura"]')?.textContent).toBe(
    formatMxn(parseMoney(INVOICE_AMOUNT)),
  );
  expect(invoice?.querySelector('[data-figure="Valor en pesos"]')).toBeNull();
  const shown = Object.fromEntries(
    [...panel.querySelectorAll('dl[aria-label="Cotización"] dd[data-figure]')].map((dd) => [
      dd.getAttribute('data-figure'),
      dd.textContent,
    ]),
  );
  expect(shown).toEqual(expectedFigures());
}

export async function processEvents(invoiceId: number): Promise<number> {
  const rows = await db()
    .selectFrom('invoice_events')
    .select('id')
    .where('invoice_id', '=', invoiceId)
    .where('to_status', '=', InvoiceStatus.PROCESS)
    .execute();
  return rows.length;
}

/** An invoice of the demo provider, authorized by the demo corporate with payment in 45 days. */
export async function approvedInvoice(): Promise<number> {
  const today = businessDate(new Date());
  const id = await importInvoice(db(), { today });
  await advanceTo(db(), id, 'approved', plusDays(today, DAYS_TO_PAYMENT));
  return id;
}
