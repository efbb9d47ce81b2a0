import { setup, transition } from 'xstate';
import { UNIDENTIFIED_APPROVAL_THRESHOLD } from '../domain/bank-statement';
import { formatMxn } from '../domain/money';

/**
 * A payment from the bank's statement that named no batch and no buyer (decision 0067): it waits in the queue
 * until an operator assigns it to an invoice. Up to the threshold one operator assigns it (aplicada); above it
 * one operator proposes (propuesta) and a DIFFERENT aprobador approves (aplicada) or rejects it (back to
 * pendiente). A payment that is not ours is returned to its sender (devuelta). Pure: the server resolves the
 * stored state and asks `can()`/`transition()` in the transaction that locks the row; the cobranza screen asks
 * the same machine which buttons to show.
 */

export const UNIDENTIFIED_STATES = ['pendiente', 'propuesta', 'aplicada', 'devuelta'] as const;
export type UnidentifiedState = (typeof UNIDENTIFIED_STATES)[number];

export type UnidentifiedEvent =
  /** Assign to an invoice: applied at once when the amount is within the threshold, else proposed. */
  | { type: 'payment.assign'; amount: number }
  /** An aprobador approves the proposal; byProposer when it is the operator who proposed it. */
  | { type: 'payment.approve'; byProposer: boolean }
  /** An aprobador rejects the proposal, with a reason: the payment waits again. */
  | { type: 'payment.reject'; reason: string }
  /** The payment is not for Flujo: returned to its sender, with a reason. */
  | { type: 'payment.return'; reason: string };

export type UnidentifiedEventType = UnidentifiedEvent['type'];

export const unidentifiedPaymentMachine = setup({
  types: { events: {} as UnidentifiedEvent },
  guards: {
    withinThreshold: ({ event }) =>
      event.type === 'payment.assign' && event.amount <= UNIDENTIFIED_APPROVAL_THRESHOLD,
    aboveThreshold: ({ event }) =>
      event.type === 'payment.assign' && event.amount > UNIDENTIFIED_APPROVAL_THRESHOLD,
    anotherOperator: ({ event }) => event.type === 'payment.approve' && !event.byProposer,
    hasReason: ({ event }) =>
      (event.type === 'payment.reject' || event.type === 'payment.return') && event.reason.trim() !== '',
  },
}).createMachine({
  id: 'unidentifiedPayment',
  meta: {
    title: 'Pago no identificado',
    events: {
      'payment.assign': '«Asignar» a una factura (tesorería o aprobador)',
      'payment.approve': '«Aprobar» la asignación propuesta (otro aprobador)',
      'payment.reject': '«Rechazar» la asignación propuesta, con motivo (aprobador)',
      'payment.return': '«Devolver» al ordenante, con motivo',
    },
    guards: {
      withinThreshold: `El monto no excede ${formatMxn(UNIDENTIFIED_APPROVAL_THRESHOLD)}: una persona lo aplica.`,
      aboveThreshold: `El monto excede ${formatMxn(UNIDENTIFIED_APPROVAL_THRESHOLD)}: se propone y otra persona lo aprueba.`,
      anotherOperator: 'Quien aprueba no es quien propuso.',
      hasReason: 'Se indica un motivo.',
    },
  },
  description:
    'Un pago del estado de cuenta del banco que no nombra un lote de vencimientos ni a un corporativo con una ' +
    'factura por ese monto espera en la cola de cobranza. Un operador lo asigna a una factura: hasta el umbral se ' +
    'aplica de inmediato; arriba del umbral queda propuesto y otro aprobador lo aprueba o lo rechaza.',
  initial: 'pendiente',
  states: {
    pendiente: {
      meta: { label: 'Pendiente' },
      on: {
        'payment.assign': [
          { target: 'aplicada', guard: 'withinThreshold' },
          { target: 'propuesta', guard: 'aboveThreshold' },
        ],
        'payment.return': { target: 'devuelta', guard: 'hasReason' },
      },
    },
    propuesta: {
      meta: { label: 'Propuesta' },
      on: {
        'payment.approve': { target: 'aplicada', guard: 'anotherOperator' },
        'payment.reject': { target: 'pendiente', guard: 'hasReason' },
      },
    },
    aplicada: { type: 'final', meta: { label: 'Aplicada' } },
    devuelta: { type: 'final', meta: { label: 'Devuelta' } },
  },
});

export const UNIDENTIFIED_STATE_LABELS = Object.fromEntries(
  UNIDENTIFIED_STATES.map((state) => [state, String(unidentifiedPaymentMachine.states[state]?.meta?.label)]),
) as Readonly<Record<UnidentifiedState, string>>;

export function resolveUnidentifiedSnapshot(state: UnidentifiedState) {
  return unidentifiedPaymentMachine.resolveState({ value: state, context: {} });
}

/** The state after the event, or the Spanish refusal when the machine does not take it. */
export function unidentifiedTransition(
  state: UnidentifiedState,
  event: UnidentifiedEvent,
): { ok: true; state: UnidentifiedState } | { ok: false; message: string } {
  const snapshot = resolveUnidentifiedSnapshot(state);
  if (!snapshot.can(event)) return { ok: false, message: unidentifiedRefusal(event.type, state) };
  const [next] = transition(unidentifiedPaymentMachine, snapshot, event);
  return { ok: true, state: String(next.value) as UnidentifiedState };
}

export const UNIDENTIFIED_REFUSALS = {
  sameOperator: 'Quien propuso la asignación no puede aprobarla: debe aprobarla otro aprobador.',
  reason: 'Indica el motivo.',
} as const;

/** The Spanish refusal of an event the machine does not take in a state. */
export function unidentifiedRefusal(type: UnidentifiedEventType, state: UnidentifiedState): string {
  const label = UNIDENTIFIED_STATE_LABELS[state];
  switch (type) {
    case 'payment.assign':
      return `Solo un pago pendiente se asigna; este está «${label}».`;
    case 'payment.approve':
      return state === 'propuesta'
        ? UNIDENTIFIED_REFUSALS.sameOperator
        : `Solo una asignación propuesta se aprueba; este pago está «${label}».`;
    case 'payment.reject':
      return state === 'propuesta'
        ? UNIDENTIFIED_REFUSALS.reason
        : `Solo una asignación propuesta se rechaza; este pago está «${label}».`;
    case 'payment.return':
      return state === 'pendiente'
        ? UNIDENTIFIED_REFUSALS.reason
        : `Solo un pago pendiente se devuelve; este está «${label}».`;
  }
}
