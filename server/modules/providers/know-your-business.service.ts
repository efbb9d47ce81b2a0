import { type Centavos, formatMoneyAmount, parseMoney, subtractMoney } from '../../../src/domain/money';
import type { KnowYourBusinessRow } from '../../../src/domain/schemas/invoices';
import type { Db } from '../../db/database';
import { monthlyCfdiSums } from './know-your-business.repository';

interface MonthFigures {
  incomesMxn: Centavos;
  incomesUsd: Centavos;
  expensesMxn: Centavos;
  expensesUsd: Centavos;
  incomesCanceled: Centavos;
  expensesCanceled: Centavos;
}

const ZERO: MonthFigures = {
  incomesMxn: 0,
  incomesUsd: 0,
  expensesMxn: 0,
  expensesUsd: 0,
  incomesCanceled: 0,
  expensesCanceled: 0,
};

function toRow(month: string, figures: MonthFigures): KnowYourBusinessRow {
  return {
    indicator_date: month,
    incomes_mxn: formatMoneyAmount(figures.incomesMxn),
    expenses_mxn: formatMoneyAmount(figures.expensesMxn),
    incomes_usd: formatMoneyAmount(figures.incomesUsd),
    expenses_usd: formatMoneyAmount(figures.expensesUsd),
    // Per currency; never converted into one another (the dollars stay dollars).
    net_capital_mxn: formatMoneyAmount(subtractMoney(figures.incomesMxn, figures.expensesMxn)),
    net_capital_usd: formatMoneyAmount(subtractMoney(figures.incomesUsd, figures.expensesUsd)),
    incomes_canceled: formatMoneyAmount(figures.incomesCanceled),
    expenses_canceled: formatMoneyAmount(figures.expensesCanceled),
  };
}

/**
 * The resume_indicators rows of a company: one per month with any CFDI issued or received, newest first
 * (decision 0038 defines each figure). All months are computed (a company has a few dozen) and the caller pages.
 */
export async function knowYourBusinessRows(db: Db, companyId: number): Promise<KnowYourBusinessRow[]> {
  const months = new Map<string, MonthFigures>();
  for (const sums of await monthlyCfdiSums(db, companyId)) {
    const figures = { ...(months.get(sums.month) ?? ZERO) };
    const active = parseMoney(sums.active_mxn);
    const usd = parseMoney(sums.active_usd);
    const cancelled = parseMoney(sums.cancelled_mxn);
    if (sums.side === 'income') {
      figures.incomesMxn = active;
      figures.incomesUsd = usd;
      figures.incomesCanceled = cancelled;
    } else {
      figures.expensesMxn = active;
      figures.expensesUsd = usd;
      figures.expensesCanceled = cancelled;
    }
    months.set(sums.month, figures);
  }
  return [...months.entries()]
    .sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0))
    .map(([month, figures]) => toRow(month, figures));
}
