// @vitest-environment happy-dom
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, vi } from 'vitest';
import { type Actor, createActor, type EventObject, fromPromise } from 'xstate';
import { readCoverageRecords } from '../model/harness/coverage-files';
import { defineModelTests } from '../model/harness/define-model-tests';
import type { MachineModel } from '../model/harness/model';
import { readPathsRecords } from '../model/harness/path-records';
import { reviewEvents, reviewMachine } from './review-fixture.machine';

/**
 * The harness end to end, with the machine's own actor as the system under test instead of a view:
 * executors send events, release the invoked promise or advance the clock; assertions compare the live
 * actor with the snapshot the model expects at every step.
 */

interface Ctx {
  actor: Actor<typeof reviewMachine>;
  pending: Array<{ resolve: (output: { score: number }) => void; reject: (error: unknown) => void }>;
  seen: string[];
}

const coverageDir = mkdtempSync(join(tmpdir(), 'model-harness-run-'));
const pathsDir = mkdtempSync(join(tmpdir(), 'model-harness-paths-'));
const model: MachineModel = { id: 'review-run', machine: reviewMachine, events: reviewEvents };

// Promise callbacks run as microtasks; a macrotask turn lets the actor settle after a release.
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

const sameAs = async ({ ctx, state }: { ctx: Ctx; state: { value: unknown; context: unknown } }) => {
  await settle();
  const live = ctx.actor.getSnapshot();
  ctx.seen.push(JSON.stringify(state.value));
  expect(live.value).toEqual(state.value);
  // The model's snapshot comes from a replay, so even context the abstraction ignores is exact.
  expect(live.context).toEqual(state.context);
};

defineModelTests<Ctx>(model, {
  coverageDir,
  pathsDir,
  setup: () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const pending: Ctx['pending'] = [];
    const machine = reviewMachine.provide({
      actors: {
        scoreRequest: fromPromise<{ score: number }, { amount: number }>(
          () => new Promise((resolve, reject) => pending.push({ resolve, reject })),
        ),
      },
    });
    return { actor: createActor(machine), pending, seen: [] };
  },
  render: ({ actor }) => {
    actor.start();
  },
  states: {
    '#review.editing': sameAs,
    scoring: sameAs,
    failed: sameAs,
    manualReview: sameAs,
    approved: sameAs,
    rejected: sameAs,
  },
  events: {
    'amount.set': async ({ ctx, event }) => ctx.actor.send(event as { type: 'amount.set'; amount: number }),
    'note.add': async ({ ctx }) => ctx.actor.send({ type: 'note.add' }),
    'request.submit': async ({ ctx }) => ctx.actor.send({ type: 'request.submit' }),
    'review.retry': async ({ ctx }) => ctx.actor.send({ type: 'review.retry' }),
    'review.escalate': async ({ ctx }) => ctx.actor.send({ type: 'review.escalate' }),
    'xstate.done.actor.scoreRequest': async ({ ctx, event }) => {
      ctx.pending.shift()!.resolve((event as EventObject & { output: { score: number } }).output);
    },
    'xstate.error.actor.scoreRequest': async ({ ctx, event }) => {
      ctx.pending.shift()!.reject((event as EventObject & { error: unknown }).error);
    },
    'xstate.after.3000.review.failed': async () => {
      vi.advanceTimersByTime(3000);
    },
  },
  teardown: ({ actor, seen }) => {
    actor.stop();
    vi.useRealTimers();
    // Every step was asserted, not only the last one: initial state plus one per event at least.
    expect(seen.length).toBeGreaterThan(1);
  },
});

afterAll(() => {
  // Runs after the suite's own afterAll, which writes the record.
  const [record] = readCoverageRecords(coverageDir);
  expect(record).toMatchObject({
    id: 'review-run',
    states: { covered: 8, total: 8 },
    transitions: { covered: 13, total: 13, waived: 0 },
    paths: { total: 11, passed: 11, failed: 0 },
  });
  // The report's record: every path passed, and every step ran its state's assertions with their expect()s.
  const [paths] = readPathsRecords(pathsDir);
  expect(paths!.paths).toHaveLength(11);
  for (const path of paths!.paths) {
    expect(path.status).toBe('passed');
    for (const step of path.steps) {
      expect(step.executed).toBe(step.index > 0);
      expect(step.assertions).toEqual([{ key: expect.any(String), expects: 2, ok: true }]);
    }
  }
  expect(paths!.checks.every((check) => check.problems.length === 0)).toBe(true);
  for (const dir of [coverageDir, pathsDir]) rmSync(dir, { recursive: true, force: true });
});
