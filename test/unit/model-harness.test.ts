import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMachine, type EventObject, fromPromise, setup } from 'xstate';
import {
  formatCoverageTable,
  readCoverageRecords,
  writeCoverageRecord,
} from '../model/harness/coverage-files';
import { leafStateIds, listTransitions } from '../model/harness/inventory';
import { checkModel } from '../model/harness/meta-checks';
import {
  createTestModel,
  generatePaths,
  type MachineModel,
  type ModelPath,
  measureCoverage,
  pathFromEvents,
  stepLabel,
  uncoveredTransitions,
} from '../model/harness/model';
import { replayEvents } from '../model/harness/replay';
import { reviewEvents, reviewMachine } from './review-fixture.machine';

const reviewModel: MachineModel = { id: 'review', machine: reviewMachine, events: reviewEvents };
const ESCALATE_WITH_NOTES = 'review.manualReview|review.escalate|0';

const labels = (paths: readonly ModelPath[]) => paths.map((path) => path.description);

describe('transition inventory', () => {
  it('lists every transition with a stable key, including after, invoke and always', () => {
    expect(listTransitions(reviewMachine).map((t) => t.key)).toEqual([
      'review.editing|note.add|0',
      'review.editing|request.submit|0',
      'review.editing|request.submit|1',
      'review.editing.empty|amount.set|0',
      'review.editing.filled|amount.set|0',
      'review.scoring|xstate.done.actor.scoreRequest|0',
      'review.scoring|xstate.error.actor.scoreRequest|0',
      'review.deciding|always|0',
      'review.deciding|always|1',
      'review.failed|review.retry|0',
      'review.failed|xstate.after.3000.review.failed|0',
      'review.manualReview|review.escalate|0',
      'review.manualReview|review.escalate|1',
    ]);
    expect(leafStateIds(reviewMachine)).toHaveLength(8);
  });
});

describe('generatePaths', () => {
  it('shortest paths alone miss the guarded branch that needs two notes', () => {
    // The default abstraction is the state value, so "one note" and "two notes" are the same vertex.
    const shortest = createTestModel(reviewModel).getShortestPaths() as ModelPath[];
    const coverage = measureCoverage(reviewModel, shortest);
    expect(coverage.states.covered).toHaveLength(8);
    expect(uncoveredTransitions(coverage)).toEqual([ESCALATE_WITH_NOTES]);
  });

  it('extends the shortest paths until every state and transition is covered', () => {
    const paths = generatePaths(reviewModel);
    const coverage = measureCoverage(reviewModel, paths);
    expect(coverage.states.covered).toEqual(coverage.states.total);
    expect(coverage.transitions.covered).toEqual(coverage.transitions.total);
    expect(coverage.paths).toBe(11);
    expect(labels(paths)).toContain(
      'amount.set(amount=5000) → note.add → note.add → request.submit → review.escalate ⇒ approved',
    );
  });

  it('adds pending delays without listing them as model events', () => {
    const paths = generatePaths(reviewModel);
    expect(labels(paths)).toContain('request.submit → scoreRequest.error → after 3000ms ⇒ editing.empty');
  });

  it('is deterministic', () => {
    expect(labels(generatePaths(reviewModel))).toEqual(labels(generatePaths(reviewModel)));
  });

  it('never sends an event the state cannot take', () => {
    for (const path of generatePaths(reviewModel)) {
      path.steps.slice(1).forEach((step, i) => {
        expect(path.steps[i]!.state.can(step.event), stepLabel(path)).toBe(true);
      });
    }
  });

  it('gives steps the snapshots of a real replay, not representative ones', () => {
    const path = generatePaths(reviewModel).find((p) => p.steps.length === 6)!;
    expect(path.steps.map((step) => step.state.context.notes)).toEqual([0, 0, 1, 2, 2, 2]);
  });

  it('does not chase waived transitions', () => {
    const model: MachineModel = {
      ...reviewModel,
      events: reviewEvents.filter((event) => event.type !== 'review.retry'),
      waivers: { 'review.failed|review.retry|0': 'the retry button is covered by an e2e test' },
    };
    const coverage = measureCoverage(model, generatePaths(model));
    expect(coverage.transitions.waived).toEqual(['review.failed|review.retry|0']);
    expect(coverage.transitions.covered).not.toContain('review.failed|review.retry|0');
    expect(uncoveredTransitions(coverage)).toEqual([]);
  });

  it('throws past the limit instead of traversing forever', () => {
    expect(() => generatePaths(reviewModel, { limit: 5 })).toThrow(/limit/);
  });
});

describe('measureCoverage', () => {
  it('counts what replaying the events takes, eventless steps and transient states included', () => {
    const path = pathFromEvents(reviewModel, [
      { type: 'request.submit' },
      { type: 'xstate.done.actor.scoreRequest', output: { score: 80 } },
    ]);
    const coverage = measureCoverage(reviewModel, [path]);
    expect(coverage.transitions.covered).toEqual([
      'review.editing|request.submit|1',
      'review.scoring|xstate.done.actor.scoreRequest|0',
      'review.deciding|always|0',
    ]);
    expect(coverage.states.covered).toEqual([
      'review.editing.empty',
      'review.scoring',
      'review.deciding',
      'review.approved',
    ]);
    expect(coverage.transitions.total).toHaveLength(13);
    expect(coverage.states.total).toHaveLength(8);
    expect(coverage.paths).toBe(1);
  });

  it('tells visited from settled states: a transient state cannot be asserted on', () => {
    const replay = replayEvents(reviewMachine, undefined, [
      { type: 'request.submit' },
      { type: 'xstate.done.actor.scoreRequest', output: { score: 20 } } as EventObject,
    ]);
    expect(replay.visitedLeaves.has('review.deciding')).toBe(true);
    expect(replay.settledLeaves.has('review.deciding')).toBe(false);
    expect(replay.transitions.has('review.deciding|always|1')).toBe(true);
  });

  it('counts a compound onDone reached through a final child', () => {
    const machine = createMachine({
      id: 'wizard',
      initial: 'steps',
      states: {
        steps: {
          initial: 'one',
          states: { one: { on: { next: 'done' } }, done: { type: 'final' } },
          onDone: 'finished',
        },
        finished: { type: 'final' },
      },
    });
    const model: MachineModel = { id: 'wizard', machine, events: [{ type: 'next' }] };
    const coverage = measureCoverage(model, generatePaths(model));
    expect(coverage.transitions.covered).toEqual([
      'wizard.steps|xstate.done.state.wizard.steps|0',
      'wizard.steps.one|next|0',
    ]);
    expect(coverage.states.covered).toEqual(coverage.states.total);
  });
});

describe('stepLabel', () => {
  it('names a path by its events, shows only the payload that tells partitions apart, and the end state', () => {
    const path = pathFromEvents(reviewModel, [
      { type: 'amount.set', amount: 5000 },
      { type: 'request.submit' },
      { type: 'review.escalate' },
    ]);
    expect(stepLabel(path, reviewModel.events)).toBe(
      'amount.set(amount=5000) → request.submit → review.escalate ⇒ rejected',
    );
    expect(stepLabel(pathFromEvents(reviewModel, []))).toBe('(initial) ⇒ editing.empty');
  });
});

describe('checkModel', () => {
  const paths = generatePaths(reviewModel);
  const allEvents = [...new Set(paths.flatMap((p) => p.steps.slice(1).map((s) => s.event.type)))];

  it('is clean for a complete suite; # keys and matches paths both cover nested leaves', () => {
    const report = checkModel(reviewModel, paths, {
      states: ['#review.editing', 'scoring', 'failed', 'manualReview', '#review.approved', 'rejected'],
      events: allEvents,
    });
    expect(report).toMatchObject({
      unassertedStates: [],
      unusedStateKeys: [],
      eventsWithoutExecutor: [],
      unusedExecutors: [],
      unusedModelEvents: [],
      uncoveredStates: [],
      uncoveredTransitions: [],
      unknownWaivers: [],
      errorPaths: [],
    });
  });

  it('reports missing assertions, typos, missing and unused executors and unknown waivers', () => {
    const report = checkModel({ ...reviewModel, waivers: { 'review.nowhere|x|0': 'stale' } }, paths, {
      states: ['editing.empty', 'scoring', 'failed', 'manualReview', 'aproved', '*'],
      events: [...allEvents.filter((type) => type !== 'note.add'), 'request.cancel'],
    });
    expect(report.unassertedStates).toEqual(['review.editing.filled', 'review.approved', 'review.rejected']);
    expect(report.unusedStateKeys).toEqual(['aproved']);
    expect(report.eventsWithoutExecutor).toEqual(['note.add']);
    expect(report.unusedExecutors).toEqual(['request.cancel']);
    expect(report.unknownWaivers).toEqual(['review.nowhere|x|0']);
  });

  it('reports model events that no reachable state accepts', () => {
    const machine = setup({ actors: { load: fromPromise(async () => 1) } }).createMachine({
      id: 'loader',
      initial: 'loading',
      // No onError: the error partition can never be sent, and the suite must say so.
      states: { loading: { invoke: { id: 'load', src: 'load', onDone: 'ready' } }, ready: {} },
    });
    const model: MachineModel = {
      id: 'loader',
      machine,
      events: [
        { type: 'xstate.done.actor.load', output: 1 },
        { type: 'xstate.error.actor.load', error: 'boom' },
      ],
    };
    const report = checkModel(model, generatePaths(model), { states: ['loading', 'ready'], events: [] });
    expect(report.unusedModelEvents).toEqual(['{"type":"xstate.error.actor.load","error":"boom"}']);
  });

  it('reports paths that reach an error snapshot', () => {
    const machine = setup({ types: {} as { input: { limit: number } } }).createMachine({
      id: 'limited',
      // The model forgot the input: xstate does not throw, the snapshot is in status 'error'.
      context: ({ input }) => ({ limit: input.limit }),
      initial: 'idle',
      states: { idle: {} },
    });
    const model: MachineModel = { id: 'limited', machine, events: [] };
    const report = checkModel(model, generatePaths(model), { states: ['idle'], events: [] });
    expect(report.errorPaths).toEqual(['(initial) ⇒ idle']);
  });
});

describe('coverage records', () => {
  const dir = mkdtempSync(join(tmpdir(), 'model-coverage-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('round-trips and prints one row per machine', () => {
    writeCoverageRecord(
      {
        id: 'review',
        states: { covered: 8, total: 8, missing: [] },
        transitions: { covered: 12, total: 13, waived: 1, missing: [] },
        paths: { total: 11, passed: 10, failed: 1 },
      },
      dir,
    );
    const table = formatCoverageTable(readCoverageRecords(dir));
    expect(table).toContain('machine | states | transitions');
    expect(table).toMatch(/review\s+\| 8\/8\s+\| 12\/13 \(waived 1\) \| 11 \(10 passed, 1 failed\)/);
  });
});
