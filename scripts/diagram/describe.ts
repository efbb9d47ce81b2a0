import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';
import { eventLabel, guardSentence, guardTree, stateLabel } from '../../src/machines/machine-texts';
import { ALWAYS_EVENT, listTransitions } from '../../test/model/harness/inventory';
import { guardMarks, guardSentenceOf } from './labels';

/**
 * A renderer-neutral description of a machine, read from the live StateNodes. `machine.definition` is
 * JSON and loses inline and higher-order guards and actions, and `toDirectedGraph` drops `always` edges
 * and initial markers, so neither is enough for an audit diagram.
 */

export interface DiagramState {
  id: string;
  key: string;
  type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
  /** 'shallow' or 'deep' for history states. */
  history?: string;
  children: DiagramState[];
  /** Id of the initial child of a compound state. */
  initial?: string;
  entry: string[];
  exit: string[];
  /** Source names of invoked actors. */
  invoke: string[];
  description?: string;
  /** The machine's Spanish label (`meta.label`), when it gives one. */
  label?: string;
}

export interface DiagramEdge {
  /** Transition key, shared with the coverage measurement. */
  key: string;
  source: string;
  /** Target state ids; empty for a targetless transition (drawn as a self-loop). */
  targets: string[];
  event: string;
  /** The event type xstate reacts to (`always` for eventless transitions). */
  eventType: string;
  /** The machine's Spanish label for the event, when it gives one. */
  eventLabel?: string;
  guard?: string;
  /** The guard's mark in `MachineDiagram.guards` (`G1`, …). */
  guardMark?: string;
  actions: string[];
  /** `event [guard] / actions`. */
  label: string;
}

export interface DiagramGuard {
  mark: string;
  expression: string;
  /** One Spanish sentence (from the machine's guard sentences, combined for and/or/not). */
  sentence: string;
}

export interface MachineDiagram {
  id: string;
  root: DiagramState;
  edges: DiagramEdge[];
  /** Every state by id, root included. */
  states: Map<string, DiagramState>;
  /** Leaf (atomic and final) ids in document order. */
  leafIds: string[];
  /** Every distinct guard expression, numbered in order of first use. */
  guards: DiagramGuard[];
}

export const INLINE = 'ƒ inline';

type Labelled = { type?: unknown; params?: unknown; guards?: unknown; stateValue?: unknown; check?: unknown };

function formatStateValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Named guards by name; `and`/`or`/`not` spelled out; `stateIn` as `in(x)`; inline functions flagged. */
export function formatGuard(guard: unknown): string {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const fn = guard as ((...args: unknown[]) => unknown) & Labelled;
    const parts = Array.isArray(fn.guards) ? (fn.guards as unknown[]).map(formatGuard) : [];
    if (fn.check && fn.name === 'not') return `!${parts[0] ?? INLINE}`;
    if (fn.check && fn.name === 'and') return `(${parts.join(' && ')})`;
    if (fn.check && fn.name === 'or') return `(${parts.join(' || ')})`;
    if (fn.check && fn.name === 'stateIn') return `in(${formatStateValue(fn.stateValue)})`;
    return INLINE;
  }
  if (guard && typeof guard === 'object' && typeof (guard as Labelled).type === 'string') {
    return (guard as { type: string }).type;
  }
  return INLINE;
}

/** Named actions by name; built-ins by their short name (`assign`, `raise(x)`); inline functions flagged. */
export function formatAction(action: unknown): string {
  if (typeof action === 'string') return action;
  if (action && typeof action === 'object' && typeof (action as Labelled).type === 'string') {
    return (action as { type: string }).type;
  }
  if (typeof action === 'function') {
    const fn = action as ((...args: unknown[]) => unknown) & { type?: unknown; event?: unknown };
    if (typeof fn.type === 'string' && fn.type.startsWith('xstate.')) {
      const name = fn.type.slice('xstate.'.length);
      const event = fn.event as { type?: unknown } | undefined;
      return name === 'raise' && typeof event?.type === 'string' ? `raise(${event.type})` : name;
    }
    return INLINE;
  }
  return INLINE;
}

/** The raise/cancel pair xstate adds to entry/exit for every `after` delay is plumbing, not behaviour. */
function isDelayPlumbing(action: unknown): boolean {
  if (typeof action !== 'function') return false;
  const fn = action as { type?: unknown; id?: unknown; sendId?: unknown };
  if (fn.type === 'xstate.raise') return typeof fn.id === 'string' && fn.id.startsWith('xstate.after.');
  if (fn.type === 'xstate.cancel')
    return typeof fn.sendId === 'string' && fn.sendId.startsWith('xstate.after.');
  return false;
}

function formatActions(actions: readonly unknown[]): string[] {
  return actions.filter((action) => !isDelayPlumbing(action)).map(formatAction);
}

export function formatEventType(transition: AnyTransitionDefinition, eventType: string): string {
  if (eventType === ALWAYS_EVENT) return 'always';
  const delay = (transition as AnyTransitionDefinition & { delay?: unknown }).delay;
  if (eventType.startsWith('xstate.after.') && delay !== undefined) {
    return typeof delay === 'number' ? `after ${delay}ms` : `after ${String(delay)}`;
  }
  const actor = /^xstate\.(done|error)\.actor\.(.+)$/.exec(eventType);
  if (actor) return `${actor[2]}.${actor[1]}`;
  if (eventType.startsWith('xstate.done.state.')) return 'done';
  return eventType;
}

function formatInvokeSource(src: unknown): string {
  if (typeof src !== 'string') return INLINE;
  // Logic passed inline (not named in setup()) gets a generated source name.
  return src.startsWith('xstate.invoke.') ? INLINE : src;
}

function describeState(node: AnyStateNode, states: Map<string, DiagramState>): DiagramState {
  const state: DiagramState = {
    id: node.id,
    key: node.key,
    type: node.type,
    children: [],
    entry: formatActions(node.entry),
    exit: formatActions(node.exit),
    invoke: node.invoke.map((invoke) => formatInvokeSource(invoke.src)),
  };
  if (node.type === 'history') state.history = node.history === 'deep' ? 'deep' : 'shallow';
  if (node.type === 'compound' && node.initial.target[0]) state.initial = node.initial.target[0].id;
  if (node.description) state.description = node.description;
  const label = stateLabel(node);
  if (label) state.label = label;
  // Registered before the children so that `states` iterates in document order.
  states.set(node.id, state);
  state.children = Object.values(node.states).map((child) => describeState(child, states));
  return state;
}

export function edgeLabel(edge: Pick<DiagramEdge, 'event' | 'guard' | 'actions'>): string {
  const guard = edge.guard ? ` [${edge.guard}]` : '';
  const actions = edge.actions.length > 0 ? ` / ${edge.actions.join(', ')}` : '';
  return `${edge.event}${guard}${actions}`;
}

export function describeMachine(machine: AnyStateMachine): MachineDiagram {
  const states = new Map<string, DiagramState>();
  const root = describeState(machine.root, states);
  const sentences = new Map<string, string>();
  const edges = listTransitions(machine).map(({ key, source, eventType, transition }) => {
    const edge: DiagramEdge = {
      key,
      source: source.id,
      targets: (transition.target ?? []).map((target) => target.id),
      event: formatEventType(transition, eventType),
      eventType,
      actions: formatActions(transition.actions),
      label: '',
    };
    const spanish = eventLabel(machine, eventType === ALWAYS_EVENT ? '' : eventType);
    if (spanish) edge.eventLabel = spanish;
    if (transition.guard !== undefined) {
      edge.guard = formatGuard(transition.guard);
      sentences.set(
        edge.guard,
        guardSentenceOf(guardTree(transition.guard), (name) => guardSentence(machine, name)),
      );
    }
    edge.label = edgeLabel(edge);
    return edge;
  });
  const marks = guardMarks(edges.map((edge) => edge.guard));
  for (const edge of edges) if (edge.guard) edge.guardMark = marks.get(edge.guard);
  const guards = [...marks].map(([expression, mark]) => ({
    mark,
    expression,
    sentence: sentences.get(expression)!,
  }));
  const leafIds = [...states.values()]
    .filter((state) => state.type === 'atomic' || state.type === 'final')
    .map((state) => state.id);
  return { id: machine.id, root, edges, states, leafIds, guards };
}
