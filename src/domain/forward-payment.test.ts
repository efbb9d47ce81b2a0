import { describe, expect, it } from 'vitest';
import { FORWARD_PAYMENT_REFUSALS, priceForwardPayment } from './forward-payment';

const TODAY = '2026-07-01';
const FACTS = {
  amountMxn: '100000.00',
  paymentDate: '2026-08-15',
  buyerFundsAdvance: false,
  terms: { maxRate: '17.40', maxDays: null },
};

describe('priceForwardPayment', () => {
  it('quotes 45 days at the alliance rate and gives the figures the invoice stores', () => {
    const pricing = priceForwardPayment(FACTS, TODAY);
    expect(pricing).toMatchObject({
      ok: true,
      maxRate: '17.40',
      quote: { days: 45, total: 9_666_500 },
      figures: {
        cost_financing: '2175.00',
        cost_consultancy: '1160.00',
        factoring_rate: '17.40',
        factoring_date: TODAY,
      },
    });
  });

  it('refuses without an active alliance, on or after the payment date, and beyond max_days', () => {
    expect(priceForwardPayment({ ...FACTS, terms: null }, TODAY)).toEqual({
      ok: false,
      refusal: FORWARD_PAYMENT_REFUSALS.noAlliance,
    });
    expect(priceForwardPayment({ ...FACTS, paymentDate: TODAY }, TODAY)).toEqual({
      ok: false,
      refusal: FORWARD_PAYMENT_REFUSALS.paymentDatePassed,
    });
    const capped = priceForwardPayment({ ...FACTS, terms: { maxRate: '17.40', maxDays: 30 } }, TODAY);
    expect(capped.ok === false && capped.refusal).toContain('30 días');
  });

  it('refuses a quote whose costs exceed the amount, unless the buyer absorbs them', () => {
    // 99.99 % a year for three years costs about three times the amount.
    const tiny = {
      ...FACTS,
      amountMxn: '0.50',
      paymentDate: '2029-07-01',
      terms: { maxRate: '99.99', maxDays: null },
    };
    expect(priceForwardPayment(tiny, TODAY)).toEqual({
      ok: false,
      refusal: FORWARD_PAYMENT_REFUSALS.notQuotable,
    });
    expect(priceForwardPayment({ ...tiny, buyerFundsAdvance: true }, TODAY)).toMatchObject({
      ok: true,
      quote: { total: 50, costFinancing: 0, costConsultancy: 0 },
    });
  });
});
