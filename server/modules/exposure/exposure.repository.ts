import { sql } from 'kysely';
import type { CapScope } from '../../../src/domain/concentration';
import { type Centavos, parseMoney } from '../../../src/domain/money';
import type { Db } from '../../db/database';
import type { ConcentrationCapKind, ConcentrationCapStatus } from '../../db/schema';

// Exposure (issue 34, decision 0069), read from the tables that hold the money and nowhere else:
//   outstanding = an advanced and disbursed invoice's MXN value (amount_with_exchange_rate) less what the
//     collections table records for it, never below zero;
//   reserved = what the programme ledger holds reserved for the invoice (reserve − use − cancel), the advances
//     requested and not yet paid or rejected.
// exposure = outstanding + reserved.

/** One buyer × supplier pair's outstanding and reserved, in centavos. */
export interface PairExposure {
  buyerId: number;
  supplierId: number;
  outstanding: Centavos;
  reserved: Centavos;
}

const OUTSTANDING_BY_INVOICE = sql`
  select i.id as invoice_id, i.receiver_company_id as buyer_id, i.emitter_company_id as supplier_id,
    d.due_on,
    greatest(i.amount_with_exchange_rate - coalesce(c.collected, 0), 0) as outstanding
  from (select invoice_id, max(due_on) as due_on from disbursements group by invoice_id) d
  join invoices i on i.id = d.invoice_id
  left join (select invoice_id, sum(amount) as collected from collections group by invoice_id) c
    on c.invoice_id = i.id`;

const RESERVED_BY_INVOICE = sql`
  select l.invoice_id,
    sum(case l.kind when 'reserve' then l.amount when 'use' then -l.amount when 'cancel' then -l.amount
      else 0 end) as reserved
  from programme_ledger l
  group by l.invoice_id`;

/** Every pair's exposure (pairs with nothing outstanding and nothing reserved are left out). */
export async function pairExposures(db: Db): Promise<PairExposure[]> {
  const { rows } = await sql<{
    buyer_id: number;
    supplier_id: number;
    outstanding: string;
    reserved: string;
  }>`
    select buyer_id, supplier_id, sum(outstanding)::numeric(18,2)::text as outstanding,
      sum(reserved)::numeric(18,2)::text as reserved
    from (
      select buyer_id, supplier_id, outstanding, 0 as reserved from (${OUTSTANDING_BY_INVOICE}) o
      union all
      select i.receiver_company_id, i.emitter_company_id, 0, r.reserved
      from (${RESERVED_BY_INVOICE}) r join invoices i on i.id = r.invoice_id
      where r.reserved > 0
    ) x
    group by buyer_id, supplier_id
    having sum(outstanding) > 0 or sum(reserved) > 0`.execute(db);
  return rows.map((row) => ({
    buyerId: row.buyer_id,
    supplierId: row.supplier_id,
    outstanding: parseMoney(row.outstanding),
    reserved: parseMoney(row.reserved),
  }));
}

/** Outstanding per due date (the maturity ladder's input). */
export async function outstandingByDueDate(
  db: Db,
): Promise<{ dueOn: string; outstanding: Centavos; invoices: number }[]> {
  const { rows } = await sql<{ due_on: string; outstanding: string; invoices: number }>`
    select to_char(due_on, 'YYYY-MM-DD') as due_on, sum(outstanding)::numeric(18,2)::text as outstanding,
      count(*)::int as invoices
    from (${OUTSTANDING_BY_INVOICE}) o
    where outstanding > 0
    group by due_on order by due_on`.execute(db);
  return rows.map((row) => ({
    dueOn: row.due_on,
    outstanding: parseMoney(row.outstanding),
    invoices: row.invoices,
  }));
}

/** The names (and, for buyers, economic groups) of these companies. */
export async function companiesById(
  db: Db,
  ids: readonly number[],
): Promise<Map<number, { name: string; economicGroup: string | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('companies')
    .select(['id', 'name', 'economic_group'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, { name: row.name, economicGroup: row.economic_group }]));
}

export interface CapRow {
  id: number;
  scope: CapScope;
  company_id: number | null;
  group_name: string | null;
  subject: string;
  kind: ConcentrationCapKind;
  value: string;
  status: ConcentrationCapStatus;
  proposed_by: number;
  proposed_by_username: string;
  proposed_at: string;
  decided_by: number | null;
  decided_by_username: string | null;
  decided_at: string | null;
}

function caps(db: Db) {
  return db
    .selectFrom('concentration_caps as k')
    .leftJoin('companies as c', 'c.id', 'k.company_id')
    .innerJoin('users as proposer', 'proposer.id', 'k.proposed_by')
    .leftJoin('users as decider', 'decider.id', 'k.decided_by')
    .select([
      'k.id',
      'k.scope',
      'k.company_id',
      'k.group_name',
      sql<string>`coalesce(c.name, k.group_name)`.as('subject'),
      'k.kind',
      'k.value',
      'k.status',
      'k.proposed_by',
      'proposer.username as proposed_by_username',
      'k.proposed_at',
      'k.decided_by',
      'decider.username as decided_by_username',
      'k.decided_at',
    ]);
}

/** The caps proposed or in force (the decided history is the audit's), newest first. */
export async function currentCaps(db: Db): Promise<CapRow[]> {
  return (await caps(db)
    .where('k.status', 'in', ['propuesto', 'vigente'])
    .orderBy('k.id', 'desc')
    .execute()) as CapRow[];
}

export async function findCap(db: Db, id: number, options: { lock?: boolean } = {}): Promise<CapRow | null> {
  const query = caps(db).where('k.id', '=', id);
  return (
    ((await (options.lock ? query.forUpdate('k') : query).executeTakeFirst()) as CapRow | undefined) ?? null
  );
}

export type CapSubject =
  | { scope: 'buyer' | 'supplier'; companyId: number }
  | { scope: 'group'; group: string };

/** The subject's cap with this status (one at most: partial unique indexes), locked. */
export async function capOfSubject(
  trx: Db,
  subject: CapSubject,
  status: 'propuesto' | 'vigente',
): Promise<{ id: number } | null> {
  let query = trx
    .selectFrom('concentration_caps')
    .select('id')
    .where('scope', '=', subject.scope)
    .where('status', '=', status);
  query =
    subject.scope === 'group'
      ? query.where('group_name', '=', subject.group)
      : query.where('company_id', '=', subject.companyId);
  return (await query.forUpdate().executeTakeFirst()) ?? null;
}

export async function insertCap(
  trx: Db,
  cap: { subject: CapSubject; kind: ConcentrationCapKind; value: string; proposedBy: number },
): Promise<number> {
  const row = await trx
    .insertInto('concentration_caps')
    .values({
      scope: cap.subject.scope,
      company_id: cap.subject.scope === 'group' ? null : cap.subject.companyId,
      group_name: cap.subject.scope === 'group' ? cap.subject.group : null,
      kind: cap.kind,
      value: cap.value,
      proposed_by: cap.proposedBy,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function setCapStatus(
  trx: Db,
  id: number,
  status: ConcentrationCapStatus,
  decidedBy: number | null,
): Promise<void> {
  await trx
    .updateTable('concentration_caps')
    .set(decidedBy === null ? { status } : { status, decided_by: decidedBy, decided_at: sql<string>`now()` })
    .where('id', '=', id)
    .execute();
}

/**
 * The caps in force on an advance from `buyerId`'s invoice of `supplierId`: the buyer's, its economic group's
 * and the supplier's, locked in id order (every advance locks in the same order, so two never deadlock) so
 * that concurrent advances under one cap queue on its row.
 */
export async function lockCapsOfAdvance(
  trx: Db,
  buyerId: number,
  supplierId: number,
): Promise<{ caps: CapRow[]; group: string | null }> {
  const buyer = await trx
    .selectFrom('companies')
    .select('economic_group')
    .where('id', '=', buyerId)
    .executeTakeFirst();
  const group = buyer?.economic_group ?? null;
  const locked = await trx
    .selectFrom('concentration_caps')
    .select('id')
    .where('status', '=', 'vigente')
    .where((eb) =>
      eb.or([
        eb.and([eb('scope', '=', 'buyer'), eb('company_id', '=', buyerId)]),
        eb.and([eb('scope', '=', 'supplier'), eb('company_id', '=', supplierId)]),
        ...(group === null ? [] : [eb.and([eb('scope', '=', 'group'), eb('group_name', '=', group)])]),
      ]),
    )
    .orderBy('id')
    .forUpdate()
    .execute();
  if (locked.length === 0) return { caps: [], group };
  const rows = (await caps(trx)
    .where(
      'k.id',
      'in',
      locked.map((row) => row.id),
    )
    .where('k.status', '=', 'vigente')
    .orderBy('k.id')
    .execute()) as CapRow[];
  return { caps: rows, group };
}

/** Outstanding + reserved of one buyer, one group, one supplier and of Flujo, read under the caps' locks. */
export async function exposureOf(
  trx: Db,
  subjects: { buyerId: number; supplierId: number; group: string | null },
): Promise<{ buyer: Centavos; group: Centavos; supplier: Centavos; total: Centavos }> {
  const pairs = await pairExposures(trx);
  const groupMembers =
    subjects.group === null
      ? new Set<number>()
      : new Set(
          (
            await trx
              .selectFrom('companies')
              .select('id')
              .where('economic_group', '=', subjects.group)
              .execute()
          ).map((row) => row.id),
        );
  const sums = { buyer: 0, group: 0, supplier: 0, total: 0 };
  for (const pair of pairs) {
    const exposure = pair.outstanding + pair.reserved;
    sums.total += exposure;
    if (pair.buyerId === subjects.buyerId) sums.buyer += exposure;
    if (pair.supplierId === subjects.supplierId) sums.supplier += exposure;
    if (groupMembers.has(pair.buyerId)) sums.group += exposure;
  }
  return sums;
}

/** companies.economic_group of a corporate (the economic group set on its back-office file). */
export async function setEconomicGroup(trx: Db, corporateId: number, group: string | null): Promise<void> {
  await trx.updateTable('companies').set({ economic_group: group }).where('id', '=', corporateId).execute();
}
