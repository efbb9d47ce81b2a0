// @postgresql: two processes take due jobs from one database: FOR UPDATE SKIP LOCKED across connections.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createJobRunner, type Job } from '../../server/jobs/job-runner';
import { listJobRuns } from '../../server/jobs/job-runs.repository';
import {
  createMailDelivery,
  createQueueMailer,
  MAIL_RETRY,
  mailRetryDelayMs,
} from '../../server/mail/mailer';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';

// Decision 0041. Two runners or two deliveries on one database stand for two processes; test:scale does it
// with real processes on PostgreSQL.
const silentLog = { info() {}, warn() {}, error() {} };

describe('jobs across processes', () => {
  let ctx: ApiTestContext;
  let sink: SmtpSink;
  const db = () => ctx.database.db;
  beforeAll(async () => {
    ctx = await createApiApp();
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink.close();
    await ctx.close();
  });
  beforeEach(async () => {
    await db().deleteFrom('job_runs').execute();
    sink.mails.length = 0;
  });

  it('runs a periodic job once per slot whichever runner ticks, and not while an earlier run holds its lease', async () => {
    const ran: string[] = [];
    let release = () => {};
    const job = (owner: string): Job => ({
      name: 'test-once',
      scope: 'once',
      everyMs: 3_600_000,
      async run() {
        ran.push(owner);
        await new Promise<void>((done) => {
          release = done;
        });
        return undefined;
      },
    });
    const at = new Date('2026-03-10T18:05:00Z');
    const first = createJobRunner({ db: db(), jobs: [job('a')], log: silentLog, owner: 'a', now: () => at });
    const second = createJobRunner({ db: db(), jobs: [job('b')], log: silentLog, owner: 'b', now: () => at });
    const running = first.tick('test-once');
    // While a's run holds the slot (and its lease), b neither runs this slot nor the next.
    await expect.poll(() => ran.length).toBe(1);
    expect(await second.tick('test-once')).toBe(false);
    release();
    expect(await running).toBe(true);
    expect(await second.tick('test-once')).toBe(false);
    expect(ran).toEqual(['a']);
    const runs = await listJobRuns(db(), 'test-once');
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ owner: 'a', error: null });
    expect(runs[0]?.finished_at).not.toBeNull();
  });

  it('records a failed run and the next slot runs again', async () => {
    let now = new Date('2026-03-10T18:05:00Z');
    let calls = 0;
    const runner = createJobRunner({
      db: db(),
      log: silentLog,
      now: () => now,
      jobs: [
        {
          name: 'test-failing',
          scope: 'once',
          everyMs: 60_000,
          async run() {
            calls += 1;
            if (calls === 1) throw new Error('boom');
            return 'ok';
          },
        },
      ],
    });
    expect(await runner.tick('test-failing')).toBe(true);
    now = new Date(now.getTime() + 60_000);
    expect(await runner.tick('test-failing')).toBe(true);
    const runs = await listJobRuns(db(), 'test-failing');
    expect(runs.map((run) => run.error)).toEqual(['boom', null]);
  });

  it('two delivery jobs share the queue: every queued mail is sent exactly once, without its body kept', async () => {
    const mailer = createQueueMailer(db(), silentLog);
    const subjects = Array.from({ length: 30 }, (_, i) => `prueba de cola ${i}`);
    for (const subject of subjects) {
      expect(await mailer.send({ to: 'cola@example.mx', subject, text: 'Hola.' })).toBe('queued');
    }
    const a = createMailDelivery({
      db: db(),
      smtpUrl: sink.url,
      from: 'Flujo <no-responder@flujo.mx>',
      log: silentLog,
    });
    const b = createMailDelivery({
      db: db(),
      smtpUrl: sink.url,
      from: 'Flujo <no-responder@flujo.mx>',
      log: silentLog,
    });
    try {
      let sent = 0;
      while (sent < subjects.length) {
        const [one, two] = await Promise.all([a.deliverDue(new Date()), b.deliverDue(new Date())]);
        if (one.sent + two.sent === 0) break;
        sent += one.sent + two.sent;
      }
      expect(sent).toBe(subjects.length);
      expect(sink.mails.map((mail) => mail.subject).sort()).toEqual([...subjects].sort());
      const rows = await db()
        .selectFrom('mail_outbox')
        .selectAll()
        .where('recipient', '=', 'cola@example.mx')
        .execute();
      for (const row of rows) {
        expect(row).toMatchObject({ attempts: 1, next_attempt_at: null, error: null });
        expect(row.sent_at).not.toBeNull();
        expect(row.body_text).not.toContain('Hola.');
      }
    } finally {
      a.close();
      b.close();
    }
  });

  it('backs off exponentially, each wait capped', () => {
    expect([1, 2, 3, 4].map(mailRetryDelayMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(mailRetryDelayMs(MAIL_RETRY.maxAttempts)).toBe(MAIL_RETRY.maxDelayMs);
  });
});
