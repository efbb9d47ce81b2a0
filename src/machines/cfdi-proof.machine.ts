import { assign, setup, transition } from 'xstate';

/**
 * Whether an invoice's CFDI is trusted (issue 30): its seal and certificate are verified first, then the SAT is
 * asked whether the CFDI is vigente and whether its issuer is on the 69-B list. Pure, like the desk item: whoever
 * verifies the seal or asks the SAT resolves the stored proof and asks `can()`/`transition()`; quoting and
 * advancing ask `proofAllowsQuote`/`proofAllowsAdvance`. Nothing here performs I/O.
 */

export type CfdiProofStateName =
  | 'received'
  | 'unverified'
  | 'sealChecked'
  | 'pending'
  | 'trusted'
  | 'refused';

export const CFDI_PROOF_STATES = [
  'received',
  'unverified',
  'sealChecked',
  'pending',
  'trusted',
  'refused',
] as const satisfies readonly CfdiProofStateName[];

/** NOTE: SAT's 69-B list names an issuer Presunto, Desvirtuado, Definitivo or Sentencia favorable; two refuse. */
export type EfosSituation = 'Presunto' | 'Definitivo';

export type CfdiProofEvent =
  /** The cadena original's digest matches the Sello under the Certificado, and the certificate is a CSD. */
  | { type: 'seal.verified' }
  /** The seal or the certificate does not verify; the reason travels with the event. */
  | { type: 'seal.refused'; reason: string }
  /** An invoice imported before seals were verified: nobody checked its seal. */
  | { type: 'seal.missing' }
  /** SAT's answers to the CFDI status query. */
  | { type: 'sat.vigente' }
  | { type: 'sat.cancelado' }
  | { type: 'sat.noEncontrado' }
  /** The query timed out or failed: SAT gave no answer. */
  | { type: 'sat.unavailable'; cause: 'timeout' | 'error' }
  /** The issuer is on the 69-B list as Presunto or Definitivo (EFOS). */
  | { type: 'efos.listed'; situation: EfosSituation }
  /** A trusted answer is asked again: older than 24 h, or the desk or a SPEI batch asks. */
  | { type: 'sat.recheck' };

export type CfdiProofEventType = CfdiProofEvent['type'];

export interface CfdiProofContext {
  /** Why the proof was refused, in Spanish; null until it is. */
  reason: string | null;
  /** SAT queries left unanswered since the seal was checked (or the last recheck). */
  satUnanswered: number;
}

/** A proof as it would be stored: its state and its context. */
export interface StoredCfdiProof extends CfdiProofContext {
  state: CfdiProofStateName;
}

/** Spanish reasons of the refusals the machine words itself (a refused seal brings its own). */
export const CFDI_PROOF_REASONS = {
  cancelado: 'El SAT reporta el CFDI como cancelado.',
  noEncontrado: 'El SAT no encontró el CFDI.',
  efos: (situation: EfosSituation) =>
    `El emisor está en la lista 69-B del SAT (operaciones inexistentes) como ${situation}.`,
} as const;

/** How long a SAT answer keeps a proof trusted before it is asked again. */
export const SAT_ANSWER_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export const cfdiProofMachine = setup({
  types: {
    context: {} as CfdiProofContext,
    events: {} as CfdiProofEvent,
    input: {} as Partial<CfdiProofContext> | undefined,
  },
  actions: {
    refuseSeal: assign({
      reason: ({ event }) => (event.type === 'seal.refused' ? event.reason.trim() : null),
    }),
    refuseCancelado: assign({ reason: CFDI_PROOF_REASONS.cancelado }),
    refuseNoEncontrado: assign({ reason: CFDI_PROOF_REASONS.noEncontrado }),
    refuseEfos: assign({
      reason: ({ event }) => (event.type === 'efos.listed' ? CFDI_PROOF_REASONS.efos(event.situation) : null),
    }),
    countUnanswered: assign({ satUnanswered: ({ context }) => context.satUnanswered + 1 }),
    clearUnanswered: assign({ satUnanswered: 0 }),
  },
  guards: {
    hasReason: ({ event }) => event.type === 'seal.refused' && event.reason.trim() !== '',
  },
}).createMachine({
  id: 'cfdiProof',
  meta: {
    title: 'Prueba de autenticidad del CFDI',
    events: {
      'seal.verified': 'Sello y certificado verificados',
      'seal.refused': 'Sello o certificado inválido',
      'seal.missing': 'Importada antes de verificar sellos',
      'sat.vigente': 'SAT: vigente',
      'sat.cancelado': 'SAT: cancelado',
      'sat.noEncontrado': 'SAT: no encontrado',
      'sat.unavailable': 'El SAT no responde',
      'efos.listed': 'Emisor en la lista 69-B',
      'sat.recheck': 'Nueva consulta al SAT',
    },
    guards: {
      hasReason: 'Se indica un motivo.',
    },
  },
  description:
    'Dice si un CFDI es confiable. Al recibirlo se verifican el sello del emisor con su certificado (un CSD); ' +
    'si no se verifican, se rechaza con el motivo. Con el sello verificado se consulta al SAT: vigente lo hace ' +
    'confiable; cancelado, no encontrado o un emisor en la lista 69-B (Presunto o Definitivo) lo rechazan; si ' +
    'el SAT no responde, queda pendiente y se vuelve a consultar. Las facturas importadas antes de verificar ' +
    'sellos quedan sin verificar hasta que su sello se verifique. Un CFDI confiable se consulta de nuevo cuando ' +
    'la respuesta del SAT tiene más de 24 horas o cuando lo pide la mesa de control o un lote SPEI. Se puede cotizar con el sello ' +
    'verificado; solo se adelanta dinero sobre un CFDI confiable. Un rechazo es definitivo.',
  context: ({ input }) => ({ reason: input?.reason ?? null, satUnanswered: input?.satUnanswered ?? 0 }),
  initial: 'received',
  states: {
    received: {
      meta: { label: 'Recibido' },
      description: 'El CFDI llegó; falta verificar su sello.',
      on: {
        'seal.verified': { target: 'sealChecked' },
        'seal.refused': { target: 'refused', guard: 'hasReason', actions: 'refuseSeal' },
        'seal.missing': { target: 'unverified' },
      },
    },
    unverified: {
      meta: { label: 'Sin verificar' },
      description: 'Importado antes de verificar sellos: nadie ha verificado su sello.',
      on: {
        'seal.verified': { target: 'sealChecked' },
        'seal.refused': { target: 'refused', guard: 'hasReason', actions: 'refuseSeal' },
      },
    },
    sealChecked: {
      meta: { label: 'Verificando en el SAT' },
      description: 'Sello y certificado verificados; falta la respuesta del SAT.',
      on: {
        'sat.vigente': { target: 'trusted', actions: 'clearUnanswered' },
        'sat.cancelado': { target: 'refused', actions: 'refuseCancelado' },
        'sat.noEncontrado': { target: 'refused', actions: 'refuseNoEncontrado' },
        'sat.unavailable': { target: 'pending', actions: 'countUnanswered' },
        'efos.listed': { target: 'refused', actions: 'refuseEfos' },
      },
    },
    pending: {
      meta: { label: 'Pendiente: el SAT no respondió' },
      description: 'El sello está verificado, pero el SAT no respondió; se le vuelve a consultar.',
      on: {
        'sat.vigente': { target: 'trusted', actions: 'clearUnanswered' },
        'sat.cancelado': { target: 'refused', actions: 'refuseCancelado' },
        'sat.noEncontrado': { target: 'refused', actions: 'refuseNoEncontrado' },
        // Stays pending; the count tells the desk how many queries went unanswered.
        'sat.unavailable': { target: 'pending', actions: 'countUnanswered' },
        // The 69-B list is published apart from the status query: it refuses even while the query fails.
        'efos.listed': { target: 'refused', actions: 'refuseEfos' },
      },
    },
    trusted: {
      meta: { label: 'Confiable' },
      description: 'El SAT lo reporta vigente y el emisor no está en la lista 69-B.',
      // The seal does not change: a recheck asks the SAT again, and until it answers no money moves.
      on: { 'sat.recheck': { target: 'sealChecked' } },
    },
    refused: {
      type: 'final',
      meta: { label: 'Rechazado' },
      description: 'No se cotiza ni se adelanta sobre este CFDI.',
    },
  },
});

/** Spanish labels of the proof states, for the UI and the history: the machine's own state labels. */
export const CFDI_PROOF_LABELS = Object.fromEntries(
  CFDI_PROOF_STATES.map((state) => [state, String(cfdiProofMachine.states[state]?.meta?.label)]),
) as Readonly<Record<CfdiProofStateName, string>>;

/** The Spanish label of a proof state ('Confiable', 'Pendiente: el SAT no respondió', …). */
export function cfdiProofLabel(state: CfdiProofStateName): string {
  return CFDI_PROOF_LABELS[state];
}

const QUOTABLE: ReadonlySet<CfdiProofStateName> = new Set(['sealChecked', 'pending', 'trusted']);

/** Whether an invoice may be quoted: its seal is verified and SAT has not refused it. */
export function proofAllowsQuote(state: CfdiProofStateName): boolean {
  return QUOTABLE.has(state);
}

/** Whether money may move on an invoice (an advance, a SPEI order): only a trusted proof. */
export function proofAllowsAdvance(state: CfdiProofStateName): boolean {
  return state === 'trusted';
}

/** Whether a trusted proof must ask the SAT again because its answer is older than 24 h. */
export function proofNeedsRecheck(state: CfdiProofStateName, answeredAt: Date, now: Date): boolean {
  return state === 'trusted' && now.getTime() - answeredAt.getTime() > SAT_ANSWER_MAX_AGE_MS;
}

/** The machine's snapshot for a stored proof. */
export function resolveProofSnapshot(proof: StoredCfdiProof) {
  return cfdiProofMachine.resolveState({
    value: proof.state,
    context: { reason: proof.reason, satUnanswered: proof.satUnanswered },
  });
}

/** The stored proof after the event, or the Spanish refusal when the machine does not take it. */
export function proofTransition(
  proof: StoredCfdiProof,
  event: CfdiProofEvent,
): { ok: true; proof: StoredCfdiProof } | { ok: false; message: string } {
  const snapshot = resolveProofSnapshot(proof);
  if (!snapshot.can(event)) return { ok: false, message: proofRefusal(event.type, proof.state) };
  const [next] = transition(cfdiProofMachine, snapshot, event);
  return { ok: true, proof: { state: String(next.value) as CfdiProofStateName, ...next.context } };
}

/** The Spanish refusal of an event the machine does not take in a state. */
export function proofRefusal(type: CfdiProofEventType, state: CfdiProofStateName): string {
  const label = CFDI_PROOF_LABELS[state];
  switch (type) {
    case 'seal.verified':
      return `El sello ya está resuelto: el CFDI está «${label}».`;
    case 'seal.refused':
      return state === 'received' || state === 'unverified'
        ? 'Indica el motivo por el que el sello no se verifica.'
        : `El sello ya está resuelto: el CFDI está «${label}».`;
    case 'seal.missing':
      return `Solo un CFDI recién recibido queda sin verificar; este está «${label}».`;
    case 'sat.vigente':
    case 'sat.cancelado':
    case 'sat.noEncontrado':
    case 'sat.unavailable':
    case 'efos.listed':
      return state === 'trusted'
        ? 'El CFDI es «Confiable»: vuelve a consultar al SAT antes de registrar otra respuesta.'
        : `No se espera respuesta del SAT: el CFDI está «${label}».`;
    case 'sat.recheck':
      return `Solo un CFDI confiable se vuelve a consultar; este está «${label}».`;
  }
}
