import { sql } from 'kysely';
import type { IsoDate } from '../../../src/domain/calendar-date';
import type { Db } from '../../db/database';

/**
 * How many of the buyer's advanced invoices fell due before `today` and still owe part of their MXN value,
 * from the collections (decision 0068): a freeze for morosidad lifts only when this is 0. The aging report
 * (server/modules/collections/aging.repository.ts) reads owing invoices by the same rule.
 */
export async function overdueInvoiceCount(db: Db, corporateId: number, today: IsoDate): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n
    from disbursements d
    join invoices i on i.id = d.invoice_id
    where i.receiver_company_id = ${corporateId}
      and d.due_on < cast(${today} as date)
      and i.amount_with_exchange_rate > (
        select coalesce(sum(c.amount), 0) from collections c
        where c.invoice_id = i.id and c.fecha <= cast(${today} as date)
      )`.execute(db);
  return Number(rows[0]?.n ?? 0);
}
