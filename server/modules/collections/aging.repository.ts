import { type RawBuilder, sql } from 'kysely';
import type { IsoDate } from '../../../src/domain/calendar-date';
import type { AgingBucket } from '../../../src/domain/maturities';
import type { Db } from '../../db/database';
import { BUSINESS_TIME_ZONE } from '../../http/business-date';

// Aging from the collection ledger (issue 34, decision 0068), never from a typed balance: an advanced invoice
// owes its MXN value (amount_with_exchange_rate) minus the buyer's collections recorded on or before the as-of
// date; it is aged from disbursements.due_on. The buckets and the moratory interest are computed here, in SQL,
// so a report over 100,000 invoices is one grouped query; src/domain/maturities.ts holds the same rules
// (agingBucket, daysPastDue, moratoryInterest) and the API tests hold the two together.

export interface AgingScope {
  asOf: IsoDate;
  corporateId?: number | undefined;
  programmeId?: number | undefined;
}

/**
 * Every advanced invoice with something outstanding as of the date, with its days past due and bucket
 * (the SQL twin of agingBucket) and its moratory interest at the programme's rate (moratoryInterest: simple,
 * 360-day year, rounded half up to the centavo per invoice).
 */
function owed(scope: AgingScope): RawBuilder<unknown> {
  const asOf = sql`cast(${scope.asOf} as date)`;
  const byCorporate =
    scope.corporateId === undefined ? sql`` : sql`and i.receiver_company_id = ${scope.corporateId}`;
  const byProgramme = scope.programmeId === undefined ? sql`` : sql`and cp.id = ${scope.programmeId}`;
  return sql`
    select i.id as invoice_id, i.receiver_company_id as corporate_id, cp.id as programme_id, d.due_on,
      coalesce(cp.grace_days, 0) as grace_days, coalesce(cp.moratory_rate, 0) as moratory_rate,
      i.amount_with_exchange_rate as value, coalesce(paid.collected, 0) as collected,
      i.amount_with_exchange_rate - coalesce(paid.collected, 0) as outstanding,
      greatest(${asOf} - d.due_on, 0) as days_late,
      case
        when ${asOf} - d.due_on <= 0 then 'al_corriente'
        when ${asOf} - d.due_on <= 30 then '1_30'
        when ${asOf} - d.due_on <= 60 then '31_60'
        when ${asOf} - d.due_on <= 90 then '61_90'
        else 'mas_de_90'
      end as bucket
    from disbursements d
    join invoices i on i.id = d.invoice_id
    left join credit_programmes cp on cp.corporate_id = i.receiver_company_id
    left join (
      select c.invoice_id, sum(c.amount) as collected from collections c
      where c.fecha <= ${asOf} group by c.invoice_id
    ) paid on paid.invoice_id = i.id
    where (d.at at time zone ${BUSINESS_TIME_ZONE})::date <= ${asOf}
      and i.amount_with_exchange_rate > coalesce(paid.collected, 0)
      ${byCorporate} ${byProgramme}`;
}

/** The moratory interest of one row of owed(), in SQL (rounded per invoice, as moratoryInterest). */
const MORATORY = sql`round(o.outstanding * o.moratory_rate * o.days_late / 36000, 2)`;

export interface AgingSumRow {
  key: number;
  bucket: AgingBucket;
  outstanding: string;
  moratory: string;
  invoices: number;
  max_days_late: number;
}

/** Outstanding, moratory interest and invoice count per (buyer or programme) × bucket. */
export async function agingSums(
  db: Db,
  scope: AgingScope,
  by: 'corporate' | 'programme',
): Promise<AgingSumRow[]> {
  const key = by === 'corporate' ? sql`o.corporate_id` : sql`o.programme_id`;
  const { rows } = await sql<AgingSumRow>`
    select ${key} as key, o.bucket, sum(o.outstanding) as outstanding, sum(${MORATORY}) as moratory,
      count(*)::int as invoices, max(o.days_late)::int as max_days_late
    from (${owed(scope)}) o
    where ${key} is not null
    group by ${key}, o.bucket`.execute(db);
  return rows.map((row) => ({ ...row, key: Number(row.key), outstanding: String(row.outstanding) }));
}

export interface AgingInvoiceRow {
  invoice_id: number;
  corporate_id: number;
  corporate_name: string;
  provider_name: string;
  programme_id: number | null;
  serie: string | null;
  folio: string | null;
  cfdi_uuid: string;
  due_on: string;
  grace_days: number;
  moratory_rate: string;
  value: string;
  collected: string;
  outstanding: string;
  days_late: number;
  bucket: AgingBucket;
  moratory: string;
}

/** A page of the owing invoices, latest first (then the oldest due date), with their count. */
export async function agingInvoices(
  db: Db,
  scope: AgingScope,
  page: { offset: number; limit: number },
): Promise<{ count: number; rows: AgingInvoiceRow[] }> {
  const counted = await sql<{ n: number }>`select count(*)::int as n from (${owed(scope)}) o`.execute(db);
  const { rows } = await sql<AgingInvoiceRow>`
    select o.invoice_id, o.corporate_id, buyer.name as corporate_name, supplier.name as provider_name,
      o.programme_id, i.serie, i.folio, i.cfdi_uuid, to_char(o.due_on, 'YYYY-MM-DD') as due_on,
      o.grace_days::int as grace_days, o.moratory_rate::text as moratory_rate, o.value::text as value,
      o.collected::text as collected, o.outstanding::text as outstanding, o.days_late::int as days_late,
      o.bucket, ${MORATORY}::text as moratory
    from (${owed(scope)}) o
    join invoices i on i.id = o.invoice_id
    join companies buyer on buyer.id = o.corporate_id
    join companies supplier on supplier.id = i.emitter_company_id
    order by o.days_late desc, o.due_on, o.invoice_id
    offset ${page.offset} limit ${page.limit}`.execute(db);
  return { count: Number(counted.rows[0]?.n ?? 0), rows };
}

/** The names, programmes and terms of these buyers. */
export async function buyersOf(db: Db, corporateIds: readonly number[]) {
  if (corporateIds.length === 0) return [];
  return db
    .selectFrom('companies as c')
    .leftJoin('credit_programmes as cp', 'cp.corporate_id', 'c.id')
    .select([
      'c.id as corporate_id',
      'c.name as corporate_name',
      'cp.id as programme_id',
      'cp.state as programme_state',
      'cp.ends_on as programme_ends_on',
      'cp.frozen_for',
      'cp.grace_days',
      'cp.moratory_rate',
    ])
    .where('c.id', 'in', corporateIds)
    .orderBy('c.name')
    .execute();
}

export interface DelinquentProgramme {
  programme_id: number;
  corporate_id: number;
  invoices: number;
  oldest_due_on: string;
}

/**
 * The programmes that owe, as of the date, an advanced invoice past its due date plus their grace days
 * (freezesOn(due, grace) <= asOf, i.e. due + grace < asOf) and are not yet frozen for morosidad.
 */
export async function delinquentProgrammes(
  db: Db,
  asOf: IsoDate,
  corporateId?: number,
): Promise<DelinquentProgramme[]> {
  const { rows } = await sql<DelinquentProgramme>`
    select o.programme_id, o.corporate_id, count(*)::int as invoices,
      to_char(min(o.due_on), 'YYYY-MM-DD') as oldest_due_on
    from (${owed({ asOf, corporateId })}) o
    join credit_programmes cp on cp.id = o.programme_id
    where o.due_on + o.grace_days < cast(${asOf} as date)
      and (cp.frozen_for is null)
    group by o.programme_id, o.corporate_id
    order by o.programme_id`.execute(db);
  return rows.map((row) => ({ ...row, programme_id: Number(row.programme_id) }));
}
