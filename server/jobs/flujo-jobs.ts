import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database';
import { businessDate } from '../http/business-date';
import { createMailDelivery, type Mailer } from '../mail/mailer';
import { pruneThrottleHits } from '../modules/auth/throttle';
import { COLLECTIONS_DAY_JOB_ACTOR, runCollectionsDay } from '../modules/collections/collections-day';
import { pruneIdempotencyKeys } from '../modules/idempotency/idempotency.service';
import { sendRepReminders } from '../modules/invoices/rep-status';
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
  /** The day's collections (decision 0068): who is e-mailed and the links they get. */
  collectionsDay?: { mailer: Mailer; appBaseUrl: string };
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
  const collectionsDay = options.collectionsDay;
  if (collectionsDay) {
    jobs.push({
      // The same runCollectionsDay as `npm run ops -- collections:run-day`, as of Mexico City's business date:
      // the maturity notices (decision 0066), aging and freezes for morosidad (decision 0068).
      // Hourly rather than daily: a day's run changes nothing when repeated, and an hourly slot catches the
      // business day's start whatever the server's time zone, and a process that was down at midnight.
      name: 'collections-day',
      scope: 'once',
      everyMs: HOUR_MS,
      async run(now) {
        const result = await runCollectionsDay(db, businessDate(now), {
          ...collectionsDay,
          collectionClabe: options.collectionClabe,
          actor: COLLECTIONS_DAY_JOB_ACTOR,
        });
        const notices = result.notices.sent['5d'] + result.notices.sent['1d'];
        if (notices + result.frozen.length === 0) return undefined;
        return `${notices} maturity notices, ${result.frozen.length} programmes frozen for morosidad as of ${result.asOf}`;
      },
    });
  }
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
