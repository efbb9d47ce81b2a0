import { is } from 'superstruct';
import { describe, expect, it } from 'vitest';
import { advisoryFee, advisoryFeeIva } from './advisory-fee';
import {
  buyerCostLine,
  buyerCostResume,
  corporateQuoteLine,
  providerQuote,
  type QuotedInvoice,
  quoteResume,
} from './corporate-quote';
import { formatMoneyAmount } from './money';
import { advanceQuote, daysUntil, displayedAnnualRate } from './quote';
import { CorporateQuote, CorporateQuoteResume } from './schemas/corporates';

const TODAY = '2026-01-16';

function invoice(id: number, currency: 'MXN' | 'USD', amount: string): QuotedInvoice {
  return {
    id,
    fiscal_folio: `0000000${id}-0000-4000-8000-000000000000`,
    serie_folio: `A-${id}`,
    emitter_name: 'Empaques del Bajío, S.A. de C.V.',
    emitter_rfc: 'EBA120815RTA',
    description: 'Cajas',
    currency,
    amount,
  };
}

/** The figures of a quote line as the domain's own functions give them, for comparison. */
function expectedFigures(amount: number, maxRate: string, paymentDate: string) {
  const quote = advanceQuote({ amount, maxRate, days: daysUntil(paymentDate, TODAY) });
  return {
    remaining_days: quote.days,
    max_rate: Number(maxRate),
    annual_rate: displayedAnnualRate(maxRate),
    cost_financing: formatMoneyAmount(quote.costFinancing),
    cost_consultancy: formatMoneyAmount(quote.costConsultancy),
    iva: formatMoneyAmount(advisoryFeeIva(amount)),
    net_amount: formatMoneyAmount(quote.total),
  };
}

describe('corporateQuoteLine', () => {
  it('worked example in MXN: 100,000.00 at 17.40 for 45 days', () => {
    const line = corporateQuoteLine(invoice(1, 'MXN', '100000.00'), '17.4000', '2026-03-02', TODAY);
    expect(is(line, CorporateQuote)).toBe(true);
    // financing 100,000 × 0.174 × 45/360 = 2,175.00; consultancy 1,000.00 + IVA 160.00; net 96,665.00.
    expect(line).toMatchObject({
      currency: 'MXN',
      amount: '100000.00',
      payment_date: '2026-03-02',
      remaining_days: 45,
      max_rate: 17.4,
      annual_rate: '15.00',
      cost_financing: '2175.00',
      cost_consultancy: '1160.00',
      iva: '160.00',
      net_amount: '96665.00',
    });
    expect(line).toMatchObject(expectedFigures(10_000_000, '17.4000', '2026-03-02'));
  });

  it('worked example in USD: 2,494.00 at 18.56 for 30 days, in dollars', () => {
    const line = corporateQuoteLine(invoice(2, 'USD', '2494.00'), '18.5600', '2026-02-15', TODAY);
    // financing 2,494 × 0.1856 × 30/360 = 38.5738… → 38.57; consultancy 24.94 × 1.16 = 28.9304 → 28.93
    // (IVA 28.93 − 24.94 = 3.99); net 2,494 − 38.57 − 28.93 = 2,426.50.
    expect(line).toMatchObject({
      currency: 'USD',
      remaining_days: 30,
      annual_rate: '16.00',
      cost_financing: '38.57',
      cost_consultancy: '28.93',
      iva: '3.99',
      net_amount: '2426.50',
    });
    expect(line).toMatchObject(expectedFigures(249_400, '18.5600', '2026-02-15'));
    expect(advisoryFee(249_400)).toBe(2_893);
  });
});

describe('quoteResume', () => {
  const mxn = corporateQuoteLine(invoice(1, 'MXN', '100000.00'), '17.4000', '2026-03-02', TODAY);
  const mxn2 = corporateQuoteLine(invoice(3, 'MXN', '50000.50'), '19.7200', '2026-02-20', TODAY);
  const usd = corporateQuoteLine(invoice(2, 'USD', '2494.00'), '18.5600', '2026-02-15', TODAY);

  it('sums each figure per currency', () => {
    const resume = quoteResume([mxn, usd, mxn2]);
    expect(is(resume, CorporateQuoteResume)).toBe(true);
    expect(resume).toMatchObject({
      total_quote: '150000.50',
      total_quote_usd: '2494.00',
      total_invoices: 3,
      total_financing_usd: '38.57',
      total_net_usd: '2426.50',
    });
  });

  it('removing a line lowers the totals by exactly its amount and the count by one', () => {
    const all = quoteResume([mxn, usd, mxn2]);
    const without = quoteResume([mxn, usd]);
    expect(Number(all.total_quote) - Number(without.total_quote)).toBeCloseTo(50_000.5, 2);
    expect(without.total_quote_usd).toBe(all.total_quote_usd);
    expect(without.total_invoices).toBe(2);
    const withoutUsd = quoteResume([mxn, mxn2]);
    expect(withoutUsd.total_quote_usd).toBe('0.00');
    expect(withoutUsd.total_quote).toBe(all.total_quote);
  });

  it('the buyer-paid resume: the highest rate, and financing plus consultancy per currency', () => {
    expect(buyerCostResume([mxn, usd])).toEqual({
      rate: 18.56,
      total_invoices: 2,
      total_financing: '2175.00',
      total_consultancy: '1160.00',
      total: '3335.00',
      total_financing_usd: '38.57',
      total_consultancy_usd: '28.93',
      total_usd: '67.50',
    });
    expect(buyerCostLine(usd)).toMatchObject({ id: 2, currency: 'USD', cost_financing: '38.57' });
  });
});

describe('providerQuote', () => {
  it('is the advance quote, or no cost and the whole amount when the buyer absorbs it', () => {
    const input = { amount: 10_000_000, maxRate: 17.4, days: 45 };
    expect(providerQuote(input, false)).toEqual(advanceQuote(input));
    expect(providerQuote(input, true)).toEqual({
      maxRate: 17.4,
      days: 45,
      costFinancing: 0,
      costConsultancy: 0,
      total: 10_000_000,
    });
  });
});
