import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { ProgrammeProposalStatus } from '../../db/schema';

// Programme rows, their limit proposals and state changes (migrations 008 and 010). The ledger's arithmetic
// (reserve, use, cancel, release) lives in programme-ledger.repository.ts and nowhere else.

export interface ProgrammeRow {
  id: number;
  corporate_id: number;
  corporate_name: string;
  corporate_rfc: string | null;
  limit_amount: string;
  reserved: string;
  used: string;
  starts_on: string | null;
  ends_on: string | null;
  state: 'borrador' | 'activo' | 'congelado' | 'vencido';
  grace_days: number;
  moratory_rate: string;
  frozen_for: 'morosidad' | null;
}

export interface ProposalRow {
  id: number;
  programme_id: number;
  proposed_limit: string;
  starts_on: string;
  ends_on: string;
  status: ProgrammeProposalStatus;
  proposed_by: number;
  proposed_by_username: string;
  proposed_at: string;
  decided_by: number | null;
  decided_by_username: string | null;
  decided_at: string | null;
  grace_days: number;
  moratory_rate: string;
}

function programmes(db: Db) {
  return db
    .selectFrom('credit_programmes as p')
    .innerJoin('companies as c', 'c.id', 'p.corporate_id')
    .select([
      'p.id',
      'p.corporate_id',
      'c.name as corporate_name',
      'c.rfc as corporate_rfc',
      'p.limit_amount',
      'p.reserved',
      'p.used',
      'p.starts_on',
      'p.ends_on',
      'p.state',
      'p.grace_days',
      'p.moratory_rate',
      'p.frozen_for',
    ]);
}

/** One programme; `lock` takes its row (FOR UPDATE OF p), as the ledger does before it moves money. */
export async function findProgramme(db: Db, id: number, options: { lock?: boolean } = {}) {
  const query = programmes(db).where('p.id', '=', id);
  const row = await (options.lock ? query.forUpdate('p') : query).executeTakeFirst();
  return (row as ProgrammeRow | undefined) ?? null;
}

export async function findProgrammeOfCorporate(
  db: Db,
  corporateId: number,
  options: { lock?: boolean } = {},
) {
  const query = programmes(db).where('p.corporate_id', '=', corporateId);
  const row = await (options.lock ? query.forUpdate('p') : query).executeTakeFirst();
  return (row as ProgrammeRow | undefined) ?? null;
}

/**
 * The corporate's programme, made in borrador (no limit) when it has none; locked either way. Null when the id
 * is not a corporate's (the company is read inside the INSERT's own statement).
 */
export async function ensureProgramme(trx: Db, corporateId: number): Promise<ProgrammeRow | null> {
  await trx
    .insertInto('credit_programmes')
    .columns(['corporate_id'])
    .expression((eb) =>
      eb.selectFrom('companies').select('id').where('id', '=', corporateId).where('is_corporate', '=', true),
    )
    .onConflict((oc) => oc.column('corporate_id').doNothing())
    .execute();
  return findProgrammeOfCorporate(trx, corporateId, { lock: true });
}

export async function countProgrammes(db: Db): Promise<number> {
  const row = await db
    .selectFrom('credit_programmes')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A page of programmes, by corporate name. */
export async function listProgrammes(
  db: Db,
  page: { offset: number; limit: number },
): Promise<ProgrammeRow[]> {
  const rows = await programmes(db)
    .orderBy('c.name')
    .orderBy('p.id')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  return rows as ProgrammeRow[];
}

function proposals(db: Db) {
  return db
    .selectFrom('programme_limit_proposals as pr')
    .innerJoin('users as proposer', 'proposer.id', 'pr.proposed_by')
    .leftJoin('users as decider', 'decider.id', 'pr.decided_by')
    .select([
      'pr.id',
      'pr.programme_id',
      'pr.proposed_limit',
      'pr.starts_on',
      'pr.ends_on',
      'pr.status',
      'pr.proposed_by',
      'proposer.username as proposed_by_username',
      'pr.proposed_at',
      'pr.decided_by',
      'decider.username as decided_by_username',
      'pr.decided_at',
      'pr.grace_days',
      'pr.moratory_rate',
    ]);
}

/** The pending proposal of each of these programmes (at most one each: a partial unique index). */
export async function pendingProposals(
  db: Db,
  programmeIds: readonly number[],
): Promise<Map<number, ProposalRow>> {
  if (programmeIds.length === 0) return new Map();
  const rows = (await proposals(db)
    .where('pr.programme_id', 'in', programmeIds)
    .where('pr.status', '=', 'pendiente')
    .execute()) as ProposalRow[];
  return new Map(rows.map((row) => [row.programme_id, row]));
}

export async function proposalsOf(db: Db, programmeId: number): Promise<ProposalRow[]> {
  return (await proposals(db)
    .where('pr.programme_id', '=', programmeId)
    .orderBy('pr.id', 'desc')
    .execute()) as ProposalRow[];
}

export async function insertProposal(
  trx: Db,
  proposal: {
    programmeId: number;
    limit: string;
    startsOn: string;
    endsOn: string;
    proposedBy: number;
    graceDays: number;
    moratoryRate: string;
  },
): Promise<number> {
  const row = await trx
    .insertInto('programme_limit_proposals')
    .values({
      programme_id: proposal.programmeId,
      proposed_limit: proposal.limit,
      starts_on: proposal.startsOn,
      ends_on: proposal.endsOn,
      proposed_by: proposal.proposedBy,
      grace_days: proposal.graceDays,
      moratory_rate: proposal.moratoryRate,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function decideProposal(
  trx: Db,
  proposalId: number,
  decision: { status: Exclude<ProgrammeProposalStatus, 'pendiente'>; decidedBy: number },
): Promise<void> {
  await trx
    .updateTable('programme_limit_proposals')
    .set({ status: decision.status, decided_by: decision.decidedBy, decided_at: sql<string>`now()` })
    .where('id', '=', proposalId)
    .execute();
}

/** A programme's terms and state after an approval (the table's CHECK refuses a limit below reserved + used). */
export async function updateProgrammeTerms(
  trx: Db,
  programmeId: number,
  terms: {
    limit: string;
    startsOn: string;
    endsOn: string;
    state: ProgrammeRow['state'];
    graceDays: number;
    moratoryRate: string;
  },
): Promise<void> {
  await trx
    .updateTable('credit_programmes')
    .set({
      limit_amount: terms.limit,
      starts_on: terms.startsOn,
      ends_on: terms.endsOn,
      state: terms.state,
      grace_days: terms.graceDays,
      moratory_rate: terms.moratoryRate,
      // A renewal that leaves congelado (vencido → activo) leaves its cause behind too.
      frozen_for: terms.state === 'congelado' ? sql<'morosidad' | null>`frozen_for` : null,
      updated_at: sql<string>`now()`,
    })
    .where('id', '=', programmeId)
    .execute();
}

/** The programme's state; frozen_for is 'morosidad' only while frozen for late payment (null otherwise). */
export async function updateProgrammeState(
  trx: Db,
  programmeId: number,
  state: ProgrammeRow['state'],
  frozenFor: ProgrammeRow['frozen_for'] = null,
): Promise<void> {
  await trx
    .updateTable('credit_programmes')
    .set({ state, frozen_for: state === 'congelado' ? frozenFor : null, updated_at: sql<string>`now()` })
    .where('id', '=', programmeId)
    .execute();
}

export async function insertStateChange(
  trx: Db,
  change: {
    programmeId: number;
    from: string;
    to: string;
    reason: string | null;
    actorUserId: number | null;
  },
): Promise<void> {
  await trx
    .insertInto('programme_state_changes')
    .values({
      programme_id: change.programmeId,
      from_state: change.from,
      to_state: change.to,
      reason: change.reason,
      actor_user_id: change.actorUserId,
    })
    .execute();
}

export async function stateChangesOf(db: Db, programmeId: number) {
  return db
    .selectFrom('programme_state_changes as s')
    .leftJoin('users as u', 'u.id', 's.actor_user_id')
    .select(['s.from_state', 's.to_state', 's.reason', 'u.username as actor_username', 's.at'])
    .where('s.programme_id', '=', programmeId)
    .orderBy('s.id', 'desc')
    .execute();
}

/** A programme's ledger, newest first, with each invoice's serie, folio and folio fiscal (one statement). */
export async function ledgerWithInvoices(db: Db, programmeId: number) {
  return db
    .selectFrom('programme_ledger as l')
    .innerJoin('invoices as i', 'i.id', 'l.invoice_id')
    .innerJoin('companies as p', 'p.id', 'i.emitter_company_id')
    .select([
      'p.name as provider_name',
      'l.id',
      'l.invoice_id',
      'l.kind',
      'l.amount',
      'l.reference',
      'l.at',
      'i.serie',
      'i.folio',
      'i.cfdi_uuid',
    ])
    .where('l.programme_id', '=', programmeId)
    .orderBy('l.id', 'desc')
    .execute();
}
