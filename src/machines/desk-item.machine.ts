import { setup, transition } from 'xstate';
import type { DeskState } from '../domain/control-desk';

/**
 * One advance at the control desk (decision 0054): queued → approved | rejected → in a SPEI batch → paid |
 * returned by the bank (back on the desk). Pure, like the invoice lifecycle: the server resolves an item's
 * stored state and asks `can()`/`transition()` inside the transaction that locks it; the desk screen asks
 * the same machine which buttons to show. Nothing here performs I/O.
 */

export type DeskItemStateName = 'queued' | 'approved' | 'rejected' | 'inBatch' | 'paid' | 'returned';

export type DeskItemEvent =
  /** An aprobador approves; the checks that failed at that moment travel with the event. */
  | { type: 'desk.approve'; failingChecks: number; force?: boolean }
  | { type: 'desk.reject'; reason: string }
  /** Tesorería puts the approved advance in a SPEI batch. */
  | { type: 'desk.batch' }
  /** The bank's result file: liquidada. */
  | { type: 'bank.settle' }
  /** The bank's result file: devuelta, with its reason. */
  | { type: 'bank.return'; reason: string }
  /** The provider asked for the advance again after a rejection: the item is queued once more. */
  | { type: 'desk.requeue' };

export type DeskItemEventType = DeskItemEvent['type'];

export const deskItemMachine = setup({
  types: {
    events: {} as DeskItemEvent,
  },
  guards: {
    checksPass: ({ event }) => event.type === 'desk.approve' && event.failingChecks === 0,
    forcedByAutomation: ({ event }) => event.type === 'desk.approve' && event.force === true,
    hasReason: ({ event }) =>
      (event.type === 'desk.reject' || event.type === 'bank.return') && event.reason.trim() !== '',
  },
}).createMachine({
  id: 'deskItem',
  meta: {
    title: 'Mesa de control de un adelanto',
    events: {
      'desk.approve': '«Aprobar» (aprobador)',
      'desk.reject': '«Rechazar» con motivo (aprobador)',
      'desk.batch': '«Crear lote» SPEI (tesorería)',
      'bank.settle': 'El banco reporta la orden liquidada',
      'bank.return': 'El banco reporta la orden devuelta, con su motivo',
      'desk.requeue': 'El proveedor vuelve a solicitar el adelanto',
    },
    guards: {
      checksPass: 'Todas las verificaciones del adelanto pasan.',
      forcedByAutomation:
        'La automatización (`ops disburse --force`) aprueba registrando las verificaciones que fallan.',
      hasReason: 'Se indica un motivo.',
    },
  },
  description:
    'Cada adelanto En trámite entra a la mesa de control con sus verificaciones (vinculación SAT, CFDI vigente, ' +
    'alianza, programa de crédito, CLABE, folio fiscal único y límites de la alianza). Un aprobador lo aprueba ' +
    'cuando todas pasan, o lo rechaza con un motivo (la factura vuelve a Autorizada). Tesorería agrupa los ' +
    'aprobados en un lote SPEI; el archivo de resultados del banco lo marca liquidado (Pagada) o devuelto, y un ' +
    'devuelto regresa a la mesa con el motivo del banco.',
  initial: 'queued',
  states: {
    queued: {
      meta: { label: 'En la mesa' },
      on: {
        'desk.approve': [
          { target: 'approved', guard: 'checksPass' },
          { target: 'approved', guard: 'forcedByAutomation' },
        ],
        'desk.reject': { target: 'rejected', guard: 'hasReason' },
      },
    },
    approved: {
      meta: { label: 'Aprobado' },
      on: { 'desk.batch': { target: 'inBatch' } },
    },
    rejected: {
      meta: { label: 'Rechazado' },
      on: { 'desk.requeue': { target: 'queued' } },
    },
    inBatch: {
      meta: { label: 'En lote SPEI' },
      on: {
        'bank.settle': { target: 'paid' },
        'bank.return': { target: 'returned', guard: 'hasReason' },
      },
    },
    // Back on the desk with the bank's reason: approved again (a new order) or rejected.
    returned: {
      meta: { label: 'Devuelto por el banco' },
      on: {
        'desk.approve': [
          { target: 'approved', guard: 'checksPass' },
          { target: 'approved', guard: 'forcedByAutomation' },
        ],
        'desk.reject': { target: 'rejected', guard: 'hasReason' },
      },
    },
    paid: { type: 'final', meta: { label: 'Pagado' } },
  },
});

/** The desk states as the API names them (snake case), keyed by machine state. */
export const DESK_STATE_BY_NODE = {
  queued: 'queued',
  approved: 'approved',
  rejected: 'rejected',
  inBatch: 'in_batch',
  paid: 'paid',
  returned: 'returned',
} as const satisfies Record<DeskItemStateName, DeskState>;

export const DESK_NODE_BY_STATE = Object.fromEntries(
  Object.entries(DESK_STATE_BY_NODE).map(([node, state]) => [state, node]),
) as Record<DeskState, DeskItemStateName>;

/** Spanish labels of the desk states, for filters and tags: the machine's own state labels. */
export const DESK_STATE_LABELS = Object.fromEntries(
  Object.entries(DESK_STATE_BY_NODE).map(([node, state]) => [
    state,
    String(deskItemMachine.states[node as DeskItemStateName]?.meta?.label),
  ]),
) as Readonly<Record<DeskState, string>>;

/** The machine's snapshot for a stored desk state. */
export function resolveDeskSnapshot(state: DeskState) {
  return deskItemMachine.resolveState({ value: DESK_NODE_BY_STATE[state], context: {} });
}

/** The desk state after the event, or the Spanish refusal when the machine does not take it. */
export function deskTransition(
  state: DeskState,
  event: DeskItemEvent,
): { ok: true; state: DeskState } | { ok: false; message: string } {
  const snapshot = resolveDeskSnapshot(state);
  if (!snapshot.can(event)) return { ok: false, message: deskRefusal(event.type, state) };
  const [next] = transition(deskItemMachine, snapshot, event);
  return { ok: true, state: DESK_STATE_BY_NODE[String(next.value) as DeskItemStateName] };
}

/** The Spanish refusal of an event the machine does not take in a state. */
export function deskRefusal(type: DeskItemEventType, state: DeskState): string {
  const label = DESK_STATE_LABELS[state];
  switch (type) {
    case 'desk.approve':
      return state === 'queued' || state === 'returned'
        ? 'No se puede aprobar: hay verificaciones que no pasan.'
        : `No se puede aprobar: el adelanto está «${label}».`;
    case 'desk.reject':
      return state === 'queued' || state === 'returned'
        ? 'Indica el motivo del rechazo.'
        : `No se puede rechazar: el adelanto está «${label}».`;
    case 'desk.batch':
      return `Solo los adelantos aprobados entran a un lote; este está «${label}».`;
    case 'bank.settle':
    case 'bank.return':
      return `La orden no está en un lote pendiente; el adelanto está «${label}».`;
    case 'desk.requeue':
      return `El adelanto no está rechazado; está «${label}».`;
  }
}
