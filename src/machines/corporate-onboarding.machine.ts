import { and, assign, setup } from 'xstate';
import type { IsoDate } from '../domain/calendar-date';
import {
  CORPORATE_MESSAGES,
  type CorporateDocumentKind,
  corporateAccessRefusal,
  type DocumentDecision,
  type FileDocument,
  isFileComplete,
  missingDocumentKinds,
  type OnboardingState,
} from '../domain/corporate-file';

/**
 * A corporate buyer's onboarding (issue 19, decision 0051): one definition for the browser and the server.
 * The server evaluates it as a pure function (resolveOnboardingSnapshot + can/transition) inside the
 * transaction that locks the corporate's row; the detail screen asks the same snapshot whether 'Activar
 * corporativo' is allowed. Nothing here performs I/O.
 *
 * Access (issue 31, decision 0058): the corporate side (every /api/corporates/ call, the role switch, the
 * corporate dashboard) exists only in the state tagged CORPORATE_ACCESS_TAG; corporateAccess() reads the tag,
 * so no second list of states can disagree with the diagram.
 */

/** The tag of the states whose corporate may use the corporate side (only `active`). */
export const CORPORATE_ACCESS_TAG = 'corporateAccess';

/** Who acts on the onboarding: the operator's user id (maker-checker on activation). */
export interface OnboardingActor {
  userId: number;
}

export interface CorporateOnboardingContext {
  /** The current document of each uploaded kind, with its review. */
  documents: FileDocument[];
  /** The business day the expiries are judged against. */
  today: IsoDate;
  /** The analista who created (or promoted) the corporate; null for corporates older than migration 014. */
  creatorId: number | null;
}

export type CorporateOnboardingEvent =
  /** An analista uploads a kind: it becomes the current one, pendiente. */
  | { type: 'document.upload'; kind: CorporateDocumentKind }
  /** An aprobador decides on the current document of a kind. */
  | {
      type: 'document.decide';
      kind: CorporateDocumentKind;
      status: DocumentDecision;
      expiresOn: IsoDate | null;
    }
  /** An aprobador who did not create the corporate activates it. */
  | { type: 'corporate.activate'; actor: OnboardingActor }
  | { type: 'corporate.reject'; reason: string }
  /** An aprobador suspends an active corporate, with a reason: its access ends at once. */
  | { type: 'corporate.suspend'; reason: string }
  /** An aprobador gives a suspended corporate its access back, its file approved and valid. */
  | { type: 'corporate.reactivate' };

export type CorporateOnboardingEventType = CorporateOnboardingEvent['type'];

function withUpload(documents: readonly FileDocument[], kind: CorporateDocumentKind): FileDocument[] {
  return [...documents.filter((d) => d.kind !== kind), { kind, status: 'pendiente', expires_on: null }];
}

export const corporateOnboardingMachine = setup({
  types: {
    context: {} as CorporateOnboardingContext,
    events: {} as CorporateOnboardingEvent,
    input: {} as CorporateOnboardingContext,
  },
  guards: {
    /** With this upload every kind of the file has a current document. */
    completesFile: ({ context }, params: { kind: CorporateDocumentKind }) =>
      isFileComplete(withUpload(context.documents, params.kind)),
    hasDocument: ({ context }, params: { kind: CorporateDocumentKind }) =>
      context.documents.some((d) => d.kind === params.kind),
    /** Every kind aprobado and not past its expiry today. */
    fileApproved: ({ context }) => missingDocumentKinds(context.documents, context.today).length === 0,
    hasReason: (_, params: { reason: string }) => params.reason.trim() !== '',
    /** Maker-checker: whoever created the corporate cannot be the one who activates it. */
    isNotCreator: ({ context, event }) =>
      'actor' in event && (context.creatorId === null || event.actor.userId !== context.creatorId),
  },
  actions: {
    keepUpload: assign({
      documents: ({ context }, params: { kind: CorporateDocumentKind }) =>
        withUpload(context.documents, params.kind),
    }),
    keepDecision: assign({
      documents: (
        { context },
        params: { kind: CorporateDocumentKind; status: DocumentDecision; expiresOn: IsoDate | null },
      ) =>
        context.documents.map((d) =>
          d.kind === params.kind ? { kind: d.kind, status: params.status, expires_on: params.expiresOn } : d,
        ),
    }),
  },
}).createMachine({
  id: 'corporate-onboarding',
  context: ({ input }) => input,
  initial: 'draft',
  meta: {
    title: 'Alta de un corporativo y su expediente',
    events: {
      'document.upload': 'Un analista sube un documento del expediente (PDF)',
      'document.decide': 'Un aprobador aprueba, rechaza o marca vencido un documento',
      'corporate.activate': '«Activar corporativo», por un aprobador que no lo dio de alta',
      'corporate.reject': 'Un aprobador rechaza el corporativo, con motivo',
      'corporate.suspend': 'Un aprobador suspende al corporativo, con motivo',
      'corporate.reactivate': 'Un aprobador reactiva al corporativo suspendido',
    },
    guards: {
      completesFile: 'Con este documento el expediente tiene los ocho documentos.',
      hasDocument: 'El expediente tiene un documento vigente de ese tipo.',
      fileApproved: 'Los ocho documentos están aprobados y ninguno ha vencido.',
      hasReason: 'El rechazo o la suspensión lleva un motivo.',
      isNotCreator: 'Quien activa no es el analista que dio de alta al corporativo.',
    },
  },
  description:
    'Un analista da de alta al corporativo (o promueve a un proveedor) y sube su expediente de ocho documentos en ' +
    'PDF; un aprobador revisa cada uno y activa al corporativo solo cuando todos están aprobados y vigentes, o lo ' +
    'rechaza con un motivo. Solo el estado Activo da acceso como corporativo (las llamadas de corporativo, el ' +
    'cambio de rol y su tablero); en Borrador y en revisión se niega, y al rechazarlo o suspenderlo se retira de ' +
    'inmediato, también a las sesiones abiertas.',
  states: {
    draft: {
      meta: { label: 'Borrador' },
      description: 'El expediente aún no tiene los ocho documentos. Sin acceso como corporativo.',
      on: {
        'document.upload': [
          {
            guard: { type: 'completesFile', params: ({ event }) => ({ kind: event.kind }) },
            target: 'fileUnderReview',
            actions: { type: 'keepUpload', params: ({ event }) => ({ kind: event.kind }) },
          },
          { actions: { type: 'keepUpload', params: ({ event }) => ({ kind: event.kind }) } },
        ],
        'document.decide': {
          guard: { type: 'hasDocument', params: ({ event }) => ({ kind: event.kind }) },
          actions: { type: 'keepDecision', params: ({ event }) => event },
        },
        'corporate.reject': {
          guard: { type: 'hasReason', params: ({ event }) => ({ reason: event.reason }) },
          target: 'rejected',
        },
      },
    },
    fileUnderReview: {
      meta: { label: 'Expediente en revisión' },
      description:
        'Los ocho documentos están cargados; el aprobador los revisa. Sin acceso como corporativo.',
      on: {
        'document.upload': { actions: { type: 'keepUpload', params: ({ event }) => ({ kind: event.kind }) } },
        'document.decide': {
          guard: { type: 'hasDocument', params: ({ event }) => ({ kind: event.kind }) },
          actions: { type: 'keepDecision', params: ({ event }) => event },
        },
        'corporate.activate': {
          guard: and(['fileApproved', 'isNotCreator']),
          target: 'active',
        },
        'corporate.reject': {
          guard: { type: 'hasReason', params: ({ event }) => ({ reason: event.reason }) },
          target: 'rejected',
        },
      },
    },
    active: {
      meta: { label: 'Activo' },
      tags: [CORPORATE_ACCESS_TAG],
      description:
        'El corporativo opera: el único estado con acceso como corporativo. Su expediente se sigue actualizando ' +
        '(renovaciones, vencimientos).',
      on: {
        'corporate.suspend': {
          guard: { type: 'hasReason', params: ({ event }) => ({ reason: event.reason }) },
          target: 'suspended',
        },
        'document.upload': { actions: { type: 'keepUpload', params: ({ event }) => ({ kind: event.kind }) } },
        'document.decide': {
          guard: { type: 'hasDocument', params: ({ event }) => ({ kind: event.kind }) },
          actions: { type: 'keepDecision', params: ({ event }) => event },
        },
      },
    },
    suspended: {
      meta: { label: 'Suspendido' },
      description:
        'Un aprobador lo suspendió con un motivo: sin acceso como corporativo. El expediente se puede corregir; ' +
        'se reactiva cuando los ocho documentos están aprobados y vigentes.',
      on: {
        'document.upload': { actions: { type: 'keepUpload', params: ({ event }) => ({ kind: event.kind }) } },
        'document.decide': {
          guard: { type: 'hasDocument', params: ({ event }) => ({ kind: event.kind }) },
          actions: { type: 'keepDecision', params: ({ event }) => event },
        },
        'corporate.reactivate': { guard: 'fileApproved', target: 'active' },
      },
    },
    rejected: {
      meta: { label: 'Rechazado' },
      description: 'El alta se rechazó; el expediente ya no cambia. Sin acceso como corporativo.',
      type: 'final',
    },
  },
});

export const ONBOARDING_STATE_BY_VALUE: Readonly<Record<OnboardingState, string>> = {
  borrador: 'draft',
  en_revision: 'fileUnderReview',
  activo: 'active',
  rechazado: 'rejected',
  suspendido: 'suspended',
};

export const ONBOARDING_VALUE_TO_STATE: Readonly<Record<string, OnboardingState>> = Object.fromEntries(
  Object.entries(ONBOARDING_STATE_BY_VALUE).map(([state, value]) => [value, state as OnboardingState]),
);

/** The machine's snapshot for a stored corporate: its state and its file. Nothing runs. */
export function resolveOnboardingSnapshot(corporate: {
  state: OnboardingState;
  documents: readonly FileDocument[];
  today: IsoDate;
  creatorId?: number | null;
}) {
  return corporateOnboardingMachine.resolveState({
    value: ONBOARDING_STATE_BY_VALUE[corporate.state],
    context: {
      documents: [...corporate.documents],
      today: corporate.today,
      creatorId: corporate.creatorId ?? null,
    },
  });
}

/** The stored states whose machine state carries the access tag (read once from the definition). */
const ACCESS_STATES: ReadonlySet<OnboardingState> = new Set(
  (Object.keys(ONBOARDING_STATE_BY_VALUE) as OnboardingState[]).filter((state) =>
    corporateOnboardingMachine.root.states[ONBOARDING_STATE_BY_VALUE[state]]?.tags.includes(
      CORPORATE_ACCESS_TAG,
    ),
  ),
);

/**
 * Whether a corporate in this onboarding state may use the corporate side, and the Spanish reason when not.
 * Example: corporateAccess('en_revision') → {ok:false, reason:'Tu empresa aún no está activa…'}.
 */
export function corporateAccess(state: OnboardingState): { ok: true } | { ok: false; reason: string } {
  return ACCESS_STATES.has(state) ? { ok: true } : { ok: false, reason: corporateAccessRefusal(state) };
}

/**
 * Why the machine refuses an event for this corporate, in Spanish (the server's 409 and the screen's hint).
 * Example: activating in draft with nothing uploaded lists the eight kinds.
 */
export function onboardingRefusal(
  corporate: { state: OnboardingState; documents: readonly FileDocument[]; today: IsoDate },
  type: CorporateOnboardingEventType,
): string {
  if (corporate.state === 'rechazado') return CORPORATE_MESSAGES.rejectedFinal;
  if (type === 'corporate.suspend') return CORPORATE_MESSAGES.notSuspendable;
  if (type === 'corporate.reactivate' && corporate.state !== 'suspendido')
    return CORPORATE_MESSAGES.notReactivatable;
  if (type === 'corporate.activate' && corporate.state === 'suspendido')
    return CORPORATE_MESSAGES.notReactivatable;
  if (type === 'corporate.activate' || type === 'corporate.reactivate') {
    if (corporate.state === 'activo') return CORPORATE_MESSAGES.alreadyActive;
    return CORPORATE_MESSAGES.notActivatable(missingDocumentKinds(corporate.documents, corporate.today));
  }
  if (type === 'corporate.reject' && corporate.state === 'activo') return CORPORATE_MESSAGES.alreadyActive;
  return CORPORATE_MESSAGES.documentNotFound;
}
