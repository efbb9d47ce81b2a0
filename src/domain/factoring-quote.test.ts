import { describe, expect, it } from 'vitest';
import { factoringPlan } from './factoring';
import {
  availableLine,
  expectedFactoringRequest,
  factoringFiguresDiffer,
  factoringQuote,
  instalmentSchedule,
} from './factoring-quote';
import { sumMoney } from './money';

const invoice = { id: 7, fiscalFolio: 'UUID-7', amount: 10_000_000 };

describe('factoringQuote', () => {
  it('gives the one-instalment figures in the spec’s fields and every option', () => {
    const quote = factoringQuote({
      invoice,
      ratePercent: '18.5000',
      today: '2026-03-10',
      availableCredit: 50_000_000,
    });
    expect(quote).toMatchObject({
      max_rate: 18.5,
      days: 30,
      cost_financing: '1541.67',
      cost_consultancy: '1160.00',
      total: '98840.00',
      now: '2026-03-10',
      amount: '100000.00',
      available_credit: '500000.00',
    });
    expect(quote.options.map((option) => [option.installments, option.days])).toEqual([
      [1, 30],
      [2, 60],
      [3, 90],
      [4, 120],
    ]);
  });
});

describe('factoringFiguresDiffer', () => {
  const { request } = expectedFactoringRequest(invoice, '18.5000', 3);
  it('accepts the plan’s own figures', () => {
    expect(factoringFiguresDiffer({ ...request }, request)).toBe(false);
  });
  it('refuses another rate, count or amount', () => {
    expect(factoringFiguresDiffer({ ...request, rate: 18.4 }, request)).toBe(true);
    expect(factoringFiguresDiffer({ ...request, installments: 2 }, request)).toBe(true);
    expect(factoringFiguresDiffer({ ...request, totalPayment: '104625.01' }, request)).toBe(true);
  });
});

describe('instalmentSchedule', () => {
  it('is due every 30 days and frees exactly the line amount', () => {
    const plan = factoringPlan(10_000_001, '18.5', 3);
    const schedule = instalmentSchedule(plan, 10_000_001, '2026-01-31');
    expect(schedule.map((item) => item.dueDate)).toEqual(['2026-03-02', '2026-04-01', '2026-05-01']);
    expect(sumMoney(schedule.map((item) => item.lineRelease))).toBe(10_000_001);
    expect(sumMoney(schedule.map((item) => item.amount))).toBe(plan.totalPayment);
  });
});

describe('availableLine', () => {
  it('is never negative', () => {
    expect(availableLine(100, 30)).toBe(70);
    expect(availableLine(100, 130)).toBe(0);
  });
});
