import {
  type AnyActorScope,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyTransitionDefinition,
  createActor,
  type EventObject,
  initialTransition,
  transition,
} from 'xstate';
import { isLeaf, transitionKeyOf } from './inventory';

/**
 * Replays an event sequence with xstate's pure functions and records what really happened. Coverage is
 * measured from this, never from what the path generator believes it produced: with an abstracting
 * `serializeState`, a generated step may carry a representative snapshot that its events cannot produce.
 */

export interface ReplayStep {
  event: EventObject;
  /** The settled snapshot after the event (after eventless transitions and raised events). */
  snapshot: AnyMachineSnapshot;
  /** Keys of every transition taken by this event, including eventless and raised-event microsteps. */
  transitions: string[];
}

export interface Replay {
  initial: AnyMachineSnapshot;
  steps: ReplayStep[];
  /** Union of `steps[].transitions` plus eventless transitions taken while starting. */
  transitions: Set<string>;
  /** Leaf states that were active at any microstep, including transient ones left by `always`. */
  visitedLeaves: Set<string>;
  /** Leaf states active in a settled snapshot: the only ones a UI assertion can observe. */
  settledLeaves: Set<string>;
  /** Set when a snapshot ended in status 'error' or xstate threw while replaying. */
  error?: { atStep: number; message: string };
}

type MicrostepSink = (transitions: readonly AnyTransitionDefinition[], snapshot: AnyMachineSnapshot) => void;

/**
 * An actor scope like the inert one behind `transition()`, but whose system reports `@xstate.microstep`
 * inspection events. `machine.getTransitionData` only answers for the external event; eventless (`always`)
 * transitions, compound `onDone` and raised events are selected inside the macrostep, and inspection is the
 * public way to see them.
 */
function inspectingScope(machine: AnyStateMachine, input: unknown, sink: MicrostepSink): AnyActorScope {
  const self = createActor(machine, { input });
  self.system.inspect((inspection) => {
    if (inspection.type === '@xstate.microstep') {
      sink(inspection._transitions, inspection.snapshot as AnyMachineSnapshot);
    }
  });
  return {
    self,
    id: '',
    sessionId: '',
    logger: () => {},
    defer: () => {},
    emit: () => {},
    system: self.system,
    stopChild: () => {},
    actionExecutor: () => {},
  };
}

function leavesOf(snapshot: AnyMachineSnapshot): string[] {
  return snapshot._nodes.filter(isLeaf).map((node) => node.id);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** One macrostep from `snapshot`: the settled result and every transition taken on the way. */
export function replayStep(
  machine: AnyStateMachine,
  input: unknown,
  snapshot: AnyMachineSnapshot,
  event: EventObject,
): { snapshot: AnyMachineSnapshot; transitions: string[]; visitedLeaves: string[] } | { error: string } {
  const taken = new Set<string>();
  const visited = new Set<string>();
  try {
    // The selection for the event itself, as xstate makes it (guards evaluated, conflicts resolved).
    for (const t of machine.getTransitionData(snapshot, event)) taken.add(transitionKeyOf(t));
    machine.transition(snapshot, event, inspectingScope(machine, input, collector(taken, visited)));
    const [next] = transition(machine, snapshot, event);
    return { snapshot: next, transitions: [...taken], visitedLeaves: [...visited] };
  } catch (error) {
    return { error: message(error) };
  }
}

/**
 * Collects the microsteps of one macrostep. The source of an eventless transition out of a transient atomic
 * state is the only trace that state leaves, so it counts as visited.
 */
function collector(transitions: Set<string>, visitedLeaves: Set<string>): MicrostepSink {
  return (taken, snapshot) => {
    for (const t of taken) {
      transitions.add(transitionKeyOf(t));
      if (isLeaf(t.source)) visitedLeaves.add(t.source.id);
    }
    for (const leaf of leavesOf(snapshot)) visitedLeaves.add(leaf);
  };
}

export function replayEvents(
  machine: AnyStateMachine,
  input: unknown,
  events: readonly EventObject[],
): Replay {
  const transitions = new Set<string>();
  const visitedLeaves = new Set<string>();
  const settledLeaves = new Set<string>();

  const settle = (snapshot: AnyMachineSnapshot): void => {
    for (const leaf of leavesOf(snapshot)) {
      visitedLeaves.add(leaf);
      settledLeaves.add(leaf);
    }
  };

  let initial: AnyMachineSnapshot;
  try {
    [initial] = initialTransition(machine, input);
    machine.getInitialSnapshot(inspectingScope(machine, input, collector(transitions, visitedLeaves)), input);
  } catch (error) {
    throw new Error(`The machine '${machine.id}' cannot start with the model's input: ${message(error)}`);
  }
  settle(initial);
  const replay: Replay = { initial, steps: [], transitions, visitedLeaves, settledLeaves };
  if (initial.status === 'error') {
    replay.error = { atStep: 0, message: message(initial.error) };
    return replay;
  }

  let snapshot: AnyMachineSnapshot = initial;
  for (const [index, event] of events.entries()) {
    const step = replayStep(machine, input, snapshot, event);
    if ('error' in step) {
      replay.error = { atStep: index + 1, message: step.error };
      break;
    }
    snapshot = step.snapshot;
    for (const key of step.transitions) transitions.add(key);
    for (const leaf of step.visitedLeaves) visitedLeaves.add(leaf);
    settle(snapshot);
    replay.steps.push({ event, snapshot, transitions: step.transitions });
    if (snapshot.status === 'error') {
      replay.error = { atStep: index + 1, message: message(snapshot.error) };
      break;
    }
  }
  return replay;
}
