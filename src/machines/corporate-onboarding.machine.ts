import { assign, setup } from 'xstate';
import type { IsoDate } from '../domain/calendar-date';
import {
  CORPORATE_MESSAGES,
  type CorporateDocumentKind,
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
 */

export interface CorporateOnboardingContext {
  /** The current document of each uploaded kind, with its review. */
  documents: FileDocument[];
  /** The business day the expiries are judged against. */
  today: IsoDate;
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
  | { type: 'corporate.activate' }
  | { type: 'corporate.reject'; reason: string };

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
      'corporate.activate': '«Activar corporativo»',
      'corporate.reject': 'Un aprobador rechaza el corporativo, con motivo',
    },
    guards: {
      completesFile: 'Con este documento el expediente tiene los ocho documentos.',
      hasDocument: 'El expediente tiene un documento vigente de ese tipo.',
      fileApproved: 'Los ocho documentos están aprobados y ninguno ha vencido.',
      hasReason: 'El rechazo lleva un motivo.',
    },
  },
  description:
    'Un analista da de alta al corporativo (o promueve a un proveedor) y sube su expediente de ocho documentos en ' +
    'PDF; un aprobador revisa cada uno y activa al corporativo solo cuando todos están aprobados y vigentes, o lo ' +
    'rechaza con un motivo.',
  states: {
    draft: {
      meta: { label: 'Borrador' },
      description: 'El expediente aún no tiene los ocho documentos.',
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
      description: 'Los ocho documentos están cargados; el aprobador los revisa.',
      on: {
        'document.upload': { actions: { type: 'keepUpload', params: ({ event }) => ({ kind: event.kind }) } },
        'document.decide': {
          guard: { type: 'hasDocument', params: ({ event }) => ({ kind: event.kind }) },
          actions: { type: 'keepDecision', params: ({ event }) => event },
        },
        'corporate.activate': { guard: 'fileApproved', target: 'active' },
        'corporate.reject': {
          guard: { type: 'hasReason', params: ({ event }) => ({ reason: event.reason }) },
          target: 'rejected',
        },
      },
    },
    active: {
      meta: { label: 'Activo' },
      description: 'El corporativo opera; su expediente se sigue actualizando (renovaciones, vencimientos).',
      on: {
        'document.upload': { actions: { type: 'keepUpload', params: ({ event }) => ({ kind: event.kind }) } },
        'document.decide': {
          guard: { type: 'hasDocument', params: ({ event }) => ({ kind: event.kind }) },
          actions: { type: 'keepDecision', params: ({ event }) => event },
        },
      },
    },
    rejected: {
      meta: { label: 'Rechazado' },
      description: 'El alta se rechazó; el expediente ya no cambia.',
      type: 'final',
    },
  },
});

export const ONBOARDING_STATE_BY_VALUE: Readonly<Record<OnboardingState, string>> = {
  borrador: 'draft',
  en_revision: 'fileUnderReview',
  activo: 'active',
  rechazado: 'rejected',
};

export const ONBOARDING_VALUE_TO_STATE: Readonly<Record<string, OnboardingState>> = Object.fromEntries(
  Object.entries(ONBOARDING_STATE_BY_VALUE).map(([state, value]) => [value, state as OnboardingState]),
);

/** The machine's snapshot for a stored corporate: its state and its file. Nothing runs. */
export function resolveOnboardingSnapshot(corporate: {
  state: OnboardingState;
  documents: readonly FileDocument[];
  today: IsoDate;
}) {
  return corporateOnboardingMachine.resolveState({
    value: ONBOARDING_STATE_BY_VALUE[corporate.state],
    context: { documents: [...corporate.documents], today: corporate.today },
  });
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
  if (type === 'corporate.activate') {
    if (corporate.state === 'activo') return CORPORATE_MESSAGES.alreadyActive;
    return CORPORATE_MESSAGES.notActivatable(missingDocumentKinds(corporate.documents, corporate.today));
  }
  if (type === 'corporate.reject' && corporate.state === 'activo') return CORPORATE_MESSAGES.alreadyActive;
  return CORPORATE_MESSAGES.documentNotFound;
}
