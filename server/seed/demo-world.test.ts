import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { daysBetween } from '../../src/domain/calendar-date';
import { PROVIDER_STATUSES } from '../../src/domain/invoice-status';
import { MAX_PAYMENT_DAYS } from '../../src/domain/payment-date';
import { PERIOD_CODES, periodToDateRange } from '../../src/domain/period';
import { DEMO_PROVIDERS, demoInvoiceLayout } from './demo-world';

describe('demoInvoiceLayout', () => {
  it('on every day of a year (with a leap February and a new year), every demo invoice falls in one of the five period options and is issued before today', () => {
    const problems: string[] = [];
    for (let day = dayjs('2027-06-01'); day.isBefore('2028-06-01'); day = day.add(1, 'day')) {
      const today = day.format('YYYY-MM-DD');
      const ranges = PERIOD_CODES.map((code) => periodToDateRange(code, today));
      const layout = demoInvoiceLayout(today);
      if (layout.length !== 48) problems.push(`${today}: ${layout.length} invoices`);
      for (const { issuedOn } of layout) {
        const matches = ranges.filter((r) => issuedOn >= r.from && issuedOn <= r.to).length;
        if (matches !== 1) problems.push(`${today}: ${issuedOn} in ${matches} periods`);
        // Issued today, its Fecha would lie in the future for a seed run before the time of issue.
        if (issuedOn >= today) problems.push(`${today}: ${issuedOn} not before today`);
        // An approved invoice can still get a payment date after today under the 150-day rule.
        if (daysBetween(issuedOn, today) >= MAX_PAYMENT_DAYS) problems.push(`${today}: ${issuedOn} too old`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('worked example: on 2026-07-31 the spread runs from yesterday back to 149 days ago (March, four months ago)', () => {
    const layout = demoInvoiceLayout('2026-07-31');
    const dates = layout.map((i) => i.issuedOn).sort();
    expect(dates.at(-1)).toBe('2026-07-30');
    expect(dates[0]).toBe('2026-03-04');
    expect(periodToDateRange(50, '2026-07-31').from).toBe('2026-03-01');
    // On the 1st the window is exactly the four previous months: yesterday is last month's last day,
    // and the current month has no demo invoice yet.
    const first = demoInvoiceLayout('2026-03-01')
      .map((i) => i.issuedOn)
      .sort();
    expect([first[0], first.at(-1)]).toEqual(['2025-11-01', '2026-02-28']);
  });

  it('gives each provider every status in both MXN and USD, newest folio first', () => {
    const layout = demoInvoiceLayout('2026-05-15');
    for (const provider of DEMO_PROVIDERS) {
      const own = layout.filter((i) => i.provider === provider);
      for (const status of PROVIDER_STATUSES) {
        const currencies = own.filter((i) => i.status === status).map((i) => i.currency);
        expect(currencies.sort(), `${provider.rfc} ${status}`).toEqual(['MXN', 'USD']);
      }
      const dates = own.map((i) => i.issuedOn);
      expect(dates).toEqual([...dates].sort().reverse());
    }
  });
});
