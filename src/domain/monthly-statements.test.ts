import { describe, expect, it } from 'vitest';
import {
  type BalanceMovement,
  isStatementMonth,
  monthBounds,
  monthLabel,
  monthlyBalances,
  monthlyStatementFileName,
  needsStatement,
  previousMonth,
} from './monthly-statements';

describe('monthly statements', () => {
  it('the statement due in a month is the previous month, across a year', () => {
    expect(previousMonth('2026-12-01')).toBe('2026-11');
    expect(previousMonth('2026-12-31')).toBe('2026-11');
    expect(previousMonth('2027-01-10')).toBe('2026-12');
  });

  it('a month runs from its first to its last day, February of a leap year included', () => {
    expect(monthBounds('2026-02')).toEqual({ first: '2026-02-01', last: '2026-02-28' });
    expect(monthBounds('2028-02')).toEqual({ first: '2028-02-01', last: '2028-02-29' });
    expect(monthBounds('2026-12')).toEqual({ first: '2026-12-01', last: '2026-12-31' });
    expect(() => monthBounds('2026-13')).toThrow();
  });

  it('only YYYY-MM with a real month is a statement month', () => {
    expect(isStatementMonth('2026-11')).toBe(true);
    expect(isStatementMonth('2026-00')).toBe(false);
    expect(isStatementMonth('2026-1')).toBe(false);
    expect(isStatementMonth('../etc')).toBe(false);
  });

  it('names months in Spanish and files by month', () => {
    expect(monthLabel('2026-11')).toBe('noviembre de 2026');
    expect(monthLabel('2027-01')).toBe('enero de 2027');
    expect(monthlyStatementFileName('2026-11', 'xlsx')).toBe('estado-de-cuenta-2026-11.xlsx');
  });

  const movements: BalanceMovement[] = [
    { date: '2026-10-05', kind: 'advance', amount: 100_000_00 },
    { date: '2026-10-05', kind: 'disbursement', amount: 97_000_00 },
    { date: '2026-10-05', kind: 'commission', amount: 3_000_00 },
    { date: '2026-10-30', kind: 'collection', amount: 40_000_00 },
    { date: '2026-11-30', kind: 'collection', amount: 60_000_00 },
    { date: '2026-11-02', kind: 'advance', amount: 50_000_00 },
    { date: '2026-11-02', kind: 'commission', amount: 1_500_00 },
    { date: '2026-12-01', kind: 'advance', amount: 999_00 },
  ];

  it('opening sums every effect before the month, closing adds the month and ignores later ones', () => {
    const result = monthlyBalances(movements, '2026-11');
    expect(result.opening).toBe(60_000_00);
    expect(result.closing).toBe(60_000_00 + 50_000_00 - 60_000_00);
    expect(result.movements.map((movement) => movement.date)).toEqual([
      '2026-11-02',
      '2026-11-02',
      '2026-11-30',
    ]);
    // Same-day movements keep their order; informative ones leave the balance as it was.
    expect(result.movements.map((movement) => movement.kind)).toEqual([
      'advance',
      'commission',
      'collection',
    ]);
    expect(result.running).toEqual([110_000_00, 110_000_00, 50_000_00]);
    expect(result.totals).toEqual({
      advance: 50_000_00,
      disbursement: 0,
      commission: 1_500_00,
      collection: 60_000_00,
    });
  });

  it('a payment above what is owed leaves a negative balance (saldo a favor)', () => {
    const result = monthlyBalances(
      [
        { date: '2026-11-01', kind: 'advance', amount: 10_00 },
        { date: '2026-11-20', kind: 'collection', amount: 15_00 },
      ],
      '2026-11',
    );
    expect(result.closing).toBe(-5_00);
  });

  it('a month gets a statement when something moved or a balance carries over, not otherwise', () => {
    expect(needsStatement(monthlyBalances(movements, '2026-11'))).toBe(true);
    // October's balance of 60,000.00 carries into a quiet month.
    expect(needsStatement(monthlyBalances(movements.slice(0, 4), '2026-11'))).toBe(true);
    const settled = movements
      .slice(0, 4)
      .concat({ date: '2026-10-31', kind: 'collection', amount: 60_000_00 });
    expect(needsStatement(monthlyBalances(settled, '2026-11'))).toBe(false);
  });
});
