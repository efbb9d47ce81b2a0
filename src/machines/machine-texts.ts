import type { AnyStateMachine, AnyStateNode } from 'xstate';

/**
 * The Spanish words auditors read on /diagramas/, in "Ver en el diagrama" and in the workflow manual, written
 * once in each machine's own config:
 *
 * - every state node except the root: `meta: { label: 'Por Autorizar' }` (and optionally xstate's
 *   `description`, one sentence shown under the label);
 * - the root: `meta: { title, events: { [eventKey]: 'Autorizar' }, guards: { [guardName]: 'Quien actúa …' } }`.
 *
 * Event keys are the event types the machine reacts to, with two normalisations so one label serves every
 * state: a delayed event `xstate.after.<delay>.<stateId>` is keyed `xstate.after.<delay>`, and an eventless
 * transition is keyed `always`. Invoked actors' outcomes keep their type (`xstate.done.actor.<id>`,
 * `xstate.error.actor.<id>`). A guard sentence is one Spanish sentence saying what must hold.
 */

export const ALWAYS_EVENT_KEY = 'always';

interface RootMeta {
  events?: Record<string, string>;
  guards?: Record<string, string>;
}

function rootMeta(machine: AnyStateMachine): RootMeta {
  return (machine.root.meta ?? {}) as RootMeta;
}

/** The key an event type's label is stored under (see the module comment). */
export function eventKey(eventType: string): string {
  if (eventType === '') return ALWAYS_EVENT_KEY;
  const delayed = /^xstate\.after\.([^.]+)\./.exec(eventType);
  return delayed ? `xstate.after.${delayed[1]}` : eventType;
}

/** The Spanish label of a state node, or undefined when the machine does not give one. */
export function stateLabel(node: AnyStateNode): string | undefined {
  const label: unknown = node.meta?.label;
  return typeof label === 'string' && label !== '' ? label : undefined;
}

/** The Spanish label of an event type (raw xstate type or key), or undefined. */
export function eventLabel(machine: AnyStateMachine, eventType: string): string | undefined {
  const label = rootMeta(machine).events?.[eventKey(eventType)];
  return typeof label === 'string' && label !== '' ? label : undefined;
}

/** The Spanish sentence explaining a named guard, or undefined. */
export function guardSentence(machine: AnyStateMachine, guardName: string): string | undefined {
  const sentence = rootMeta(machine).guards?.[guardName];
  return typeof sentence === 'string' && sentence !== '' ? sentence : undefined;
}

function walk(node: AnyStateNode, visit: (node: AnyStateNode) => void): void {
  visit(node);
  for (const child of Object.values(node.states)) walk(child, visit);
}

/** A transition's guard as a tree: named guards combined with `and`/`or`/`not`. */
export type GuardTree =
  | { kind: 'named'; name: string }
  | { kind: 'and' | 'or'; parts: GuardTree[] }
  | { kind: 'not'; part: GuardTree }
  | { kind: 'in'; state: string }
  | { kind: 'inline' };

type Combinator = ((...args: unknown[]) => unknown) & {
  guards?: unknown;
  check?: unknown;
  stateValue?: unknown;
};

/** Reads xstate's guard values: a name, `{ type }`, or the functions `and`/`or`/`not`/`stateIn` return. */
export function guardTree(guard: unknown): GuardTree {
  if (typeof guard === 'string') return { kind: 'named', name: guard };
  if (typeof guard === 'function') {
    const fn = guard as Combinator;
    const parts = Array.isArray(fn.guards) ? (fn.guards as unknown[]).map(guardTree) : [];
    if (fn.check && fn.name === 'not') return { kind: 'not', part: parts[0] ?? { kind: 'inline' } };
    if (fn.check && (fn.name === 'and' || fn.name === 'or')) return { kind: fn.name, parts };
    if (fn.check && fn.name === 'stateIn') {
      const value = fn.stateValue;
      return { kind: 'in', state: typeof value === 'string' ? value : JSON.stringify(value) };
    }
    return { kind: 'inline' };
  }
  if (guard && typeof guard === 'object' && typeof (guard as { type?: unknown }).type === 'string') {
    return { kind: 'named', name: (guard as { type: string }).type };
  }
  return { kind: 'inline' };
}

/** Named guards used by a transition's guard, through `and`/`or`/`not`. */
export function guardNames(guard: unknown): string[] {
  const names = (node: GuardTree): string[] => {
    switch (node.kind) {
      case 'named':
        return [node.name];
      case 'and':
      case 'or':
        return node.parts.flatMap(names);
      case 'not':
        return names(node.part);
      default:
        return [];
    }
  };
  return guard ? names(guardTree(guard)) : [];
}

/** Every event key and named guard the machine's transitions use, in document order, without repeats. */
export function usedEventsAndGuards(machine: AnyStateMachine): { events: string[]; guards: string[] } {
  const events = new Set<string>();
  const guards = new Set<string>();
  walk(machine.root, (node) => {
    const all = [...[...node.transitions.values()].flat(), ...(node.always ?? [])];
    for (const transition of all) {
      events.add(eventKey(transition.eventType));
      for (const name of guardNames(transition.guard)) guards.add(name);
    }
  });
  return { events: [...events], guards: [...guards] };
}

/**
 * What the machine lacks for an auditor: one line per state without a label, event without a label and
 * guard without its sentence. Empty when the machine is fully described.
 */
export function missingTexts(machine: AnyStateMachine): string[] {
  const missing: string[] = [];
  walk(machine.root, (node) => {
    if (node !== machine.root && !stateLabel(node)) missing.push(`state ${node.id}: meta.label`);
  });
  const { events, guards } = usedEventsAndGuards(machine);
  for (const key of events) {
    if (!eventLabel(machine, key)) missing.push(`event ${key}: root meta.events['${key}']`);
  }
  for (const name of guards) {
    if (!guardSentence(machine, name)) missing.push(`guard ${name}: root meta.guards['${name}']`);
  }
  return missing;
}
