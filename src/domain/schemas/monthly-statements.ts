import { array, enums, type Infer, integer, string, type } from 'superstruct';
import { moneyAmount } from './common';

// The monthly statements' list (issue 34, decision 0071): GET providers/account/statement/monthly/ and
// corporates/account/statement/monthly/; each month's files are GET …/monthly/{YYYY-MM}.pdf and .xlsx.

export const MonthlyStatementItem = type({
  /** 'YYYY-MM'. */
  month: string(),
  /** 'noviembre de 2026'. */
  label: string(),
  /** Saldo inicial and final in MXN, computed from the movements. */
  opening: moneyAmount,
  closing: moneyAmount,
  movements: integer(),
  /** When the job produced it (ISO 8601 instant). */
  generated_at: string(),
  formats: array(enums(['pdf', 'xlsx'] as const)),
});
export type MonthlyStatementItem = Infer<typeof MonthlyStatementItem>;

export const MonthlyStatementList = type({ results: array(MonthlyStatementItem) });
export type MonthlyStatementList = Infer<typeof MonthlyStatementList>;
