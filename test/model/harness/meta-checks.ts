import type { AnyMachineSnapshot, AnyStateMachine, AnyStateNode } from 'xstate';
import { isLeaf, leafStateIds, listTransitions } from './inventory';
import {
  type Coverage,
  type MachineModel,
  type ModelPath,
  measureCoverage,
  stateMatcher,
  uncoveredTransitions,
} from './model';

/**
 * The checks that make a model suite honest. `path.test` silently skips a state without an assertion and an
 * event without an executor, so a suite can be green while testing nothing; these lists must be empty.
 */
export interface MetaReport {
  /** Leaf states reached in a settled snapshot that no assertion key covers. */
  unassertedStates: string[];
  /** Assertion keys that match no snapshot of any path (a typo, or a state the model never reaches). */
  unusedStateKeys: string[];
  /** Event types sent by some path without an executor. */
  eventsWithoutExecutor: string[];
  /** Executors for event types no path sends. */
  unusedExecutors: string[];
  /**
   * Model events (payload partitions) no path sends: enabled in no reachable state, for example an error
   * outcome the machine has no `onError` for, or a misspelt type.
   */
  unusedModelEvents: string[];
  /** Leaf states no path visits. */
  uncoveredStates: string[];
  /** Transitions no path takes and no waiver excuses. */
  uncoveredTransitions: string[];
  /** Waiver keys that name no transition of the machine. */
  unknownWaivers: string[];
  /** Paths with a snapshot in status 'error', by name. */
  errorPaths: string[];
  coverage: Coverage;
}

function lineage(node: AnyStateNode): AnyStateNode[] {
  const out: AnyStateNode[] = [];
  for (let n: AnyStateNode | undefined = node; n; n = n.parent) out.push(n);
  return out;
}

/**
 * Whether an assertion key speaks for a leaf: `#id` keys name the leaf or an ancestor, other keys are
 * `matches` paths from the root that are a prefix of the leaf's path. The fallback key `*` covers nothing:
 * it would excuse every state.
 */
function keyCoversLeaf(machine: AnyStateMachine, key: string, leaf: AnyStateNode): boolean {
  if (key === '*') return false;
  if (key.startsWith('#')) {
    try {
      return lineage(leaf).includes(machine.getStateNodeById(key));
    } catch {
      return false;
    }
  }
  const segments = key.split('.');
  return segments.length <= leaf.path.length && segments.every((segment, i) => leaf.path[i] === segment);
}

function safeMatch(match: (s: AnyMachineSnapshot, key: string) => boolean) {
  return (s: AnyMachineSnapshot, key: string): boolean => {
    try {
      return match(s, key);
    } catch {
      return false;
    }
  };
}

export function checkModel(
  model: MachineModel,
  paths: readonly ModelPath[],
  keys: { states: readonly string[]; events: readonly string[] },
): MetaReport {
  const machine = model.machine;
  const matches = safeMatch(stateMatcher(machine));
  const snapshots = paths.flatMap((path) => path.steps.map((step) => step.state));

  const settled = new Map<string, AnyStateNode>();
  for (const snapshot of snapshots) {
    for (const node of snapshot._nodes.filter(isLeaf)) settled.set(node.id, node);
  }
  const unassertedStates = leafStateIds(machine).filter(
    (id) => settled.has(id) && !keys.states.some((key) => keyCoversLeaf(machine, key, settled.get(id)!)),
  );
  const unusedStateKeys = keys.states.filter(
    (key) => key !== '*' && !snapshots.some((snapshot) => matches(snapshot, key)),
  );

  const sent = new Set(paths.flatMap((path) => path.steps.slice(1).map((step) => step.event.type)));
  const eventsWithoutExecutor = [...sent].filter((type) => !keys.events.includes(type)).sort();
  const unusedExecutors = keys.events.filter((type) => !sent.has(type));
  const sentEvents = new Set(
    paths.flatMap((path) => path.steps.slice(1).map((step) => JSON.stringify(step.event))),
  );
  const unusedModelEvents = model.events
    .map((event) => JSON.stringify(event))
    .filter((event) => !sentEvents.has(event));

  const coverage = measureCoverage(model, paths);
  const transitionKeys = new Set(listTransitions(machine).map((t) => t.key));
  return {
    unassertedStates,
    unusedStateKeys,
    eventsWithoutExecutor,
    unusedExecutors,
    unusedModelEvents,
    uncoveredStates: coverage.states.total.filter((id) => !coverage.states.covered.includes(id)),
    uncoveredTransitions: uncoveredTransitions(coverage),
    unknownWaivers: Object.keys(model.waivers ?? {}).filter((key) => !transitionKeys.has(key)),
    errorPaths: paths
      .filter((path) => path.steps.some((step) => step.state.status === 'error'))
      .map((path) => path.description),
    coverage,
  };
}

/** One meta-test: its test name, its Spanish name in the report, and the lists that must be empty. */
export interface MetaTest {
  name: string;
  label: string;
  lists: Array<{ what: string; items: string[] }>;
}

/** The meta-tests every model suite registers, in order; the report lists them with what they found. */
export function metaTests(report: MetaReport): MetaTest[] {
  return [
    {
      name: 'has an assertion for every reachable leaf state',
      label: 'Cada estado hoja alcanzable tiene una aserción',
      lists: [{ what: 'states without assertions', items: report.unassertedStates }],
    },
    {
      name: 'has no assertion key that matches no reachable state',
      label: 'Ninguna aserción apunta a un estado inalcanzable',
      lists: [{ what: 'unused state keys', items: report.unusedStateKeys }],
    },
    {
      name: 'has an executor for every event the paths send',
      label: 'Cada evento que envían los caminos tiene un ejecutor',
      lists: [{ what: 'events without executor', items: report.eventsWithoutExecutor }],
    },
    {
      name: 'has no executor for an event no path sends',
      label: 'Ningún ejecutor sobra',
      lists: [{ what: 'unused executors', items: report.unusedExecutors }],
    },
    {
      name: 'sends every event partition of the model somewhere',
      label: 'Cada partición de evento del modelo se envía en algún camino',
      lists: [{ what: 'model events never enabled', items: report.unusedModelEvents }],
    },
    {
      name: 'covers every leaf state and every transition that is not waived',
      label: 'Se cubren todos los estados hoja y todas las transiciones no exentas',
      lists: [
        { what: 'waivers for unknown transitions', items: report.unknownWaivers },
        { what: 'states not reached', items: report.uncoveredStates },
        { what: 'transitions not taken', items: report.uncoveredTransitions },
      ],
    },
    {
      name: 'never reaches a snapshot in status error',
      label: 'Ningún camino termina en un estado de error de la máquina',
      lists: [{ what: 'paths ending in error', items: report.errorPaths }],
    },
  ];
}
