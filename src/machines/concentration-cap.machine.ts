import { and, assign, setup, transition } from 'xstate';
import type { OperatorRole } from '../domain/operator-roles';

// A concentration cap (issue 34, decision 0069): one operator proposes it, a different aprobador approves it
// (four eyes, like a programme's limit), and the approved cap replaces the one in force for its subject. The
// server resolves a stored row into this machine and asks it before every change
// (server/modules/exposure/concentration-caps.service.ts); the exposure screen asks it which buttons to offer.

/** A cap's status as stored and sent by the API. */
export type CapStatus = 'propuesto' | 'vigente' | 'rechazado' | 'reemplazado';

export const CAP_NODE_BY_STATUS = {
  propuesto: 'proposed',
  vigente: 'inForce',
  rechazado: 'rejected',
  reemplazado: 'superseded',
} as const satisfies Record<CapStatus, string>;

type CapNode = (typeof CAP_NODE_BY_STATUS)[CapStatus] | 'draft';

export interface CapActor {
  userId: number;
  roles: readonly OperatorRole[];
}

export interface ConcentrationCapContext {
  /** Who proposed the cap, null before it is proposed. */
  proposerId: number | null;
}

export type ConcentrationCapEvent =
  | { type: 'cap.propose'; actor: CapActor }
  | { type: 'cap.approve'; actor: CapActor }
  | { type: 'cap.reject'; actor: CapActor }
  /** A newer cap on the same subject was approved. */
  | { type: 'cap.supersede' };

const holds = (actor: CapActor, role: OperatorRole) => actor.roles.includes(role);

export const concentrationCapMachine = setup({
  types: {
    context: {} as ConcentrationCapContext,
    events: {} as ConcentrationCapEvent,
    input: {} as Partial<ConcentrationCapContext> | undefined,
  },
  actions: {
    recordProposer: assign({
      proposerId: ({ event }) => ('actor' in event ? event.actor.userId : null),
    }),
  },
  guards: {
    canPropose: ({ event }) =>
      'actor' in event && (holds(event.actor, 'analista') || holds(event.actor, 'aprobador')),
    isAprobador: ({ event }) => 'actor' in event && holds(event.actor, 'aprobador'),
    isNotProposer: ({ context, event }) => 'actor' in event && event.actor.userId !== context.proposerId,
  },
}).createMachine({
  id: 'concentration-cap',
  meta: {
    title: 'Tope de concentración',
    events: {
      'cap.propose': '«Proponer tope»',
      'cap.approve': '«Aprobar»',
      'cap.reject': '«Rechazar»',
      'cap.supersede': 'Se aprueba otro tope para el mismo comprador, grupo o proveedor',
    },
    guards: {
      canPropose: 'Quien propone es un operador Analista o Aprobador.',
      isAprobador: 'Quien actúa es un operador Aprobador.',
      isNotProposer: 'Quien aprueba es un operador distinto de quien propuso el tope.',
    },
  },
  description:
    'Un tope limita cuánto mantiene Flujo con un comprador, un grupo económico o un proveedor: un monto en MXN ' +
    'o un porcentaje de la exposición total. Lo propone un Analista o Aprobador y entra en vigor solo cuando lo ' +
    'aprueba un Aprobador distinto; el tope aprobado reemplaza al que estaba vigente para el mismo sujeto. Cada ' +
    '«Adelantar pago» y la mesa de control lo verifican.',
  context: ({ input }) => ({ proposerId: input?.proposerId ?? null }),
  initial: 'draft',
  states: {
    draft: {
      meta: { label: 'Sin proponer' },
      description: 'El tope aún no se ha propuesto.',
      on: { 'cap.propose': { target: 'proposed', guard: 'canPropose', actions: 'recordProposer' } },
    },
    proposed: {
      meta: { label: 'Propuesto' },
      description: 'Espera a un Aprobador distinto de quien lo propuso; aún no limita ningún adelanto.',
      on: {
        'cap.approve': { target: 'inForce', guard: and(['isAprobador', 'isNotProposer']) },
        'cap.reject': { target: 'rejected', guard: 'isAprobador' },
      },
    },
    inForce: {
      meta: { label: 'Vigente' },
      description: 'Limita cada adelanto nuevo y cada aprobación en la mesa de control.',
      on: { 'cap.supersede': { target: 'superseded' } },
    },
    rejected: {
      meta: { label: 'Rechazado' },
      description: 'Un Aprobador lo rechazó; nunca limitó nada.',
      type: 'final',
    },
    superseded: {
      meta: { label: 'Reemplazado' },
      description: 'Otro tope aprobado para el mismo sujeto tomó su lugar.',
      type: 'final',
    },
  },
});

/** What an operator reads for each status: its node's meta.label (one home for the words). */
export const CAP_STATUS_LABELS = Object.fromEntries(
  Object.entries(CAP_NODE_BY_STATUS).map(([status, node]) => [
    status,
    String(concentrationCapMachine.getStateNodeById(`concentration-cap.${node}`).meta?.label),
  ]),
) as Readonly<Record<CapStatus, string>>;

const STATUS_BY_NODE = Object.fromEntries(
  Object.entries(CAP_NODE_BY_STATUS).map(([status, node]) => [node, status]),
) as Record<Exclude<CapNode, 'draft'>, CapStatus>;

function resolveCap(status: CapStatus | null, proposerId: number | null) {
  return concentrationCapMachine.resolveState({
    value: status === null ? 'draft' : CAP_NODE_BY_STATUS[status],
    context: { proposerId },
  });
}

/** The status a stored cap (null: not yet proposed) moves to, or null when the machine refuses the event. */
export function nextCapStatus(
  cap: { status: CapStatus | null; proposerId: number | null },
  event: ConcentrationCapEvent,
): CapStatus | null {
  const snapshot = resolveCap(cap.status, cap.proposerId);
  if (!snapshot.can(event)) return null;
  const [next] = transition(concentrationCapMachine, snapshot, event);
  return STATUS_BY_NODE[next.value as Exclude<CapNode, 'draft'>] ?? null;
}

/** Whether the machine accepts the event for this stored cap now (the screen's buttons). */
export function capAccepts(
  cap: { status: CapStatus | null; proposerId: number | null },
  event: ConcentrationCapEvent,
): boolean {
  return resolveCap(cap.status, cap.proposerId).can(event);
}
