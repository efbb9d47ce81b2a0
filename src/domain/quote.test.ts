import { is } from 'superstruct';
import { describe, expect, it } from 'vitest';
import {
  advanceQuote,
  advanceQuoteResponse,
  daysUntil,
  displayedAnnualRate,
  isQuotable,
  RATE_LABEL,
  ratePercent,
  rateRange,
  toQuoteResponse,
} from './quote';
import { ForwardPaymentQuote } from './schemas/invoices';

describe('advanceQuote', () => {
  it('worked example: 100,000.00 MXN at max_rate 17.40 for 45 days', () => {
    // financing = 100,000 × 0.174 × 45 / 360 = 2,175.00
    // consultancy = 100,000 × 0.01 × 1.16 = 1,160.00
    // total = 100,000 − 2,175 − 1,160 = 96,665.00
    expect(advanceQuote({ amount: 10_000_000, maxRate: 17.4, days: 45 })).toEqual({
      maxRate: 17.4,
      days: 45,
      costFinancing: 217_500,
      costConsultancy: 116_000,
      total: 9_666_500,
    });
  });

  it('rounds each figure half-up once: 12,345.67 at 17.40 for 31 days', () => {
    // financing = 1,234,567 × 17.4 × 31 / 36,000 = 18,497.5621… → 184.98 (18,498 centavos)
    // consultancy = 1,234,567 × 0.0116 = 14,320.9772 → 143.21
    const quote = advanceQuote({ amount: 1_234_567, maxRate: '17.40', days: 31 });
    expect(quote.costFinancing).toBe(18_498);
    expect(quote.costConsultancy).toBe(14_321);
    expect(quote.total).toBe(1_234_567 - 18_498 - 14_321);
  });

  it('can drop the advisory fee with a zero rule', () => {
    const quote = advanceQuote({
      amount: 10_000_000,
      maxRate: 17.4,
      days: 45,
      advisoryFeeRule: { feePercent: 0, ivaPercent: 16 },
    });
    expect(quote.costConsultancy).toBe(0);
    expect(quote.total).toBe(9_782_500);
  });

  it('rejects impossible inputs', () => {
    expect(() => advanceQuote({ amount: 0, maxRate: 17.4, days: 45 })).toThrow();
    expect(() => advanceQuote({ amount: 100, maxRate: -1, days: 45 })).toThrow();
    expect(() => advanceQuote({ amount: 100, maxRate: 17.4, days: -1 })).toThrow();
    expect(() => advanceQuote({ amount: 100, maxRate: 17.4, days: 1.5 })).toThrow();
    expect(() => advanceQuote({ amount: 10_000, maxRate: 1000, days: 150 })).toThrow(/exceed/);
  });
});

describe('API response', () => {
  it('formats money as strings and matches the ForwardPaymentQuote struct', () => {
    const response = toQuoteResponse(
      advanceQuote({ amount: 10_000_000, maxRate: 17.4, days: 45 }),
      '2026-01-16',
    );
    expect(response).toEqual({
      max_rate: 17.4,
      days: 45,
      cost_financing: '2175.00',
      cost_consultancy: '1160.00',
      total: '96665.00',
      now: '2026-01-16',
    });
    expect(is(response, ForwardPaymentQuote)).toBe(true);
  });

  it('computes days from the payment date', () => {
    expect(
      advanceQuoteResponse({
        amount: 10_000_000,
        maxRate: '17.40',
        paymentDate: '2026-03-02',
        today: '2026-01-16',
      }),
    ).toMatchObject({ days: 45, total: '96665.00', now: '2026-01-16' });
  });
});

describe('displayed rate', () => {
  it('is max_rate / 1.16 with two decimals, labelled tasa + IVA', () => {
    expect(displayedAnnualRate(17.4)).toBe('15.00');
    expect(displayedAnnualRate('17.40')).toBe('15.00');
    expect(displayedAnnualRate(20)).toBe('17.24'); // 17.2413…
    expect(displayedAnnualRate(24.36)).toBe('21.00');
    expect(displayedAnnualRate(0.0058)).toBe('0.01'); // 0.005 → half-up
    expect(RATE_LABEL).toBe('tasa + IVA');
  });

  it('of several lines is one figure when they agree, else the lowest and the highest (issue 33)', () => {
    expect(ratePercent(displayedAnnualRate(17.4))).toBe('15.00%');
    expect(rateRange(['15.00', '15.00'])).toBe('15.00%');
    expect(rateRange(['15.00', '9.50', '12.93'])).toBe('9.50% – 15.00%');
    expect(rateRange([displayedAnnualRate(17.4), displayedAnnualRate(20)])).toBe('15.00% – 17.24%');
    expect(rateRange([])).toBe('');
  });
});

describe('daysUntil', () => {
  it('counts calendar days, across months and years', () => {
    expect(daysUntil('2026-03-02', '2026-01-16')).toBe(45);
    expect(daysUntil('2027-01-01', '2026-12-31')).toBe(1);
    expect(daysUntil('2028-03-01', '2028-02-28')).toBe(2); // leap year
    expect(daysUntil('2026-01-15', '2026-01-16')).toBe(-1);
    expect(() => daysUntil('2026-02-30', '2026-01-16')).toThrow();
  });
});

describe('isQuotable', () => {
  it('is true for a positive amount whose costs fit in it, false for zero or costs beyond the amount', () => {
    expect(isQuotable({ amount: 10_000_000, maxRate: '17.40', days: 45 })).toBe(true);
    expect(isQuotable({ amount: 0, maxRate: '17.40', days: 45 })).toBe(false);
    // 360 % a year for 360 days costs the whole amount, plus the advisory fee.
    expect(isQuotable({ amount: 10_000_000, maxRate: '360', days: 360 })).toBe(false);
  });
});
