import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';

/**
 * The static inventory of a machine: its state nodes and every transition, each with a stable key.
 * Both the coverage measurement and the diagrams use these keys, so an edge in a coverage diagram and a
 * line in the coverage table always mean the same transition.
 */

/** Eventless transitions have the empty event type in xstate; a visible word makes keys readable. */
export const ALWAYS_EVENT = 'always';

export interface TransitionInfo {
  /** `${source.id}|${eventType}|${index}`, index within the transitions for that event (or `always`). */
  key: string;
  source: AnyStateNode;
  eventType: string;
  index: number;
  transition: AnyTransitionDefinition;
}

/** Root first, then every descendant in document order. */
export function allStateNodes(machine: AnyStateMachine): AnyStateNode[] {
  const out: AnyStateNode[] = [];
  const visit = (node: AnyStateNode): void => {
    out.push(node);
    for (const child of Object.values(node.states)) visit(child);
  };
  visit(machine.root);
  return out;
}

export function isLeaf(node: AnyStateNode): boolean {
  return node.type === 'atomic' || node.type === 'final';
}

/** Leaf (atomic and final) state ids in document order: the denominator of state coverage. */
export function leafStateIds(machine: AnyStateMachine): string[] {
  return allStateNodes(machine)
    .filter(isLeaf)
    .map((node) => node.id);
}

/**
 * The key of a live transition definition. Lookup is by identity, which holds for the objects returned by
 * `machine.getTransitionData` and by the inspection API (both hand out the state node's own definitions).
 */
export function transitionKeyOf(transition: AnyTransitionDefinition): string {
  const source = transition.source;
  if (transition.eventType === '') {
    const index = (source.always ?? []).indexOf(transition);
    return `${source.id}|${ALWAYS_EVENT}|${index}`;
  }
  const index = (source.transitions.get(transition.eventType) ?? []).indexOf(transition);
  return `${source.id}|${transition.eventType}|${index}`;
}

/**
 * Every transition of the machine in document order: per state node, its `on`/`after`/`onDone`/invoke
 * transitions (all live in `stateNode.transitions`) followed by its `always` transitions, which xstate keeps
 * apart and which `toDirectedGraph` and the graph traversal both ignore.
 */
export function listTransitions(machine: AnyStateMachine): TransitionInfo[] {
  const out: TransitionInfo[] = [];
  for (const source of allStateNodes(machine)) {
    for (const [eventType, transitions] of source.transitions) {
      transitions.forEach((transition, index) => {
        out.push({ key: `${source.id}|${eventType}|${index}`, source, eventType, index, transition });
      });
    }
    (source.always ?? []).forEach((transition, index) => {
      out.push({
        key: `${source.id}|${ALWAYS_EVENT}|${index}`,
        source,
        eventType: ALWAYS_EVENT,
        index,
        transition,
      });
    });
  }
  return out;
}
