import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database';
import { businessDate } from '../http/business-date';
import { createMailDelivery } from '../mail/mailer';
import { pruneThrottleHits } from '../modules/auth/throttle';
import { pruneIdempotencyKeys } from '../modules/idempotency/idempotency.service';
import { sendRepReminders } from '../modules/invoices/rep-status';
import { sendMaturityNotices } from '../modules/maturities/maturity-notices';
import type { CfdiAuthenticity } from '../modules/sat/cfdi-authenticity';
import { cfdiSatCheckJob } from '../modules/sat/cfdi-sat-check.job';
import { sandboxJob } from '../modules/sat/sandbox-poller';
import type { SatLinkDeps } from '../modules/sat/sat-link.service';
import { monthlyStatementsJob } from '../modules/statements/monthly-statements.job';
import type { Job } from './job-runner';
import { deleteJobRunsBefore } from './job-runs.repository';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

const HOUR_MS = 3_600_000;
// job_runs is a log of claims; a week is enough to see what ran.
const JOB_RUNS_RETENTION_MS = 7 * 24 * HOUR_MS;

/** Flujo's scheduled jobs (decision 0041). */
export function flujoJobs(options: {
  db: Db;
  log: Log;
  smtp: { url: string; from: string } | null;
  /** How often each process looks for queued mail (MAIL_POLL_MS). */
  mailPollMs: number;
  sat: { deps: SatLinkDeps; autoApproveSeconds: number } | null;
  /** Asks SAT what nobody waits for: bulk imports, unanswered questions, old answers on the desk. */
  authenticity: CfdiAuthenticity;
  /** The site's address, for the links in the monthly statements' e-mails (APP_BASE_URL). */
  appBaseUrl?: string;
  /** Flujo's collection CLABE, named in the maturity notices (COLLECTION_CLABE). */
  collectionClabe: string;
}): { jobs: Job[]; close(): void } {
  const { db } = options;
  const jobs: Job[] = [
    {
      name: 'idempotency-prune',
      scope: 'once',
      everyMs: HOUR_MS,
      async run(now) {
        const deleted = await pruneIdempotencyKeys(db, now);
        return deleted > 0 ? `${deleted} expired idempotency keys deleted` : undefined;
      },
    },
    {
      name: 'throttle-prune',
      scope: 'once',
      everyMs: 10 * 60_000,
      async run(now) {
        await pruneThrottleHits(db, now);
        return undefined;
      },
    },
    {
      name: 'job-runs-prune',
      scope: 'once',
      everyMs: HOUR_MS,
      async run(now) {
        const deleted = await deleteJobRunsBefore(db, new Date(now.getTime() - JOB_RUNS_RETENTION_MS));
        return deleted > 0 ? `${deleted} old job_runs rows deleted` : undefined;
      },
    },
    cfdiSatCheckJob(db, options.authenticity),
    monthlyStatementsJob(db, { appBaseUrl: options.appBaseUrl ?? '', queue: options.smtp !== null }),
    {
      // The day's maturity notices (decision 0066): each hour, so a Mexico City day is done soon after it starts
      // whichever process is up; a notice already sent (maturity_notices) is never sent again.
      name: 'maturity-notices',
      scope: 'once',
      everyMs: HOUR_MS,
      async run(now) {
        const counts = await sendMaturityNotices(db, businessDate(now), {
          collectionClabe: options.collectionClabe,
          now,
        });
        const sent = counts.sent['5d'] + counts.sent['1d'];
        if (sent + counts.noRecipients === 0) return undefined;
        return `${sent} maturity notices (${counts.emails} e-mails), ${counts.noRecipients} buyers without recipients`;
      },
    },
    {
      // Issue 34 (decision 0070): suppliers whose buyer paid are reminded of the REP they owe SAT. Daily; the
      // reminder rows make a second run of the same day (another process, a restart) send nothing again.
      name: 'rep-reminders',
      scope: 'once',
      everyMs: 24 * HOUR_MS,
      async run(now) {
        const { reminded } = await sendRepReminders(db, businessDate(now));
        return reminded.length > 0 ? `${reminded.length} REP reminders sent` : undefined;
      },
    },
  ];
  let close = () => {};
  if (options.smtp) {
    const delivery = createMailDelivery({
      db,
      smtpUrl: options.smtp.url,
      from: options.smtp.from,
      log: options.log,
    });
    close = () => delivery.close();
    jobs.push({
      name: 'mail-delivery',
      // Every process polls; each message is claimed by one of them (FOR UPDATE SKIP LOCKED).
      scope: 'each-process',
      everyMs: options.mailPollMs,
      async run(now) {
        const result = await delivery.deliverDue(now);
        if (result.sent + result.failed === 0) return undefined;
        return `${result.sent} sent, ${result.failed} failed`;
      },
    });
  }
  if (options.sat) jobs.push(sandboxJob(options.sat.deps, options.sat.autoApproveSeconds, options.log));
  return { jobs, close };
}
