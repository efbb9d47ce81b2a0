import { sql } from 'kysely';
import type { Db } from '../db/database';

/**
 * Claims (job, slot) for `owner`, or returns false when another process already has this slot or still runs
 * an earlier one of the same job (its lease not expired). The check and the insert are one step under a
 * transaction-level advisory lock per job: released at commit, so a pooled connection never keeps it.
 */
export async function claimJobRun(
  db: Db,
  claim: { job: string; slot: number; owner: string; now: Date; leaseMs: number },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`flujo-job:${claim.job}`}, 0))`.execute(trx);
    const running = await trx
      .selectFrom('job_runs')
      .select('slot')
      .where('job', '=', claim.job)
      .where('finished_at', 'is', null)
      .where('lease_until', '>', claim.now.toISOString())
      .executeTakeFirst();
    if (running) return false;
    const inserted = await trx
      .insertInto('job_runs')
      .values({
        job: claim.job,
        slot: claim.slot,
        owner: claim.owner,
        started_at: claim.now.toISOString(),
        lease_until: new Date(claim.now.getTime() + claim.leaseMs).toISOString(),
      })
      .onConflict((oc) => oc.columns(['job', 'slot']).doNothing())
      .returning('slot')
      .executeTakeFirst();
    return inserted !== undefined;
  });
}

export async function finishJobRun(
  db: Db,
  run: { job: string; slot: number; at: Date; error: string | null },
): Promise<void> {
  await db
    .updateTable('job_runs')
    .set({ finished_at: run.at.toISOString(), error: run.error })
    .where('job', '=', run.job)
    .where('slot', '=', run.slot)
    .execute();
}

/** Deletes the records of runs started before `cutoff`; how many. */
export async function deleteJobRunsBefore(db: Db, cutoff: Date): Promise<number> {
  const result = await db
    .deleteFrom('job_runs')
    .where('started_at', '<', cutoff.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export function listJobRuns(db: Db, job: string) {
  return db
    .selectFrom('job_runs')
    .select(['job', 'slot', 'owner', 'started_at', 'finished_at', 'error'])
    .where('job', '=', job)
    .orderBy('slot')
    .execute();
}
