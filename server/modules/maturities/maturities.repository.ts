import { sql } from 'kysely';
import type { IsoDate } from '../../../src/domain/calendar-date';
import type { Db } from '../../db/database';

// The maturities' reads (decision 0066): the advanced invoices falling due in a range, each with what was
// collected so far (the collections table), and the maturity batch (buyer, due day) each belongs to.

/** One disbursed invoice with its due day, buyer, batch and collections; money as '1234.56' text. */
export interface MaturityRow {
  invoice_id: number;
  due_on: IsoDate;
  corporate_id: number;
  corporate_name: string;
  corporate_rfc: string | null;
  batch_id: number;
  serie: string | null;
  folio: string | null;
  cfdi_uuid: string;
  supplier_name: string;
  supplier_rfc: string;
  currency: string;
  exchange_rate: string | null;
  amount: string;
  amount_mxn: string;
  advanced: string;
  collected: string;
}

export interface MaturityFilter {
  from: IsoDate;
  to: IsoDate;
  corporateId?: number;
}

/**
 * Creates the maturity batch of every (buyer, due day) with an advance in the range that has none yet. ON CONFLICT
 * DO NOTHING on the unique pair: concurrent callers (two processes, the job and a screen) agree on one id.
 */
export async function ensureMaturityBatches(db: Db, filter: MaturityFilter): Promise<void> {
  await sql`
    insert into maturity_batches (corporate_id, due_on)
    select distinct i.receiver_company_id, d.due_on
    from disbursements d join invoices i on i.id = d.invoice_id
    where d.due_on between ${filter.from} and ${filter.to}
      ${filter.corporateId === undefined ? sql`` : sql`and i.receiver_company_id = ${filter.corporateId}`}
    on conflict (corporate_id, due_on) do nothing`.execute(db);
}

/** The advanced invoices falling due in the range, by day, buyer and invoice; their batches must exist. */
export async function listMaturityRows(db: Db, filter: MaturityFilter): Promise<MaturityRow[]> {
  const { rows } = await sql<MaturityRow>`
    select i.id as invoice_id, to_char(d.due_on, 'YYYY-MM-DD') as due_on,
      i.receiver_company_id as corporate_id, c.name as corporate_name, c.rfc as corporate_rfc, b.id as batch_id,
      i.serie, i.folio, i.cfdi_uuid, i.emitter_name as supplier_name, i.emitter_rfc as supplier_rfc,
      i.currency, i.exchange_rate, i.amount::text as amount, i.amount_with_exchange_rate::text as amount_mxn,
      d.amount::text as advanced,
      coalesce((select sum(k.amount) from collections k where k.invoice_id = i.id), 0)::numeric(18, 2)::text
        as collected
    from disbursements d
      join invoices i on i.id = d.invoice_id
      join companies c on c.id = i.receiver_company_id
      join maturity_batches b on b.corporate_id = i.receiver_company_id and b.due_on = d.due_on
    where d.due_on between ${filter.from} and ${filter.to}
      ${filter.corporateId === undefined ? sql`` : sql`and i.receiver_company_id = ${filter.corporateId}`}
    order by d.due_on, c.name, c.id, i.id`.execute(db);
  return rows.map((row) => ({
    ...row,
    invoice_id: Number(row.invoice_id),
    corporate_id: Number(row.corporate_id),
    batch_id: Number(row.batch_id),
  }));
}
