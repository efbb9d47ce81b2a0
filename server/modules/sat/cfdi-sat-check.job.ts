import { InvoiceStatus } from '../../../src/domain/invoice-status';
import { SAT_ANSWER_MAX_AGE_MS } from '../../../src/machines/cfdi-proof.machine';
import type { Db } from '../../db/database';
import type { Job } from '../../jobs/job-runner';
import type { CfdiAuthenticity } from './cfdi-authenticity';
import { recheckAtSat } from './cfdi-proof.service';

// The questions to SAT nobody waits for: CFDI imported in bulk ('verificando en el SAT'), CFDI SAT did not
// answer about (retried with backoff), and advances on the desk whose answer is older than 24 h.

const EVERY_MS = 30_000;
/** One run asks about this many at most; the next run takes the rest. */
const BATCH = 200;
const MINUTE_MS = 60_000;
/** After n unanswered questions the next waits 2^n minutes, at most an hour. */
const MAX_BACKOFF_MS = 60 * MINUTE_MS;

export function retryDelayMs(unanswered: number): number {
  return Math.min(MAX_BACKOFF_MS, 2 ** Math.max(0, unanswered) * MINUTE_MS);
}

/** The invoices whose SAT question is due at `now`, oldest first. */
export async function invoicesDueForSat(db: Db, now: Date): Promise<number[]> {
  const rows = await db
    .selectFrom('invoices as i')
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('cfdi_sat_checks')
          .select((inner) => [
            'invoice_id',
            inner.fn.max('asked_at').as('last_asked'),
            inner.fn.count<string>('id').filterWhere('answered', '=', false).as('unanswered'),
          ])
          .groupBy('invoice_id')
          .as('c'),
      (join) => join.onRef('c.invoice_id', '=', 'i.id'),
    )
    .select(['i.id', 'i.proof_state', 'c.last_asked', 'c.unanswered'])
    .where((eb) =>
      eb.or([
        eb('i.proof_state', 'in', ['sealChecked', 'pending']),
        eb.and([eb('i.proof_state', '=', 'trusted'), eb('i.status', '=', InvoiceStatus.PROCESS)]),
      ]),
    )
    .orderBy('i.id')
    .execute();
  const due = rows.filter((row) => {
    if (row.proof_state === 'sealChecked' || row.last_asked === null) return true;
    const since = now.getTime() - new Date(row.last_asked).getTime();
    if (row.proof_state === 'pending') return since >= retryDelayMs(Number(row.unanswered ?? 0));
    return since >= SAT_ANSWER_MAX_AGE_MS;
  });
  return due.slice(0, BATCH).map((row) => row.id);
}

/** The scheduled job (decision 0041's runner): one process at a time asks SAT what is due. */
export function cfdiSatCheckJob(db: Db, authenticity: CfdiAuthenticity): Job {
  return {
    name: 'cfdi-sat-check',
    scope: 'once',
    everyMs: EVERY_MS,
    async run(now) {
      const due = await invoicesDueForSat(db, now);
      if (due.length === 0) return undefined;
      const states = await recheckAtSat(db, authenticity, due);
      const counts = new Map<string, number>();
      for (const state of states.values()) counts.set(state, (counts.get(state) ?? 0) + 1);
      return `${due.length} asked: ${[...counts].map(([state, n]) => `${n} ${state}`).join(', ')}`;
    },
  };
}
