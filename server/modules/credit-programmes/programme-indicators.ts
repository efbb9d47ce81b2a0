import { formatMoneyAmount, parseMoney } from '../../../src/domain/money';
import type { Indicators } from '../../../src/domain/schemas/invoices';
import type { Db } from '../../db/database';
import { utilisationPercentage } from './credit-programmes.service';
import { programmeBalances } from './programme-ledger.repository';

/**
 * The corporate's utilisation of its credit programme as the statement's indicators (spec §3: available_credit,
 * credit_used, used_credit_percentage; credit_line is the limit). credit_used counts what advances reserved and
 * what disbursements used: both are drawn against the limit until the corporate pays (decision 0052). Nothing
 * when the corporate has no programme.
 */
export async function programmeIndicators(db: Db, corporateId: number): Promise<Partial<Indicators>> {
  const balances = await programmeBalances(db, corporateId);
  if (!balances) return {};
  const limit = parseMoney(balances.limit);
  const inUse = parseMoney(balances.reserved) + parseMoney(balances.used);
  return {
    credit_line: formatMoneyAmount(limit),
    credit_used: formatMoneyAmount(inUse),
    available_credit: formatMoneyAmount(parseMoney(balances.available)),
    used_credit_percentage: utilisationPercentage(limit, inUse),
  };
}
