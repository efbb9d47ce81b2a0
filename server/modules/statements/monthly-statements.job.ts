import type { Db } from '../../db/database';
import { businessDate } from '../../http/business-date';
import type { Job } from '../../jobs/job-runner';
import { produceMonthlyStatements } from './monthly-statements.service';

const HOUR_MS = 3_600_000;
// Daily in intent (decision 0071): each run produces what is missing of last month's statements and does
// nothing once they exist, so it acts from day 1 and a missed day is caught up the next. It looks every 6 hours
// because the runner's slots are UTC days: a single daily slot claimed before 06:00 UTC would still see the
// last day of the month in Mexico City and leave day 1 idle.
const EVERY_MS = 6 * HOUR_MS;

/** The scheduled job (decision 0041's runner): one process at a time; the table's UNIQUE key does the rest. */
export function monthlyStatementsJob(db: Db, mail: { appBaseUrl: string; queue: boolean }): Job {
  return {
    name: 'monthly-statements',
    scope: 'once',
    everyMs: EVERY_MS,
    // Rendering every company's files can take a while on a large month.
    leaseMs: 60 * 60_000,
    async run(now) {
      const result = await produceMonthlyStatements(db, businessDate(now), { now, mail });
      if (result.generated === 0) return undefined;
      return `${result.generated} statements of ${result.month} produced, ${result.mailed} e-mails`;
    },
  };
}
