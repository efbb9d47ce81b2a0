import { and, assign, not, setup, transition } from 'xstate';
import type { IsoDate } from '../domain/calendar-date';
import type { DELINQUENCY_REASON } from '../domain/delinquency';
import type { OperatorRole } from '../domain/operator-roles';
import { isPastEnd, type StoredProgrammeState } from '../domain/programme-lending';

// 'pendiente' is a stored borrador (or vencido) with a pending proposal.
export type { StoredProgrammeState };

/** A programme's state as stored and sent by the API (the Spanish values; labels are each node's meta.label). */
export type CreditProgrammeStateName = 'borrador' | 'pendiente' | 'activo' | 'congelado' | 'vencido';

/** The machine's state node for each stored or sent value (identifiers in English, as the glossary lists). */
export const PROGRAMME_NODE_BY_STATE = {
  borrador: 'draft',
  pendiente: 'pending',
  activo: 'active',
  congelado: 'frozen',
  vencido: 'expired',
} as const satisfies Record<CreditProgrammeStateName, string>;

type ProgrammeNode = (typeof PROGRAMME_NODE_BY_STATE)[CreditProgrammeStateName];

// 'delinquent' (congelado por morosidad) is stored as congelado with frozen_for 'morosidad' (migration 024).
const STATE_BY_NODE = {
  ...Object.fromEntries(Object.entries(PROGRAMME_NODE_BY_STATE).map(([state, node]) => [node, state])),
  delinquent: 'congelado',
} as Record<ProgrammeNode | 'delinquent', CreditProgrammeStateName>;

/** Who sends an event: an operator with its roles. */
export interface ProgrammeActor {
  userId: number;
  roles: readonly OperatorRole[];
}

export interface CreditProgrammeContext {
  /** The operator who proposed the pending limit, null when none is pending. */
  proposerId: number | null;
  endsOn: IsoDate | null;
}

export type CreditProgrammeEvent =
  /** A new limit or a raise (with its dates). */
  | { type: 'programme.propose'; actor: ProgrammeActor }
  | { type: 'programme.approve'; actor: ProgrammeActor }
  | { type: 'programme.freeze'; actor: ProgrammeActor; reason: string }
  /**
   * `overdueCollected`: the buyer owes nothing past its due date (the server reads it from the collections);
   * only then is a freeze for 'morosidad' lifted.
   */
  | { type: 'programme.unfreeze'; actor: ProgrammeActor; reason: string; overdueCollected?: boolean }
  /**
   * The day's collections run (system): an advanced invoice of the buyer is still owing after its due date
   * plus the programme's grace days (src/domain/maturities.ts freezesOn).
   */
  | { type: 'programme.delinquent'; reason: typeof DELINQUENCY_REASON }
  /** The business date moved past ends_on (derived when the programme is read or reserved against). */
  | { type: 'programme.expire'; today: IsoDate };

export type CreditProgrammeEventType = CreditProgrammeEvent['type'];

function holds(actor: ProgrammeActor, role: OperatorRole): boolean {
  return actor.roles.includes(role);
}

/**
 * A corporate's credit programme (issue 19, decision 0052): a limit proposed by one operator takes effect only
 * when a different aprobador approves it; an active programme may be frozen and unfrozen with a reason and
 * expires when the business date passes its end. The server resolves a stored row into this machine and asks it
 * before every change (server/modules/credit-programmes/credit-programmes.service.ts); the screen asks it which
 * buttons to offer.
 */
export const creditProgrammeMachine = setup({
  types: {
    context: {} as CreditProgrammeContext,
    events: {} as CreditProgrammeEvent,
    input: {} as Partial<CreditProgrammeContext> | undefined,
  },
  actions: {
    // The proposer is kept so the approval can be refused to them; an approval clears it.
    recordProposer: assign({
      proposerId: ({ event }) => ('actor' in event ? event.actor.userId : null),
    }),
    clearProposer: assign({ proposerId: null }),
  },
  guards: {
    canPropose: ({ event }) =>
      'actor' in event && (holds(event.actor, 'analista') || holds(event.actor, 'aprobador')),
    isAprobador: ({ event }) => 'actor' in event && holds(event.actor, 'aprobador'),
    isNotProposer: ({ context, event }) => 'actor' in event && event.actor.userId !== context.proposerId,
    hasPendingProposal: ({ context }) => context.proposerId !== null,
    hasReason: ({ event }) => 'reason' in event && event.reason.trim() !== '',
    isOverdueCollected: ({ event }) => event.type === 'programme.unfreeze' && event.overdueCollected === true,
    // The one expiry rule, the same the ledger and the desk read (src/domain/programme-lending.ts).
    isPastEnd: ({ context, event }) =>
      event.type === 'programme.expire' && isPastEnd(context.endsOn, event.today),
  },
}).createMachine({
  id: 'credit-programme',
  meta: {
    title: 'Programa de crédito del corporativo',
    events: {
      'programme.propose': '«Proponer límite»',
      'programme.approve': '«Aprobar»',
      'programme.freeze': '«Congelar»',
      'programme.unfreeze': '«Descongelar»',
      'programme.expire': 'La fecha de operación pasa la fecha de fin del programa',
      'programme.delinquent':
        'La cobranza del día encuentra una factura adelantada sin cobrar pasado su vencimiento y los días de gracia',
    },
    guards: {
      canPropose: 'Quien propone es un operador Analista o Aprobador.',
      isAprobador: 'Quien actúa es un operador Aprobador.',
      isNotProposer: 'Quien aprueba es un operador distinto de quien propuso el límite.',
      hasPendingProposal: 'Hay una propuesta de límite pendiente de aprobar.',
      hasReason: 'Se escribió el motivo.',
      isOverdueCollected: 'Las facturas vencidas del comprador están cobradas por completo.',
      isPastEnd: 'La fecha de hoy (Ciudad de México) es posterior a la fecha de fin del programa.',
    },
  },
  description:
    'Cada corporativo tiene un programa de crédito con límite en MXN, fecha de inicio y de fin. Un operador ' +
    'Analista o Aprobador propone el límite (o un aumento) y solo entra en vigor cuando lo aprueba un Aprobador ' +
    'distinto de quien lo propuso. Un programa activo reserva el monto de cada adelanto, lo usa al dispersarse y ' +
    'lo libera al registrarse el pago del corporativo. Un Aprobador puede congelarlo y descongelarlo con un ' +
    'motivo; al pasar la fecha de fin queda vencido y no acepta adelantos hasta que se apruebe una renovación. ' +
    'Si una factura adelantada sigue sin cobrar pasado su vencimiento y los días de gracia, la cobranza del día ' +
    'lo congela por morosidad; solo un Aprobador lo descongela, y solo cuando lo vencido esté cobrado.',
  context: ({ input }) => ({ proposerId: input?.proposerId ?? null, endsOn: input?.endsOn ?? null }),
  initial: 'draft',
  states: {
    draft: {
      meta: { label: 'Borrador' },
      description: 'El programa existe sin límite aprobado ni propuesta pendiente.',
      on: { 'programme.propose': { target: 'pending', guard: 'canPropose', actions: 'recordProposer' } },
    },
    pending: {
      meta: { label: 'Pendiente de aprobación' },
      description: 'Hay un límite propuesto que espera a un Aprobador distinto de quien lo propuso.',
      on: {
        'programme.approve': {
          target: 'inForce.active',
          guard: and(['isAprobador', 'isNotProposer', 'hasPendingProposal']),
          actions: 'clearProposer',
        },
      },
    },
    // Active and frozen share what an operator may do to a programme in force; only lending differs.
    inForce: {
      meta: { label: 'Vigente' },
      description: 'Tiene un límite aprobado y no ha pasado su fecha de fin.',
      initial: 'active',
      on: {
        // A raise: the programme keeps its current limit until the raise is approved.
        // One pending proposal at a time: a second would race the first's approval.
        'programme.propose': {
          guard: and(['canPropose', not('hasPendingProposal')]),
          actions: 'recordProposer',
        },
        'programme.approve': {
          guard: and(['isAprobador', 'isNotProposer', 'hasPendingProposal']),
          actions: 'clearProposer',
        },
        // An expired programme with a raise still pending waits for it as a renewal.
        'programme.expire': [
          { target: 'pending', guard: and(['isPastEnd', 'hasPendingProposal']) },
          { target: 'expired', guard: 'isPastEnd' },
        ],
      },
      states: {
        active: {
          meta: { label: 'Activo' },
          description:
            'Acepta adelantos mientras haya disponible; un aumento propuesto espera su aprobación.',
          on: {
            'programme.freeze': { target: 'frozen', guard: and(['isAprobador', 'hasReason']) },
            'programme.delinquent': { target: 'delinquent' },
          },
        },
        frozen: {
          meta: { label: 'Congelado' },
          description: 'No acepta adelantos nuevos; lo ya reservado o usado sigue su curso.',
          on: {
            'programme.unfreeze': { target: 'active', guard: and(['isAprobador', 'hasReason']) },
            // A manual freeze that meets a late invoice becomes one for morosidad: its unfreeze asks for more.
            'programme.delinquent': { target: 'delinquent' },
          },
        },
        delinquent: {
          meta: { label: 'Congelado por morosidad' },
          description:
            'Una factura adelantada sigue sin cobrar pasado su vencimiento y los días de gracia: no acepta ' +
            'adelantos nuevos y la mesa retiene los que están en trámite. Nunca se descongela solo.',
          on: {
            'programme.unfreeze': {
              target: 'active',
              guard: and(['isAprobador', 'hasReason', 'isOverdueCollected']),
            },
          },
        },
      },
    },
    expired: {
      meta: { label: 'Vencido' },
      description:
        'Pasó su fecha de fin: no acepta adelantos hasta que se apruebe una renovación con fechas nuevas.',
      on: { 'programme.propose': { target: 'pending', guard: 'canPropose', actions: 'recordProposer' } },
    },
  },
});

/** What an operator reads for each state: its node's meta.label (one home for the words). */
export const PROGRAMME_STATE_LABELS = Object.fromEntries(
  Object.entries(PROGRAMME_NODE_BY_STATE).map(([state, node]) => {
    const path = node === 'active' || node === 'frozen' ? `inForce.${node}` : node;
    return [state, String(creditProgrammeMachine.getStateNodeById(`credit-programme.${path}`).meta?.label)];
  }),
) as Readonly<Record<CreditProgrammeStateName, string>>;

/** 'Congelado por morosidad': the delinquent node's label. */
export const DELINQUENT_LABEL = String(
  creditProgrammeMachine.getStateNodeById('credit-programme.inForce.delinquent').meta?.label,
);

/** A stored programme as the machine reads it. */
export interface StoredProgramme {
  state: StoredProgrammeState;
  /** The pending proposal's proposer, null when none is pending. */
  proposerId: number | null;
  endsOn: IsoDate | null;
  /** 'morosidad' when a congelado programme was frozen for late payment (migration 024); null or absent else. */
  frozenFor?: typeof DELINQUENCY_REASON | null;
}

/**
 * The machine's state for a stored programme: a borrador or vencido programme with a pending proposal is
 * 'pendiente'. Example: programmeStateName({ state: 'borrador', proposerId: 7, endsOn: null }) === 'pendiente'.
 */
export function programmeStateName(programme: StoredProgramme): CreditProgrammeStateName {
  if (programme.proposerId !== null && (programme.state === 'borrador' || programme.state === 'vencido'))
    return 'pendiente';
  return programme.state;
}

/**
 * The machine's state value for a state name: active and frozen are held in 'inForce', and a frozen one whose
 * freeze was for morosidad is 'delinquent'.
 */
function programmeStateValue(
  name: CreditProgrammeStateName,
  frozenFor: StoredProgramme['frozenFor'] = null,
): string | Record<string, string> {
  const node = PROGRAMME_NODE_BY_STATE[name];
  if (node === 'frozen' && frozenFor === 'morosidad') return { inForce: 'delinquent' };
  return node === 'active' || node === 'frozen' ? { inForce: node } : node;
}

/** Whether a snapshot's value is 'congelado por morosidad' (stored as congelado with frozen_for). */
export function isDelinquentValue(value: unknown): boolean {
  return (
    typeof value === 'object' && value !== null && (value as { inForce?: string }).inForce === 'delinquent'
  );
}

/** The state name of a machine snapshot's value (its leaf: 'activo' for { inForce: 'active' }). */
export function programmeStateOf(value: unknown): CreditProgrammeStateName {
  const node = typeof value === 'string' ? value : (value as { inForce: string }).inForce;
  return STATE_BY_NODE[node as ProgrammeNode | 'delinquent'];
}

function resolveProgramme(programme: StoredProgramme) {
  return creditProgrammeMachine.resolveState({
    value: programmeStateValue(programmeStateName(programme), programme.frozenFor),
    context: { proposerId: programme.proposerId, endsOn: programme.endsOn },
  });
}

/** The state a stored programme stores after the event, or null when the machine refuses it. */
export function nextProgrammeState(
  programme: StoredProgramme,
  event: CreditProgrammeEvent,
): CreditProgrammeStateName | null {
  const snapshot = resolveProgramme(programme);
  if (!snapshot.can(event)) return null;
  const [next] = transition(creditProgrammeMachine, snapshot, event);
  return programmeStateOf(next.value);
}

/**
 * Where the event leaves a stored programme: its state name and whether it is frozen for morosidad, or null
 * when the machine refuses the event.
 */
export function nextProgramme(
  programme: StoredProgramme,
  event: CreditProgrammeEvent,
): { state: CreditProgrammeStateName; delinquent: boolean } | null {
  const snapshot = resolveProgramme(programme);
  if (!snapshot.can(event)) return null;
  const [next] = transition(creditProgrammeMachine, snapshot, event);
  return { state: programmeStateOf(next.value), delinquent: isDelinquentValue(next.value) };
}

/** Whether the machine accepts this event for this programme now. */
export function programmeAccepts(programme: StoredProgramme, event: CreditProgrammeEvent): boolean {
  return resolveProgramme(programme).can(event);
}

/** The state to store for a machine state ('pendiente' is stored as the state it waits in). */
export function storedState(
  name: CreditProgrammeStateName,
  before: StoredProgrammeState,
): StoredProgrammeState {
  return name === 'pendiente' ? before : name;
}
