import { sql } from 'kysely';
import { InvoiceStatus } from '../../../src/domain/invoice-status';
import type { Db } from '../../db/database';

/** One month of one side of a company's CFDI, as numeric text (decision 0038 defines each figure). */
export interface MonthlyCfdiSums {
  /** 'YYYY-MM' of the CFDI's emission date. */
  month: string;
  /** income: CFDI the company issued; expense: CFDI it received. */
  side: 'income' | 'expense';
  /** Not cancelled, in any currency but USD, by MXN value (amount_with_exchange_rate). */
  active_mxn: string;
  /** Not cancelled, in USD, by the CFDI's own dollar amount. */
  active_usd: string;
  /** Cancelled at SAT (DISABLED), every currency, by MXN value. */
  cancelled_mxn: string;
}

/**
 * Every month in which the company issued or received a CFDI Flujo holds, per side: the sums the
 * know-your-business indicators are made of. Two index-friendly halves (emitter, receiver) joined with UNION ALL.
 */
export async function monthlyCfdiSums(db: Db, companyId: number): Promise<MonthlyCfdiSums[]> {
  const disabled = InvoiceStatus.DISABLED;
  const sums = (side: 'income' | 'expense', column: 'emitter_company_id' | 'receiver_company_id') => sql`
    select to_char(date_of_emission, 'YYYY-MM') as month,
           ${side}::text as side,
           coalesce(sum(amount_with_exchange_rate) filter (where currency <> 'USD' and status <> ${disabled}), 0)::text as active_mxn,
           coalesce(sum(amount) filter (where currency = 'USD' and status <> ${disabled}), 0)::text as active_usd,
           coalesce(sum(amount_with_exchange_rate) filter (where status = ${disabled}), 0)::text as cancelled_mxn
    from invoices
    where ${sql.ref(column)} = ${companyId}
    group by 1`;
  const result = await sql<MonthlyCfdiSums>`
    ${sums('income', 'emitter_company_id')}
    union all
    ${sums('expense', 'receiver_company_id')}
    order by month desc, side`.execute(db);
  return result.rows;
}
