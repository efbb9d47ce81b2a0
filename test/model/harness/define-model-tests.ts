import { cleanup } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import type { TestParam } from 'xstate/graph';
import { eventLabel, stateLabel } from '../../../src/machines/machine-texts';
import { writeCoverageRecord } from './coverage-files';
import { isLeaf } from './inventory';
import { checkModel, metaTests } from './meta-checks';
import {
  formatEvent,
  formatStateValue,
  type GenerateOptions,
  generatePaths,
  type MachineModel,
  type ModelPath,
} from './model';
import {
  type FailureRecord,
  MODEL_REPORT_ENV,
  PATH_RECORDS_DIR,
  type PathRecord,
  type StepRecord,
  writePathsRecord,
} from './path-records';

export interface ModelTestOptions<TCtx> {
  /** Per path, before render: fresh network handlers, fixtures, gates. */
  setup?: () => Promise<TCtx> | TCtx;
  render: (ctx: TCtx) => void | Promise<void>;
  /** State key (`'#machine.state'` or a `matches` path) → what the user must see there. */
  states: Record<string, (args: { ctx: TCtx; state: AnyMachineSnapshot }) => Promise<void>>;
  /** Event type → the gesture (or released server response) that makes the machine receive it. */
  events: Record<string, (args: { ctx: TCtx; event: EventObject; user: UserEvent }) => Promise<void>>;
  teardown?: (ctx: TCtx) => Promise<void> | void;
  generate?: GenerateOptions;
  /** Where the coverage record goes; the default is what the model project's global setup reads. */
  coverageDir?: string;
  /**
   * Where the per-path record for `--report` goes. Default: the model project's records directory when
   * `MODEL_REPORT_DIR` is set (scripts/test-model.ts sets it), else nothing is written.
   */
  pathsDir?: string;
}

function listed(items: readonly string[]): string {
  return items.map((item) => `\n  - ${item}`).join('');
}

/** Long enough for a testing-library DOM dump's first screen; a report is not a log file. */
const MAX_MESSAGE_CHARS = 6000;

function failureMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes are exactly what is stripped.
  const plain = text.replace(/\u001b\[[0-9;]*m/g, '');
  return plain.length > MAX_MESSAGE_CHARS ? `${plain.slice(0, MAX_MESSAGE_CHARS)}\n…` : plain;
}

const expectCalls = (): number => expect.getState().assertionCalls;

/**
 * What one path did, step by step, for the report: the steps are planned from the path and filled in as
 * `path.test` calls the executors and assertions. Steps are found by identity (`path.test` hands each
 * executor its step and each assertion its step's snapshot), so a missing executor cannot shift them.
 */
class PathRun {
  readonly steps: StepRecord[];
  private current = 0;
  private at: Omit<FailureRecord, 'message'> = { phase: 'setup' };

  constructor(
    private readonly path: ModelPath,
    model: MachineModel,
  ) {
    this.steps = path.steps.map((step, index) => {
      const label = index === 0 ? undefined : eventLabel(model.machine, step.event.type);
      return {
        index,
        eventType: step.event.type,
        event: index === 0 ? '(inicio)' : formatEvent(step.event, model.events),
        ...(label ? { eventLabel: label } : {}),
        state: formatStateValue(step.state.value),
        stateLabels: step.state._nodes
          .filter(isLeaf)
          .map((node) => stateLabel(node))
          .filter((text): text is string => text !== undefined),
        executed: false,
        eventExpects: 0,
        assertions: [],
      };
    });
  }

  phase(phase: 'render'): void {
    this.at = { phase };
  }

  async event(step: { event: EventObject }, run: () => Promise<void>): Promise<void> {
    const index = this.path.steps.indexOf(step as ModelPath['steps'][number]);
    if (index >= 0) this.current = index;
    this.at = { phase: 'event', step: this.current };
    const record = this.steps[this.current]!;
    record.executed = true;
    const before = expectCalls();
    try {
      await run();
    } finally {
      record.eventExpects += expectCalls() - before;
    }
  }

  async state(key: string, state: AnyMachineSnapshot, run: () => Promise<void>): Promise<void> {
    const index = this.path.steps.findIndex((step, i) => i >= this.current && step.state === state);
    if (index >= 0) this.current = index;
    this.at = { phase: 'state', step: this.current, key };
    const before = expectCalls();
    let ok = false;
    try {
      await run();
      ok = true;
    } finally {
      this.steps[this.current]!.assertions.push({ key, expects: expectCalls() - before, ok });
    }
  }

  teardown(): void {
    this.at = { phase: 'teardown' };
  }

  failure(error: unknown): FailureRecord {
    return { message: failureMessage(error), ...this.at };
  }
}

/**
 * Registers the model-based suite of one machine: meta-tests that fail when the suite would test less
 * than it seems, then one test per generated path that renders the view fresh, performs each event through
 * its executor and runs every matching state assertion after every step (the initial state included).
 */
export function defineModelTests<TCtx = undefined>(model: MachineModel, opts: ModelTestOptions<TCtx>): void {
  const paths = generatePaths(model, opts.generate);
  const report = checkModel(model, paths, {
    states: Object.keys(opts.states),
    events: Object.keys(opts.events),
  });
  const checks = metaTests(report);
  const pathsDir = opts.pathsDir ?? (process.env[MODEL_REPORT_ENV] ? PATH_RECORDS_DIR : undefined);
  const results = new Map<ModelPath, PathRecord>();
  let passed = 0;
  let failed = 0;

  describe(`${model.id} (model)`, () => {
    afterAll(() => {
      const { coverage } = report;
      writeCoverageRecord(
        {
          id: model.id,
          states: {
            covered: coverage.states.covered.length,
            total: coverage.states.total.length,
            missing: report.uncoveredStates,
          },
          transitions: {
            covered: coverage.transitions.covered.length,
            total: coverage.transitions.total.length,
            waived: coverage.transitions.waived.length,
            missing: report.uncoveredTransitions,
          },
          paths: { total: paths.length, passed, failed },
        },
        opts.coverageDir,
      );
      if (pathsDir) {
        writePathsRecord(
          {
            id: model.id,
            checks: checks.map((check) => ({
              name: check.name,
              label: check.label,
              problems: check.lists.flatMap(({ what, items }) => items.map((item) => `${what}: ${item}`)),
            })),
            // A path filtered out of the run (`-t`) keeps its planned steps, marked not run.
            paths: paths.map(
              (path) =>
                results.get(path) ?? {
                  name: path.description,
                  status: 'not run',
                  steps: new PathRun(path, model).steps,
                },
            ),
          },
          pathsDir,
        );
      }
    });

    describe('model', () => {
      for (const check of checks) {
        it(check.name, () => {
          for (const { what, items } of check.lists) expect(items, `${what}:${listed(items)}`).toEqual([]);
        });
      }
    });

    for (const path of paths) {
      it(path.description, async () => {
        const run = new PathRun(path, model);
        let ready = false;
        let failure: { error: unknown; record: FailureRecord } | undefined;
        const user = userEvent.setup();
        let ctx = undefined as TCtx;
        try {
          if (opts.setup) ctx = await opts.setup();
          ready = true;
          run.phase('render');
          await opts.render(ctx);
          const params: TestParam<AnyMachineSnapshot, EventObject> = {
            states: Object.fromEntries(
              Object.entries(opts.states).map(([key, assert]) => [
                key,
                (state) => run.state(key, state, () => assert({ ctx, state })),
              ]),
            ),
            events: Object.fromEntries(
              Object.entries(opts.events).map(([type, execute]) => [
                type,
                (step: { event: EventObject }) =>
                  run.event(step, () => execute({ ctx, event: step.event, user })),
              ]),
            ),
          };
          await path.test(params);
        } catch (error) {
          failure = { error, record: run.failure(error) };
        }
        // Teardown runs after a failure too; its own error is reported only when the path itself passed.
        try {
          run.teardown();
          cleanup();
          if (ready) await opts.teardown?.(ctx);
        } catch (error) {
          failure ??= { error, record: run.failure(error) };
        }
        if (failure) failed++;
        else passed++;
        results.set(path, {
          name: path.description,
          status: failure ? 'failed' : 'passed',
          steps: run.steps,
          ...(failure ? { failure: failure.record } : {}),
        });
        if (failure) throw failure.error;
      });
    }
  });
}
