import { hostname } from 'node:os';
import type { Db } from '../db/database';
import { claimJobRun, finishJobRun } from './job-runs.repository';

// Design: docs/decisions/0041-jobs-across-processes.md. Every Flujo process runs the same runner; the
// database decides which one does the work, so adding or killing a process needs no coordination.

type Log = {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
};

export interface Job {
  name: string;
  everyMs: number;
  /**
   * 'once': one process per time slot of `everyMs` (claimed in job_runs), e.g. pruning.
   * 'each-process': every process runs it every period and the job claims its own rows
   * (the mail queue with FOR UPDATE SKIP LOCKED), so the work is shared and still done once.
   */
  scope: 'once' | 'each-process';
  /** 'once' only: how long a claimed run may take before another process may start the job again. */
  leaseMs?: number;
  /** A short summary for the log when there was something to do; nothing when there was not. */
  run(now: Date): Promise<string | undefined>;
}

export interface JobRunner {
  start(): void;
  /** Stops scheduling and waits (up to `timeoutMs`) for the runs under way. */
  stop(timeoutMs?: number): Promise<void>;
  /** One tick of a job now, as the timer would do it; whether it ran (tests and operators). */
  tick(name: string): Promise<boolean>;
}

const DEFAULT_LEASE_MS = 10 * 60_000;
// A 'once' job polls at least this often, so a process started mid-hour still finds an unclaimed slot.
const MAX_POLL_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

export function createJobRunner(options: {
  db: Db;
  jobs: readonly Job[];
  log: Log;
  /** Shown in job_runs.owner; default host:pid. */
  owner?: string;
  now?: () => Date;
}): JobRunner {
  const owner = options.owner ?? `${hostname()}:${process.pid}`;
  const now = options.now ?? (() => new Date());
  const timers = new Map<string, NodeJS.Timeout>();
  const running = new Map<string, Promise<boolean>>();
  let stopped = true;

  async function runJob(job: Job): Promise<boolean> {
    const at = now();
    let slot: number | null = null;
    if (job.scope === 'once') {
      slot = Math.floor(at.getTime() / job.everyMs);
      const leaseMs = job.leaseMs ?? DEFAULT_LEASE_MS;
      if (!(await claimJobRun(options.db, { job: job.name, slot, owner, now: at, leaseMs }))) return false;
    }
    let error: string | null = null;
    try {
      const summary = await job.run(at);
      if (summary) options.log.info({ job: job.name, slot }, `job ${job.name}: ${summary}`);
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
      options.log.error({ err: caught, job: job.name, slot }, `job ${job.name} failed`);
    }
    if (slot !== null) {
      await finishJobRun(options.db, {
        job: job.name,
        slot,
        at: now(),
        error: error?.slice(0, 1000) ?? null,
      });
    }
    return true;
  }

  function tick(job: Job): Promise<boolean> {
    const current = running.get(job.name);
    if (current) return current.then(() => false);
    const run = runJob(job)
      .catch((caught: unknown) => {
        // The claim itself failed (database down for a moment): try again next period.
        options.log.error({ err: caught, job: job.name }, `job ${job.name} could not be scheduled`);
        return false;
      })
      .finally(() => running.delete(job.name));
    running.set(job.name, run);
    return run;
  }

  function schedule(job: Job, delayMs: number): void {
    if (stopped) return;
    const timer = setTimeout(() => {
      void tick(job).finally(() => {
        const poll = job.scope === 'once' ? Math.min(job.everyMs, MAX_POLL_MS) : job.everyMs;
        schedule(job, poll);
      });
    }, delayMs);
    // Timers never keep the process alive: shutdown is main.ts's decision.
    timer.unref();
    timers.set(job.name, timer);
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      for (const job of options.jobs) schedule(job, 0);
    },
    async stop(timeoutMs = STOP_TIMEOUT_MS) {
      stopped = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      let timeout: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...running.values()]),
        new Promise((done) => {
          timeout = setTimeout(done, timeoutMs);
        }),
      ]);
      clearTimeout(timeout);
    },
    tick(name) {
      const job = options.jobs.find((candidate) => candidate.name === name);
      if (!job) throw new Error(`no job named ${name}`);
      return tick(job);
    },
  };
}
