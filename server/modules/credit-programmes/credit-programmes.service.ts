import type { IsoDate } from '../../../src/domain/calendar-date';
import { ONBOARDING_STATE_LABELS } from '../../../src/domain/corporate-file';
import { DELINQUENCY_MESSAGES } from '../../../src/domain/delinquency';
import { invoiceLabel } from '../../../src/domain/invoice-label';
import { type Centavos, formatCurrency, formatMoneyAmount, parseMoney } from '../../../src/domain/money';
import type { OperatorRole } from '../../../src/domain/operator-roles';
import { effectiveProgrammeState } from '../../../src/domain/programme-lending';
import type {
  ProgrammeDetail,
  ProgrammeProposal,
  ProgrammeSummary,
  ProposeProgrammeBody,
} from '../../../src/domain/schemas/credit-programmes';
import { corporateAccess } from '../../../src/machines/corporate-onboarding.machine';
import {
  type CreditProgrammeEvent,
  type CreditProgrammeStateName,
  nextProgramme,
  type StoredProgrammeState,
  storedState,
} from '../../../src/machines/credit-programme.machine';
import type { Db } from '../../db/database';
import { findCorporateOnboarding } from '../accounts/corporate-account.repository';
import type { CallOutcome } from '../idempotency/idempotency.service';
import {
  decideProposal,
  ensureProgramme,
  findProgramme,
  insertProposal,
  insertStateChange,
  ledgerWithInvoices,
  type ProgrammeRow,
  type ProposalRow,
  pendingProposals,
  proposalsOf,
  stateChangesOf,
  updateProgrammeState,
  updateProgrammeTerms,
} from './credit-programmes.repository';
import { overdueInvoiceCount } from './overdue.repository';
import { holdingsByInvoice } from './programme-ledger.repository';

/** Spanish refusals of the programme calls (their one home). */
export const PROGRAMME_REFUSALS = {
  notFound: 'Programa no encontrado.',
  corporateNotFound: 'Corporativo no encontrado.',
  corporateNotActive: (stateLabel: string) =>
    `Solo se propone o aprueba un programa para un corporativo activo; este está en estado ${stateLabel}.`,
  alreadyPending:
    'Este programa ya tiene una propuesta de límite pendiente: debe aprobarse antes de proponer otra.',
  nothingPending: 'Este programa no tiene una propuesta de límite pendiente de aprobar.',
  selfApproval: 'Otro aprobador debe aprobar este límite: quien lo propone no puede aprobarlo.',
  freezeNotActive: 'Solo se congela un programa activo.',
  unfreezeNotFrozen: 'Solo se descongela un programa congelado.',
  notNow: 'El programa no admite esta acción en su estado actual.',
  belowCommitted: (committed: Centavos) =>
    `El límite no puede ser menor que lo reservado y usado del programa (${formatCurrency(committed, 'MXN')} MXN).`,
} as const;

export class ProgrammeRequestError extends Error {
  constructor(
    readonly statusCode: 403 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

/** The operator acting (server/modules/operator's currentOperator). */
export interface ProgrammeOperator {
  id: number;
  roles: readonly OperatorRole[];
}

/**
 * The stored state as of today (decision 0052: vencido is derived when read, stored by the next write; the
 * ledger's reserve refuses outside [starts_on, ends_on] on its own), by src/domain/programme-lending.ts.
 */
const effectiveState = (row: Pick<ProgrammeRow, 'state' | 'ends_on'>, today: IsoDate): StoredProgrammeState =>
  effectiveProgrammeState({ state: row.state, endsOn: row.ends_on }, today);

function stateName(row: ProgrammeRow, pending: ProposalRow | null, today: IsoDate): CreditProgrammeStateName {
  const state = effectiveState(row, today);
  return pending !== null && (state === 'borrador' || state === 'vencido') ? 'pendiente' : state;
}

/** What the machine moves the programme to, or the refusal (409 unless `refusal` says otherwise). */
function decide(
  row: ProgrammeRow,
  pending: ProposalRow | null,
  today: IsoDate,
  event: CreditProgrammeEvent,
  refusal: string = PROGRAMME_REFUSALS.notNow,
): StoredProgrammeState {
  return decideWithCause(row, pending, today, event, refusal).state;
}

/** decide(), and whether the programme is then frozen for morosidad (the 'delinquent' node). */
export function decideWithCause(
  row: ProgrammeRow,
  pending: ProposalRow | null,
  today: IsoDate,
  event: CreditProgrammeEvent,
  refusal: string = PROGRAMME_REFUSALS.notNow,
): { state: StoredProgrammeState; delinquent: boolean } {
  const before = effectiveState(row, today);
  const next = nextProgramme(
    {
      state: before,
      proposerId: pending?.proposed_by ?? null,
      endsOn: row.ends_on,
      frozenFor: row.frozen_for,
    },
    event,
  );
  if (next === null) throw new ProgrammeRequestError(409, refusal);
  return { state: storedState(next.state, before), delinquent: next.delinquent };
}

function committed(row: Pick<ProgrammeRow, 'reserved' | 'used'>): Centavos {
  return parseMoney(row.reserved) + parseMoney(row.used);
}

function toProposal(row: ProposalRow): ProgrammeProposal {
  return {
    id: row.id,
    limit: row.proposed_limit,
    starts_on: row.starts_on,
    ends_on: row.ends_on,
    status: row.status,
    proposed_by: row.proposed_by,
    proposed_by_username: row.proposed_by_username,
    proposed_at: new Date(row.proposed_at).toISOString(),
    decided_by: row.decided_by,
    decided_by_username: row.decided_by_username,
    decided_at: row.decided_at === null ? null : new Date(row.decided_at).toISOString(),
    grace_days: row.grace_days,
    moratory_rate: rateText(row.moratory_rate),
  };
}

/** A stored numeric(7,4) rate as people write it: '36.0000' → '36', '36.5000' → '36.5'. */
export function rateText(stored: string): string {
  return String(Number(stored));
}

/** Used plus reserved over the limit in percent, two decimals (0 without a limit). */
export function utilisationPercentage(limit: Centavos, inUse: Centavos): number {
  if (limit <= 0) return 0;
  return Math.round((inUse * 10_000) / limit) / 100;
}

export function toProgrammeSummary(
  row: ProgrammeRow,
  pending: ProposalRow | null,
  today: IsoDate,
): ProgrammeSummary {
  const limit = parseMoney(row.limit_amount);
  const inUse = committed(row);
  const state = stateName(row, pending, today);
  return {
    id: row.id,
    corporate_id: row.corporate_id,
    corporate_name: row.corporate_name,
    corporate_rfc: row.corporate_rfc,
    state,
    limit: formatMoneyAmount(limit),
    reserved: formatMoneyAmount(parseMoney(row.reserved)),
    used: formatMoneyAmount(parseMoney(row.used)),
    available: formatMoneyAmount(Math.max(0, limit - inUse)),
    utilisation_percentage: utilisationPercentage(limit, inUse),
    starts_on: row.starts_on,
    ends_on: row.ends_on,
    pending_proposal: pending === null ? null : toProposal(pending),
    grace_days: row.grace_days,
    moratory_rate: rateText(row.moratory_rate),
    // Only while it is frozen today: an expired programme is vencido, whatever froze it before.
    frozen_for: state === 'congelado' ? row.frozen_for : null,
  };
}

async function pendingOf(db: Db, programmeId: number): Promise<ProposalRow | null> {
  return (await pendingProposals(db, [programmeId])).get(programmeId) ?? null;
}

/**
 * A programme serves a corporate that may operate: the onboarding machine's access decides (decision 0058). The
 * company row is locked before the programme's (the onboarding's changes lock it too), so no suspension or
 * rejection slips in between; proposal and approval take the locks in that same order.
 */
async function lockActiveCorporate(trx: Db, corporateId: number): Promise<void> {
  const corporate = await findCorporateOnboarding(trx, corporateId, { lock: true });
  if (!corporate) throw new ProgrammeRequestError(404, PROGRAMME_REFUSALS.corporateNotFound);
  if (!corporateAccess(corporate.onboarding_state).ok) {
    throw new ProgrammeRequestError(
      409,
      PROGRAMME_REFUSALS.corporateNotActive(ONBOARDING_STATE_LABELS[corporate.onboarding_state]),
    );
  }
}

async function lockedProgramme(trx: Db, programmeId: number): Promise<ProgrammeRow> {
  const row = await findProgramme(trx, programmeId, { lock: true });
  if (!row) throw new ProgrammeRequestError(404, PROGRAMME_REFUSALS.notFound);
  return row;
}

/** Refuses a limit below what the programme already reserved and used. */
function requireRoomFor(row: ProgrammeRow, limit: string): void {
  const inUse = committed(row);
  if (parseMoney(limit) < inUse)
    throw new ProgrammeRequestError(409, PROGRAMME_REFUSALS.belowCommitted(inUse));
}

/** GET operator/programmes/{id}/: the programme with its ledger, proposals and state changes. */
export async function programmeDetail(db: Db, programmeId: number, today: IsoDate): Promise<ProgrammeDetail> {
  const row = await findProgramme(db, programmeId);
  if (!row) throw new ProgrammeRequestError(404, PROGRAMME_REFUSALS.notFound);
  const [proposals, changes, ledger] = await Promise.all([
    proposalsOf(db, programmeId),
    stateChangesOf(db, programmeId),
    ledgerWithInvoices(db, programmeId),
  ]);
  const pending = proposals.find((proposal) => proposal.status === 'pendiente') ?? null;
  const holdings = holdingsByInvoice(ledger);
  // The ledger comes newest first: an invoice's first entry names it.
  const named = new Map<number, (typeof ledger)[number]>();
  for (const entry of ledger) if (!named.has(entry.invoice_id)) named.set(entry.invoice_id, entry);
  return {
    programme: toProgrammeSummary(row, pending, today),
    ledger: ledger.map((entry) => ({
      id: entry.id,
      invoice_id: entry.invoice_id,
      invoice_label: invoiceLabel(entry),
      kind: entry.kind,
      amount: formatMoneyAmount(parseMoney(entry.amount)),
      reference: entry.reference,
      at: new Date(entry.at).toISOString(),
    })),
    collectible: [...holdings].flatMap(([invoiceId, { used }]) => {
      const entry = named.get(invoiceId);
      return entry && used > 0
        ? [
            {
              invoice_id: invoiceId,
              invoice_label: invoiceLabel(entry),
              provider_name: entry.provider_name,
              used: formatMoneyAmount(used),
            },
          ]
        : [];
    }),
    proposals: proposals.map(toProposal),
    state_changes: changes.map((change) => ({
      from_state: change.from_state,
      to_state: change.to_state,
      reason: change.reason,
      actor_username: change.actor_username ?? null,
      at: new Date(change.at).toISOString(),
    })),
  };
}

async function summaryOf(trx: Db, programmeId: number, today: IsoDate): Promise<ProgrammeSummary> {
  const row = await findProgramme(trx, programmeId);
  if (!row) throw new ProgrammeRequestError(404, PROGRAMME_REFUSALS.notFound);
  return toProgrammeSummary(row, await pendingOf(trx, programmeId), today);
}

/**
 * POST operator/programmes/: a new limit (or a raise, or a renewal with new dates) for a corporate, waiting for
 * a different aprobador. Makes the corporate's programme in borrador when it has none.
 */
export async function proposeProgramme(
  trx: Db,
  operator: ProgrammeOperator,
  body: ProposeProgrammeBody,
  today: IsoDate,
): Promise<CallOutcome> {
  await lockActiveCorporate(trx, body.corporate_id);
  const row = await ensureProgramme(trx, body.corporate_id);
  if (!row) throw new ProgrammeRequestError(404, PROGRAMME_REFUSALS.corporateNotFound);
  if (await pendingOf(trx, row.id)) throw new ProgrammeRequestError(409, PROGRAMME_REFUSALS.alreadyPending);
  decide(row, null, today, {
    type: 'programme.propose',
    actor: { userId: operator.id, roles: operator.roles },
  });
  requireRoomFor(row, body.limit);
  await insertProposal(trx, {
    programmeId: row.id,
    limit: formatMoneyAmount(parseMoney(body.limit)),
    startsOn: body.starts_on,
    endsOn: body.ends_on,
    proposedBy: operator.id,
    // Not given: the programme keeps what it has (a raise that only moves the limit).
    graceDays: body.grace_days ?? row.grace_days,
    moratoryRate: body.moratory_rate?.trim() ?? rateText(row.moratory_rate),
  });
  return { statusCode: 201, body: await summaryOf(trx, row.id, today) };
}

/**
 * POST operator/programmes/{id}/approve/: applies the pending proposal when the approver is not its proposer
 * (four eyes, also a CHECK in migration 010); the first approval makes the programme activo.
 */
export async function approveProgramme(
  trx: Db,
  operator: ProgrammeOperator,
  programmeId: number,
  today: IsoDate,
): Promise<CallOutcome> {
  const unlocked = await findProgramme(trx, programmeId);
  if (!unlocked) throw new ProgrammeRequestError(404, PROGRAMME_REFUSALS.notFound);
  await lockActiveCorporate(trx, unlocked.corporate_id);
  const row = await lockedProgramme(trx, programmeId);
  const pending = await pendingOf(trx, row.id);
  if (!pending) throw new ProgrammeRequestError(409, PROGRAMME_REFUSALS.nothingPending);
  if (pending.proposed_by === operator.id)
    throw new ProgrammeRequestError(403, PROGRAMME_REFUSALS.selfApproval);
  const before = effectiveState(row, today);
  const state = decide(row, pending, today, {
    type: 'programme.approve',
    actor: { userId: operator.id, roles: operator.roles },
  });
  requireRoomFor(row, pending.proposed_limit);
  await updateProgrammeTerms(trx, row.id, {
    limit: pending.proposed_limit,
    startsOn: pending.starts_on,
    endsOn: pending.ends_on,
    state,
    graceDays: pending.grace_days,
    moratoryRate: pending.moratory_rate,
  });
  await decideProposal(trx, pending.id, { status: 'aprobada', decidedBy: operator.id });
  if (state !== row.state || before !== row.state) {
    await insertStateChange(trx, {
      programmeId: row.id,
      from: row.state,
      to: state,
      reason: `Límite aprobado: ${formatCurrency(parseMoney(pending.proposed_limit), 'MXN')} MXN`,
      actorUserId: operator.id,
    });
  }
  return { statusCode: 200, body: await summaryOf(trx, row.id, today) };
}

/** POST operator/programmes/{id}/freeze/ (activo → congelado) and …/unfreeze/ (congelado → activo), with why. */
export async function changeProgrammeState(
  trx: Db,
  operator: ProgrammeOperator,
  programmeId: number,
  change: { type: 'programme.freeze' | 'programme.unfreeze'; reason: string },
  today: IsoDate,
): Promise<CallOutcome> {
  const row = await lockedProgramme(trx, programmeId);
  const pending = await pendingOf(trx, row.id);
  const refusal =
    change.type === 'programme.freeze'
      ? PROGRAMME_REFUSALS.freezeNotActive
      : PROGRAMME_REFUSALS.unfreezeNotFrozen;
  const actor = { userId: operator.id, roles: operator.roles };
  // A freeze for morosidad lifts only once the buyer's overdue invoices are collected (read from the
  // collections, never a typed balance): the machine's guard, with the server's count as its fact.
  const overdue =
    change.type === 'programme.unfreeze' && row.frozen_for === 'morosidad'
      ? await overdueInvoiceCount(trx, row.corporate_id, today)
      : 0;
  const event: CreditProgrammeEvent =
    change.type === 'programme.unfreeze'
      ? { type: change.type, actor, reason: change.reason, overdueCollected: overdue === 0 }
      : { type: change.type, actor, reason: change.reason };
  if (overdue > 0 && actor.roles.includes('aprobador') && change.reason.trim() !== '')
    throw new ProgrammeRequestError(409, DELINQUENCY_MESSAGES.unfreezeOverdue(overdue));
  const { state: after } = decideWithCause(row, pending, today, event, refusal);
  await updateProgrammeState(trx, row.id, after);
  await insertStateChange(trx, {
    programmeId: row.id,
    from: row.state,
    to: after,
    reason: change.reason,
    actorUserId: operator.id,
  });
  return { statusCode: 200, body: await summaryOf(trx, row.id, today) };
}

/** Summaries of a page of programme rows, with their pending proposals. */
export async function programmeSummaries(db: Db, rows: readonly ProgrammeRow[], today: IsoDate) {
  const pending = await pendingProposals(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toProgrammeSummary(row, pending.get(row.id) ?? null, today));
}
