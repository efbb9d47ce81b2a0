import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine, EventObject, StateValue } from 'xstate';
import { __unsafe_getAllOwnEventDescriptors } from 'xstate';
import { type StatePath, type Step, TestModel, type TestPath } from 'xstate/graph';
import { leafStateIds, listTransitions } from './inventory';
import { replayEvents, replayStep } from './replay';

/** What a model-based test suite knows about one machine, besides the machine itself. */
export interface MachineModel {
  /** The catalogue id of the machine. */
  id: string;
  machine: AnyStateMachine;
  /**
   * Every event the model may send, one object per payload partition, including the synthetic
   * `xstate.done.actor.<id>` ({output}) and `xstate.error.actor.<id>` ({error}) events of invoked actors.
   * Delayed `xstate.after.*` events carry no payload and are added automatically. `AnyEventObject` so that
   * payload literals need no cast; any `EventObject[]` is accepted.
   */
  events: readonly AnyEventObject[];
  /** The context partitions that guards read; the vertex key of the traversal. Default: `s.value`. */
  abstract?: (s: AnyMachineSnapshot) => unknown;
  input?: unknown;
  /** Transition key → why the model does not exercise it. */
  waivers?: Record<string, string>;
}

export type ModelPath = TestPath<AnyMachineSnapshot, EventObject>;

export interface GenerateOptions {
  /**
   * Tripwire for both searches. The traversal throws `Traversal limit exceeded` past it; the coverage
   * extension stops searching and leaves the transition uncovered (the coverage meta-test then fails).
   */
  limit?: number;
}

export interface Coverage {
  states: { covered: string[]; total: string[] };
  transitions: { covered: string[]; total: string[]; waived: string[] };
  paths: number;
}

const DEFAULT_LIMIT = 20_000;
const INIT_EVENT: EventObject = { type: 'xstate.init' };

const serializeEvent = (event: EventObject): string => JSON.stringify(event);

function eventsIn(path: StatePath<AnyMachineSnapshot, EventObject>): EventObject[] {
  return path.steps.slice(1).map((step) => step.event);
}

/** Events the model would send from `snapshot`: its partitions plus pending delays, only if enabled. */
function enabledEvents(model: MachineModel, snapshot: AnyMachineSnapshot): EventObject[] {
  const listed = new Set(model.events.map((event) => event.type));
  const delays = __unsafe_getAllOwnEventDescriptors(snapshot)
    .filter((type) => type.startsWith('xstate.after.') && !listed.has(type))
    .map((type) => ({ type }));
  // `can` is the same predicate views use to enable buttons, so a path never asks the UI for a gesture
  // that is impossible there (an ignored event would otherwise become a path of its own).
  return [...model.events, ...delays].filter((event) => snapshot.can(event));
}

export function stateMatcher(
  machine: AnyStateMachine,
): (snapshot: AnyMachineSnapshot, key: string) => boolean {
  return (snapshot, key) =>
    key.startsWith('#') ? snapshot._nodes.includes(machine.getStateNodeById(key)) : snapshot.matches(key);
}

/**
 * The TestModel behind the generator and behind `path.test`. `createTestModel` rejects machines with
 * `invoke` or `after`, although traversal never runs actors; the constructor skips that validation.
 */
export function createTestModel(model: MachineModel, limit = DEFAULT_LIMIT) {
  const abstract = model.abstract ?? ((s: AnyMachineSnapshot) => s.value);
  const key = (s: AnyMachineSnapshot): string => JSON.stringify(abstract(s));
  return new TestModel<AnyMachineSnapshot, EventObject, unknown>(model.machine, {
    events: (snapshot) => enabledEvents(model, snapshot),
    // Vertices are (state, incoming transition) pairs, so shortest paths cover transitions, not only states.
    serializeState: (snapshot, event, prev) =>
      key(snapshot) + (event && prev ? ` via ${serializeEvent(event)} from ${key(prev)}` : ''),
    stateMatcher: stateMatcher(model.machine),
    input: model.input,
    limit,
  });
}

/** Stable JSON that survives actor refs and cycles in context: the vertex key of the fallback search. */
function concreteKey(snapshot: AnyMachineSnapshot): string {
  const seen = new WeakSet<object>();
  return JSON.stringify({ v: snapshot.value, c: snapshot.context, s: snapshot.status }, (_key, value) => {
    if (typeof value === 'function') return undefined;
    if (value && typeof value === 'object') {
      if ('sessionId' in value && 'send' in value) return `actor:${String((value as { id?: unknown }).id)}`;
      if (seen.has(value)) return '[cycle]';
      seen.add(value);
    }
    return value;
  });
}

/**
 * Breadth-first search over concrete snapshots (full context, not the abstraction) for the shortest event
 * sequence that takes each wanted transition. This repairs an abstraction that is too coarse: a counter
 * that a guard reads but `abstract` leaves out makes the traversal stop at the first value it sees.
 */
function searchMissing(model: MachineModel, wanted: Set<string>, limit: number): Map<string, EventObject[]> {
  const found = new Map<string, EventObject[]>();
  const start = replayEvents(model.machine, model.input, []).initial;
  const queue: Array<{ snapshot: AnyMachineSnapshot; events: EventObject[] }> = [
    { snapshot: start, events: [] },
  ];
  const seen = new Set([concreteKey(start)]);
  let expanded = 0;
  while (queue.length > 0 && found.size < wanted.size && expanded++ < limit) {
    const { snapshot, events } = queue.shift()!;
    if (snapshot.status !== 'active') continue;
    for (const event of enabledEvents(model, snapshot)) {
      const step = replayStep(model.machine, model.input, snapshot, event);
      if ('error' in step) continue;
      const sequence = [...events, event];
      for (const key of step.transitions) {
        if (wanted.has(key) && !found.has(key)) found.set(key, sequence);
      }
      const nextKey = concreteKey(step.snapshot);
      if (!seen.has(nextKey)) {
        seen.add(nextKey);
        queue.push({ snapshot: step.snapshot, events: sequence });
      }
    }
  }
  return found;
}

/** Drops sequences that are a prefix of another (their steps run anyway), keeping first-seen order. */
function withoutPrefixes(sequences: EventObject[][]): EventObject[][] {
  const keyed = sequences.map((events) => events.map(serializeEvent));
  return sequences.filter((_, i) => {
    const mine = keyed[i]!;
    return !keyed.some((other, j) => {
      if (j === i || other.length < mine.length) return false;
      if (other.length === mine.length && j > i) return false;
      return mine.every((event, k) => other[k] === event);
    });
  });
}

/**
 * Test paths that reach every reachable leaf state and take every reachable transition (including delayed
 * `after` and invoke done/error transitions). Steps carry the snapshots of a real replay, so assertions may
 * read any context, not only what `abstract` keeps.
 */
export function generatePaths(model: MachineModel, options: GenerateOptions = {}): ModelPath[] {
  const limit = options.limit ?? DEFAULT_LIMIT;
  const testModel = createTestModel(model, limit);
  const sequences = testModel.getShortestPaths().map(eventsIn);

  // Shortest paths over abstract vertices can still miss transitions whose guards read context the
  // abstraction drops; find the shortest concrete sequence for each and append it.
  const coverage = measureSequences(model, sequences);
  const waived = new Set(Object.keys(model.waivers ?? {}));
  const missing = new Set(
    coverage.transitions.total.filter(
      (key) => !coverage.transitions.covered.includes(key) && !waived.has(key),
    ),
  );
  if (missing.size > 0) {
    const found = searchMissing(model, missing, limit);
    // Transition inventory order keeps the output deterministic.
    for (const key of coverage.transitions.total) {
      const sequence = found.get(key);
      if (sequence) sequences.push(sequence);
    }
  }

  return withoutPrefixes(sequences).map((events) => toTestPath(model, testModel, events));
}

/** A test path for a hand-picked event sequence (a regression or a scenario the generator would not pick). */
export function pathFromEvents(model: MachineModel, events: readonly AnyEventObject[]): ModelPath {
  return toTestPath(model, createTestModel(model), [...events]);
}

function toTestPath(
  model: MachineModel,
  testModel: ReturnType<typeof createTestModel>,
  events: EventObject[],
): ModelPath {
  const replay = replayEvents(model.machine, model.input, events);
  if (replay.steps.length !== events.length) {
    // The traversal and the replay disagree: the machine is not deterministic (time, randomness).
    throw new Error(
      `Replaying ${events.map((event) => formatEvent(event)).join(' → ')} on '${model.id}' failed at step ${replay.error?.atStep}: ${replay.error?.message}`,
    );
  }
  const steps: Step<AnyMachineSnapshot, EventObject>[] = [
    { event: INIT_EVENT, state: replay.initial },
    ...replay.steps.map((step) => ({ event: step.event, state: step.snapshot })),
  ];
  const statePath: StatePath<AnyMachineSnapshot, EventObject> = {
    state: steps.at(-1)!.state,
    steps,
    weight: events.length,
  };
  const path: ModelPath = {
    ...statePath,
    description: '',
    test: (params) => testModel.testPath(statePath, params),
  };
  path.description = stepLabel(path, model.events);
  return path;
}

function measureSequences(model: MachineModel, sequences: readonly EventObject[][]): Coverage {
  const total = listTransitions(model.machine).map((t) => t.key);
  const leaves = leafStateIds(model.machine);
  const coveredTransitions = new Set<string>();
  const coveredStates = new Set<string>();
  for (const events of sequences) {
    const replay = replayEvents(model.machine, model.input, events);
    for (const key of replay.transitions) coveredTransitions.add(key);
    for (const leaf of replay.visitedLeaves) coveredStates.add(leaf);
  }
  const waivers = Object.keys(model.waivers ?? {});
  return {
    states: { covered: leaves.filter((id) => coveredStates.has(id)), total: leaves },
    transitions: {
      covered: total.filter((key) => coveredTransitions.has(key)),
      total,
      waived: total.filter((key) => waivers.includes(key)),
    },
    paths: sequences.length,
  };
}

/**
 * State and transition coverage of `paths`, measured by replaying their events with `initialTransition` /
 * `transition` and `machine.getTransitionData` (plus inspection for eventless steps). Lists keep the
 * machine's document order.
 */
export function measureCoverage(model: MachineModel, paths: readonly ModelPath[]): Coverage {
  return measureSequences(model, paths.map(eventsIn));
}

/** Keys that are neither covered nor waived. */
export function uncoveredTransitions(coverage: Coverage): string[] {
  const { covered, total, waived } = coverage.transitions;
  return total.filter((key) => !covered.includes(key) && !waived.includes(key));
}

const MAX_VALUE_CHARS = 24;
const MAX_ARGS = 3;

function formatValue(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

/** Payload leaves as `[path, value]`; a single top-level key (`output`, `error`) is left out of the path. */
function payloadLeaves(event: EventObject): Array<[string, unknown]> {
  const { type: _type, ...payload } = event as EventObject & Record<string, unknown>;
  const leaves: Array<[string, unknown]> = [];
  const visit = (value: unknown, path: string[]): void => {
    if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0) {
      for (const [key, child] of Object.entries(value)) visit(child, [...path, key]);
    } else {
      leaves.push([path.join('.'), value]);
    }
  };
  const keys = Object.keys(payload);
  if (keys.length === 1) visit(payload[keys[0]!], []);
  else visit(payload, []);
  return leaves.map(([path, value]) => [path || keys[0] || '', value]);
}

/**
 * `amount.set(amount=5000)`, `linkSat.error(status=503)`, `after 3000ms`: named as the diagrams name them.
 * Given the model's events, only the payload leaves that tell apart partitions of the same type are shown.
 */
export function formatEvent(event: EventObject, modelEvents?: readonly EventObject[]): string {
  const type = event.type;
  let name = type;
  const actor = /^xstate\.(done|error)\.actor\.(.+)$/.exec(type);
  const delay = /^xstate\.after\.([^.]+)\./.exec(type);
  if (actor) name = `${actor[2]}.${actor[1]}`;
  else if (delay) name = /^\d+$/.test(delay[1]!) ? `after ${delay[1]}ms` : `after ${delay[1]}`;

  let leaves = payloadLeaves(event);
  if (modelEvents) {
    // Fewest leaves, in payload order, that single this partition out among those of its type.
    let candidates = modelEvents.filter((e) => e.type === type).map(payloadLeaves);
    const chosen: Array<[string, unknown]> = [];
    for (const leaf of leaves) {
      if (candidates.length <= 1) break;
      const same = (v: Array<[string, unknown]>): boolean =>
        JSON.stringify(v.find(([path]) => path === leaf[0])?.[1]) === JSON.stringify(leaf[1]);
      if (candidates.every(same)) continue;
      chosen.push(leaf);
      candidates = candidates.filter(same);
    }
    leaves = chosen;
  }
  const args = leaves.slice(0, MAX_ARGS).map(([path, value]) => `${path}=${formatValue(value)}`);
  if (leaves.length > MAX_ARGS) args.push('…');
  return args.length > 0 ? `${name}(${args.join(', ')})` : name;
}

/** `editing`, `review.scoring + upload.idle`: a state value on one line. */
export function formatStateValue(value: StateValue): string {
  if (typeof value === 'string') return value;
  return Object.entries(value)
    .map(([k, v]) => (v ? `${k}.${formatStateValue(v)}` : k))
    .join(' + ');
}

/**
 * A readable test name from the events of a path and the state it ends in (not from `description`, which
 * prints a representative context). With the model's events, payloads shrink to what tells partitions apart.
 */
export function stepLabel(
  path: StatePath<AnyMachineSnapshot, EventObject>,
  modelEvents?: readonly EventObject[],
): string {
  const events = eventsIn(path).map((event) => formatEvent(event, modelEvents));
  return `${events.length > 0 ? events.join(' → ') : '(initial)'} ⇒ ${formatStateValue(path.state.value)}`;
}

/** What one browser run of the paths covers (decision 0055): how many paths, and of what. */
export interface CoveringSet {
  paths: ModelPath[];
  /** Transition keys the chosen paths take: every one the full set takes. */
  transitions: string[];
  /** Leaf states the chosen paths visit: every one the full set visits. */
  states: string[];
}

/**
 * A covering subset of `paths`: greedily the path that takes the most transitions (then visits the most leaf
 * states) not yet taken, until the subset takes every transition and visits every leaf state the whole set
 * does. A browser re-runs only these (decision 0055): every path already ran in process and over HTTP, and
 * what a browser adds (the bundle, layout, focus, downloads) is seen once a transition is taken there once.
 * Kept in generation order, so names and order are stable between runs.
 */
export function coveringPaths(model: MachineModel, paths: readonly ModelPath[]): CoveringSet {
  const taken = paths.map((path) => {
    const replay = replayEvents(model.machine, model.input, eventsIn(path));
    return { transitions: replay.transitions, states: replay.visitedLeaves };
  });
  const wantedTransitions = new Set(taken.flatMap((t) => [...t.transitions]));
  const wantedStates = new Set(taken.flatMap((t) => [...t.states]));
  const chosen = new Set<number>();
  const gain = (i: number): [number, number] => [
    [...taken[i]!.transitions].filter((key) => wantedTransitions.has(key)).length,
    [...taken[i]!.states].filter((id) => wantedStates.has(id)).length,
  ];
  while (wantedTransitions.size + wantedStates.size > 0) {
    let best = -1;
    let bestGain: [number, number] = [0, 0];
    for (let i = 0; i < paths.length; i++) {
      if (chosen.has(i)) continue;
      const [t, s] = gain(i);
      if (t > bestGain[0] || (t === bestGain[0] && s > bestGain[1])) {
        best = i;
        bestGain = [t, s];
      }
    }
    if (best < 0) break;
    chosen.add(best);
    for (const key of taken[best]!.transitions) wantedTransitions.delete(key);
    for (const id of taken[best]!.states) wantedStates.delete(id);
  }
  const subset = paths.filter((_, i) => chosen.has(i));
  const coverage = measureCoverage(model, subset);
  return { paths: subset, transitions: coverage.transitions.covered, states: coverage.states.covered };
}
