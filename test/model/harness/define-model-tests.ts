import { cleanup } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import type { TestParam } from 'xstate/graph';
import { writeCoverageRecord } from './coverage-files';
import { checkModel } from './meta-checks';
import { type GenerateOptions, generatePaths, type MachineModel } from './model';

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
}

function listed(items: readonly string[]): string {
  return items.map((item) => `\n  - ${item}`).join('');
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
    });

    describe('model', () => {
      it('has an assertion for every reachable leaf state', () => {
        expect(
          report.unassertedStates,
          `states without assertions:${listed(report.unassertedStates)}`,
        ).toEqual([]);
      });
      it('has no assertion key that matches no reachable state', () => {
        expect(report.unusedStateKeys, `unused state keys:${listed(report.unusedStateKeys)}`).toEqual([]);
      });
      it('has an executor for every event the paths send', () => {
        expect(
          report.eventsWithoutExecutor,
          `events without executor:${listed(report.eventsWithoutExecutor)}`,
        ).toEqual([]);
      });
      it('has no executor for an event no path sends', () => {
        expect(report.unusedExecutors, `unused executors:${listed(report.unusedExecutors)}`).toEqual([]);
      });
      it('sends every event partition of the model somewhere', () => {
        expect(
          report.unusedModelEvents,
          `model events never enabled:${listed(report.unusedModelEvents)}`,
        ).toEqual([]);
      });
      it('covers every leaf state and every transition that is not waived', () => {
        expect(
          report.unknownWaivers,
          `waivers for unknown transitions:${listed(report.unknownWaivers)}`,
        ).toEqual([]);
        expect(report.uncoveredStates, `states not reached:${listed(report.uncoveredStates)}`).toEqual([]);
        expect(
          report.uncoveredTransitions,
          `transitions not taken:${listed(report.uncoveredTransitions)}`,
        ).toEqual([]);
      });
      it('never reaches a snapshot in status error', () => {
        expect(report.errorPaths, `paths ending in error:${listed(report.errorPaths)}`).toEqual([]);
      });
    });

    for (const path of paths) {
      it(path.description, async () => {
        let ok = false;
        let ready = false;
        const user = userEvent.setup();
        let ctx = undefined as TCtx;
        try {
          if (opts.setup) ctx = await opts.setup();
          ready = true;
          await opts.render(ctx);
          const params: TestParam<AnyMachineSnapshot, EventObject> = {
            states: Object.fromEntries(
              Object.entries(opts.states).map(([key, assert]) => [key, (state) => assert({ ctx, state })]),
            ),
            events: Object.fromEntries(
              Object.entries(opts.events).map(([type, execute]) => [
                type,
                (step: { event: EventObject }) => execute({ ctx, event: step.event, user }),
              ]),
            ),
          };
          await path.test(params);
          ok = true;
        } finally {
          if (ok) passed++;
          else failed++;
          cleanup();
          if (ready) await opts.teardown?.(ctx);
        }
      });
    }
  });
}
