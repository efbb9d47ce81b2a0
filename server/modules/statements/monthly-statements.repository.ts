import { sql } from 'kysely';
import type { IsoDate } from '../../../src/domain/calendar-date';
import type { StatementMonth } from '../../../src/domain/monthly-statements';
import type { StatementRole } from '../../../src/domain/statements';
import type { Db } from '../../db/database';

// What the monthly statements read (decision 0071): the advances Flujo disbursed and the collections recorded
// on them, from the disbursements and collections tables (never a typed balance), and the statements stored.

/** A disbursed advance with what its statement lines need. */
export interface AdvanceFactsRow {
  invoice_id: number;
  serie: string | null;
  folio: string | null;
  cfdi_uuid: string;
  counterpart: string;
  currency: string;
  amount: string;
  exchange_rate: string | null;
  amount_with_exchange_rate: string;
  cost_financing: string | null;
  cost_consultancy: string | null;
  buyer_funds_advance: boolean;
  disbursed_amount: string;
  disbursement_reference: string;
  disbursed_at: string;
  commission_cfdi: string | null;
}

export interface CollectionFactsRow {
  id: number;
  invoice_id: number;
  serie: string | null;
  folio: string | null;
  cfdi_uuid: string;
  counterpart: string;
  amount: string;
  clave_rastreo: string;
  fecha: string;
}

function sideColumn(role: StatementRole) {
  return role === 'provider' ? 'i.emitter_company_id' : 'i.receiver_company_id';
}

function counterpartColumn(role: StatementRole) {
  return role === 'provider' ? 'i.receiver_name' : 'i.emitter_name';
}

/**
 * The company's advances disbursed before `before` (an instant a day past the month's end in UTC, so every
 * Mexico business day of the month is in; the caller keeps the ones whose business day is in range).
 */
export function findAdvanceFacts(
  db: Db,
  companyId: number,
  role: StatementRole,
  before: Date,
): Promise<AdvanceFactsRow[]> {
  return db
    .selectFrom('invoices as i')
    .innerJoin('disbursements as d', 'd.invoice_id', 'i.id')
    .leftJoin('commission_cfdis as c', 'c.invoice_id', 'i.id')
    .select([
      'i.id as invoice_id',
      'i.serie',
      'i.folio',
      'i.cfdi_uuid',
      `${counterpartColumn(role)} as counterpart`,
      'i.currency',
      'i.amount',
      'i.exchange_rate',
      'i.amount_with_exchange_rate',
      'i.cost_financing',
      'i.cost_consultancy',
      'i.buyer_funds_advance',
      'd.amount as disbursed_amount',
      'd.reference as disbursement_reference',
      'd.at as disbursed_at',
      'c.uuid as commission_cfdi',
    ])
    .where(sideColumn(role), '=', companyId)
    .where('d.at', '<', before.toISOString())
    .orderBy('d.at')
    .orderBy('d.id')
    .execute() as Promise<AdvanceFactsRow[]>;
}

/** The collections recorded on the company's invoices up to `last` (the business day of the payment). */
export function findCollectionFacts(
  db: Db,
  companyId: number,
  role: StatementRole,
  last: IsoDate,
): Promise<CollectionFactsRow[]> {
  return db
    .selectFrom('collections as co')
    .innerJoin('invoices as i', 'i.id', 'co.invoice_id')
    .select([
      'co.id',
      'co.invoice_id',
      'i.serie',
      'i.folio',
      'i.cfdi_uuid',
      `${counterpartColumn(role)} as counterpart`,
      'co.amount',
      'co.clave_rastreo',
      sql<string>`to_char(co.fecha, 'YYYY-MM-DD')`.as('fecha'),
    ])
    .where(sideColumn(role), '=', companyId)
    .where('co.fecha', '<=', last)
    .orderBy('co.fecha')
    .orderBy('co.id')
    .execute() as Promise<CollectionFactsRow[]>;
}

/** Every company (per role) with an advance disbursed before `before`: who may owe a statement. */
export async function findStatementCandidates(
  db: Db,
  before: Date,
): Promise<{ companyId: number; role: StatementRole }[]> {
  const rows = await db
    .selectFrom('invoices as i')
    .innerJoin('disbursements as d', 'd.invoice_id', 'i.id')
    .select(['i.emitter_company_id', 'i.receiver_company_id'])
    .where('d.at', '<', before.toISOString())
    .distinct()
    .execute();
  const seen = new Set<string>();
  const out: { companyId: number; role: StatementRole }[] = [];
  const add = (companyId: number, role: StatementRole) => {
    const key = `${role}:${companyId}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ companyId, role });
  };
  for (const row of rows) {
    add(row.emitter_company_id, 'provider');
    add(row.receiver_company_id, 'corporate');
  }
  return out.sort((a, b) => a.companyId - b.companyId || a.role.localeCompare(b.role));
}

export async function findStoredKinds(db: Db, month: StatementMonth): Promise<Set<string>> {
  const rows = await db
    .selectFrom('monthly_statements')
    .select(['company_id', 'kind'])
    .where('month', '=', month)
    .execute();
  return new Set(rows.map((row) => `${row.kind}:${row.company_id}`));
}

/** Stores a statement unless one exists for that company, month and role; whether this call stored it. */
export async function insertMonthlyStatement(
  db: Db,
  row: {
    companyId: number;
    month: StatementMonth;
    kind: StatementRole;
    opening: string;
    closing: string;
    movements: number;
    pdf: Uint8Array;
    xlsx: Uint8Array;
    generatedAt: Date;
  },
): Promise<boolean> {
  const inserted = await db
    .insertInto('monthly_statements')
    .values({
      company_id: row.companyId,
      month: row.month,
      kind: row.kind,
      opening: row.opening,
      closing: row.closing,
      movements: row.movements,
      pdf: row.pdf,
      xlsx: row.xlsx,
      generated_at: row.generatedAt.toISOString(),
    })
    .onConflict((oc) => oc.columns(['company_id', 'month', 'kind']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export interface StoredStatementRow {
  month: string;
  opening: string;
  closing: string;
  movements: number;
  generated_at: string;
}

/** The company's statements of a role, newest month first. */
export function listMonthlyStatements(
  db: Db,
  companyId: number,
  kind: StatementRole,
): Promise<StoredStatementRow[]> {
  return db
    .selectFrom('monthly_statements')
    .select(['month', 'opening', 'closing', 'movements', 'generated_at'])
    .where('company_id', '=', companyId)
    .where('kind', '=', kind)
    .orderBy('month', 'desc')
    .execute();
}

/** One stored file of the company's statement, or null (another company's month is not told apart). */
export async function findMonthlyStatementFile(
  db: Db,
  companyId: number,
  kind: StatementRole,
  month: StatementMonth,
  format: 'pdf' | 'xlsx',
): Promise<Uint8Array | null> {
  const row = await db
    .selectFrom('monthly_statements')
    .select(format === 'pdf' ? 'pdf as content' : 'xlsx as content')
    .where('company_id', '=', companyId)
    .where('kind', '=', kind)
    .where('month', '=', month)
    .executeTakeFirst();
  return row?.content ?? null;
}
