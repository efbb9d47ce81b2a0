/**
 * What `npm run diagrams` publishes about one machine next to its SVG (docs/diagrams/<id>.json): the Spanish
 * and technical names of its states and transitions and the guard list, so /diagramas/ and 'Ver en el
 * diagrama' can write the text alternative, the guard list and the path of an invoice without re-reading the
 * machine. Element ids in the SVG: state `state:<stateId>`, transition `t:<transitionKey>:<targetIndex>`,
 * initial arrow `init:<stateId>` (the state it enters).
 */

export interface DetailState {
  /** Full state id, e.g. `invoiceLifecycle.available`. */
  id: string;
  /** The technical name shown beside the label (the state's key). */
  key: string;
  /** Spanish label; the key when the machine gives none. */
  label: string;
  type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
  /** Id of the enclosing state; absent for the root's children. */
  parent?: string;
  description?: string;
  /** Whether an initial arrow enters it. */
  initial: boolean;
}

export interface DetailGuard {
  /** `G1`, `G2`, … in order of first use; the mark drawn on the edge. */
  mark: string;
  /** The technical expression, e.g. `(isReceiverWithSatLink && paymentDateWithin150Days)`. */
  expression: string;
  /** One Spanish sentence saying what must hold. */
  sentence: string;
}

export interface DetailTransition {
  /** Transition key, shared with the coverage measurement (test/model/harness/inventory.ts). */
  key: string;
  source: string;
  /** Target state ids; empty for a targetless transition. */
  targets: string[];
  /** The event type xstate reacts to (`always` for eventless transitions). */
  event: string;
  /** The event as the diagram spells it technically (`after 3000ms`, `scoreRequest.done`, …). */
  technical: string;
  /** Spanish label; the technical name when the machine gives none. */
  label: string;
  /** Mark of the guard in `guards`, when guarded. */
  guard?: string;
  actions: string[];
}

export interface MachineDetails {
  id: string;
  /** The xstate machine id, the prefix of every state id. */
  machineId: string;
  title: string;
  description: string;
  states: DetailState[];
  transitions: DetailTransition[];
  guards: DetailGuard[];
}

/** Per machine in docs/diagrams/index.json: what the model-based tests exercise. */
export interface DiagramCoverage {
  states: string;
  transitions: string;
  waived: number;
  paths: number;
  /** Transition keys taken by a passing generated path. */
  covered: string[];
  /** Transition keys left out on purpose, with a reason in the model. */
  waivedKeys: string[];
  /** Leaf state ids visited. */
  visitedStates: string[];
}

export interface DiagramIndexEntry {
  id: string;
  title: string;
  description: string;
  /** Leaf (atomic and final) states, the denominator of state coverage. */
  states: number;
  transitions: number;
  coverage: DiagramCoverage | null;
}

/** The SVG element id of a transition's edge to its `targetIndex`-th target. */
export const edgeElementId = (key: string, targetIndex = 0): string => `t:${key}:${targetIndex}`;
/** The SVG element id of the initial arrow into a state. */
export const initialElementId = (stateId: string): string => `init:${stateId}`;
/** The SVG element id of a state. */
export const stateElementId = (stateId: string): string => `state:${stateId}`;
