import {
  type DetailState,
  type DetailTransition,
  edgeElementId,
  initialElementId,
  type MachineDetails,
} from '../../machines/diagram-details';

/** One row of an invoice's audit trail, as far as the diagram needs it. */
export interface TrailItem {
  event: string;
  from_status: number | null;
  to_status: number;
  actor: string;
  at: string;
}

export interface PathStep<T extends TrailItem = TrailItem> {
  /** 1-based, in trail order. */
  n: number;
  item: T;
  /**
   * `initial`: the invoice came into being in the machine's initial state (its import); `transition`: a
   * transition of the machine; `unmatched`: no transition of the machine explains this row.
   */
  kind: 'initial' | 'transition' | 'unmatched';
  /** The SVG element to highlight (absent when unmatched). */
  elementId?: string;
  transitionKey?: string;
  /** The step's Spanish words: the event's label, or the raw event name when no transition matched. */
  label: string;
  from?: DetailState;
  to?: DetailState;
  /** Other transitions the row fits equally (same event, source and target), by key. */
  alternatives: string[];
  /** Why an unmatched row fits no transition. */
  problem?: string;
}

export const INITIAL_STEP_LABEL = 'Alta en el estado inicial';

/**
 * Maps an audit trail onto a machine's transitions, one step per row, none dropped. `stateOfStatus` names
 * the machine state of a stored status (the lifecycle's STATE_BY_STATUS).
 *
 * A row matches the transitions that leave its `from` state on its event and enter its `to` state. When
 * several do (the lifecycle's authorizations have a variant where the buyer funds the advance, distinguished
 * only by the event's payload, which the trail does not keep), the LAST in document order is drawn: xstate
 * tries them in order and the last is the general case, whose guard the earlier ones only narrow; the others
 * are listed as alternatives so the reader sees the ambiguity (decision 0045).
 */
export function mapTrail<T extends TrailItem>(
  items: readonly T[],
  details: MachineDetails,
  stateOfStatus: (status: number) => string | undefined,
): PathStep<T>[] {
  const byId = new Map(details.states.map((state) => [state.id, state]));
  const stateOf = (status: number): DetailState | undefined => {
    const name = stateOfStatus(status);
    return name === undefined ? undefined : byId.get(`${details.machineId}.${name}`);
  };
  return items.map((item, i): PathStep<T> => {
    const n = i + 1;
    const to = stateOf(item.to_status);
    const unmatched = (problem: string, from?: DetailState): PathStep<T> => ({
      n,
      item,
      kind: 'unmatched',
      label: item.event,
      from,
      to,
      alternatives: [],
      problem,
    });
    if (!to) return unmatched(`El estado ${item.to_status} no existe en el diagrama.`);
    if (item.from_status === null) {
      if (to.initial && to.parent === undefined) {
        return {
          n,
          item,
          kind: 'initial',
          elementId: initialElementId(to.id),
          label: INITIAL_STEP_LABEL,
          to,
          alternatives: [],
        };
      }
      return unmatched(`La factura apareció en «${to.label}», que no es el estado inicial.`);
    }
    const from = stateOf(item.from_status);
    if (!from) return unmatched(`El estado ${item.from_status} no existe en el diagrama.`);
    const candidates: DetailTransition[] = details.transitions.filter(
      (transition) =>
        transition.source === from.id &&
        transition.event === item.event &&
        transition.targets.includes(to.id),
    );
    const chosen = candidates.at(-1);
    if (!chosen) {
      return unmatched(
        `Ninguna transición lleva de «${from.label}» a «${to.label}» con el evento ${item.event}.`,
        from,
      );
    }
    return {
      n,
      item,
      kind: 'transition',
      elementId: edgeElementId(chosen.key, chosen.targets.indexOf(to.id)),
      transitionKey: chosen.key,
      label: chosen.label,
      from,
      to,
      alternatives: candidates.slice(0, -1).map((transition) => transition.key),
    };
  });
}

/** Step numbers per highlighted element, for the numbered marks on the diagram. */
export function stepsByElement(steps: readonly PathStep[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const step of steps) {
    if (step.elementId) out.set(step.elementId, [...(out.get(step.elementId) ?? []), step.n]);
  }
  return out;
}
