import { sql } from 'kysely';
import type { IsoDate } from '../../../src/domain/calendar-date';
import { DELINQUENCY_MESSAGES, DELINQUENCY_REASON } from '../../../src/domain/delinquency';
import { AGING_BUCKETS, type AgingBucket } from '../../../src/domain/maturities';
import { type Centavos, formatMoneyAmount, parseMoney } from '../../../src/domain/money';
import { paths } from '../../../src/domain/paths';
import type { Db } from '../../db/database';
import type { Mailer } from '../../mail/mailer';
import {
  findProgramme,
  insertStateChange,
  pendingProposals,
  updateProgrammeState,
} from '../credit-programmes/credit-programmes.repository';
import { decideWithCause, ProgrammeRequestError } from '../credit-programmes/credit-programmes.service';
import { type MaturityNoticeCounts, sendMaturityNotices } from '../maturities/maturity-notices';
import { agingSums, delinquentProgrammes } from './aging.repository';

// The day's collections (issue 34, decision 0068): `npm run ops -- collections:run-day [--date]` and the
// collections-day job run this same function. As of the date it sends the buyers' maturity notices, ages what buyers owe (from the collections,
// never a typed balance) and freezes, through the credit-programme machine, every programme that still owes an
// advanced invoice past its due date plus the programme's grace days; the aprobadores are told by e-mail.
// Running a day twice changes nothing the second time (an already frozen programme is not frozen again).

/** Who the audit names for what the run does on its own: the job, or the ops command's automation account. */
export interface CollectionsDayActor {
  /** operator_actions.operator_username: 'sistema:cobranza-del-dia' or 'ops:<account>'. */
  username: string;
  /** operator_actions.method: 'JOB' or 'OPS'. */
  via: 'JOB' | 'OPS';
}

export const COLLECTIONS_DAY_JOB_ACTOR: CollectionsDayActor = {
  username: 'sistema:cobranza-del-dia',
  via: 'JOB',
};

/** The audit's name for a freeze for morosidad. */
export const DELINQUENCY_FREEZE_ACTION = 'Congelar programa por morosidad';

export interface CollectionsDayDeps {
  mailer: Mailer;
  appBaseUrl: string;
  actor: CollectionsDayActor;
  /** Flujo's collection CLABE, named in the maturity notices (COLLECTION_CLABE). */
  collectionClabe: string;
}

export interface FrozenProgramme {
  programmeId: number;
  corporateId: number;
  corporateName: string;
  invoices: number;
  oldestDueOn: IsoDate;
}

export interface CollectionsDayResult {
  asOf: IsoDate;
  /** The buyers' maturity notices of the day (5 and 1 business days before, decision 0066). */
  notices: MaturityNoticeCounts;
  /** What buyers owe as of the date, per aging bucket, and the invoices that owe it. */
  aging: { buckets: Record<AgingBucket, Centavos>; outstanding: Centavos; invoices: number };
  frozen: FrozenProgramme[];
  /** Programmes found late that the machine did not freeze (expired, or never approved). */
  skipped: number;
  /** Aprobadores e-mailed, per freeze. */
  mailed: number;
}

async function agingOf(db: Db, asOf: IsoDate): Promise<CollectionsDayResult['aging']> {
  const rows = await agingSums(db, { asOf }, 'corporate');
  const buckets = Object.fromEntries(AGING_BUCKETS.map((bucket) => [bucket, 0])) as Record<
    AgingBucket,
    Centavos
  >;
  let outstanding = 0;
  let invoices = 0;
  for (const row of rows) {
    const amount = parseMoney(row.outstanding);
    buckets[row.bucket] += amount;
    outstanding += amount;
    invoices += Number(row.invoices);
  }
  return { buckets, outstanding, invoices };
}

/**
 * Freezes one late programme for morosidad, in one transaction: locked, checked again under the lock, moved
 * by the machine's 'programme.delinquent', its state change (reason 'morosidad') and an audit row written.
 * Null when it no longer owes, is already frozen for morosidad, or the machine refuses (vencido, borrador).
 */
async function freezeForDelinquency(
  db: Db,
  programmeId: number,
  asOf: IsoDate,
  actor: CollectionsDayActor,
): Promise<FrozenProgramme | null> {
  return db.transaction().execute(async (trx) => {
    const row = await findProgramme(trx, programmeId, { lock: true });
    if (!row || row.frozen_for === 'morosidad') return null;
    const [late] = await delinquentProgrammes(trx, asOf, row.corporate_id);
    if (!late || late.programme_id !== row.id) return null;
    const pending = (await pendingProposals(trx, [row.id])).get(row.id) ?? null;
    let decision: ReturnType<typeof decideWithCause>;
    try {
      decision = decideWithCause(row, pending, asOf, {
        type: 'programme.delinquent',
        reason: DELINQUENCY_REASON,
      });
    } catch (error) {
      if (error instanceof ProgrammeRequestError) return null;
      throw error;
    }
    if (!decision.delinquent) return null;
    await updateProgrammeState(trx, row.id, decision.state, DELINQUENCY_REASON);
    await insertStateChange(trx, {
      programmeId: row.id,
      from: row.state,
      to: decision.state,
      reason: DELINQUENCY_REASON,
      actorUserId: null,
    });
    await trx
      .insertInto('operator_actions')
      .values({
        operator_user_id: null,
        operator_username: actor.username,
        action: DELINQUENCY_FREEZE_ACTION,
        method: actor.via,
        route: 'collections:run-day',
        params: JSON.stringify({
          programme_id: row.id,
          corporate_id: row.corporate_id,
          fecha: asOf,
          overdue_invoices: late.invoices,
          oldest_due_on: late.oldest_due_on,
        }),
        status_code: 200,
        reason: DELINQUENCY_REASON,
      })
      .execute();
    return {
      programmeId: row.id,
      corporateId: row.corporate_id,
      corporateName: row.corporate_name,
      invoices: late.invoices,
      oldestDueOn: late.oldest_due_on,
    };
  });
}

/** The active aprobadores' addresses: who may unfreeze is who is told. */
async function aprobadorEmails(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select('email')
    .where('is_active', '=', true)
    .where(sql<boolean>`'aprobador' = any(operator_roles)`)
    .orderBy('id')
    .execute();
  return [...new Set(rows.map((row) => row.email.trim()).filter(Boolean))];
}

/** The day's collections as of `asOf`: aging, then freezes (and their e-mails). */
export async function runCollectionsDay(
  db: Db,
  asOf: IsoDate,
  deps: CollectionsDayDeps,
  /** Freezes only this buyer's programme (an operator re-running one buyer's day); notices and aging stay whole. */
  scope: { corporateId?: number } = {},
): Promise<CollectionsDayResult> {
  // First the buyers' notices 5 and 1 business days before (decision 0066): each is sent once across processes.
  const notices = await sendMaturityNotices(db, asOf, { collectionClabe: deps.collectionClabe });

  const late = await delinquentProgrammes(db, asOf, scope.corporateId);
  const frozen: FrozenProgramme[] = [];
  for (const programme of late) {
    const done = await freezeForDelinquency(db, programme.programme_id, asOf, deps.actor);
    if (done) frozen.push(done);
  }

  let mailed = 0;
  if (frozen.length > 0) {
    const recipients = await aprobadorEmails(db);
    for (const programme of frozen) {
      const link = `${deps.appBaseUrl}${paths.operatorPortfolio}?corporativo=${programme.corporateId}`;
      for (const to of recipients) {
        const sent = await deps.mailer.send({
          to,
          subject: DELINQUENCY_MESSAGES.freezeMailSubject(programme.corporateName),
          text: DELINQUENCY_MESSAGES.freezeMailText(
            programme.corporateName,
            programme.invoices,
            programme.oldestDueOn,
            link,
          ),
        });
        if (sent !== 'failed') mailed += 1;
      }
    }
  }

  return {
    asOf,
    notices,
    aging: await agingOf(db, asOf),
    frozen,
    skipped: late.length - frozen.length,
    mailed,
  };
}

/** One line per bucket for the ops command: 'Al corriente  $1,234.56'. */
export function agingLines(aging: CollectionsDayResult['aging'], label: (bucket: AgingBucket) => string) {
  return AGING_BUCKETS.map((bucket) => `${label(bucket)}: ${formatMoneyAmount(aging.buckets[bucket])}`);
}
