import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { CORPORATE_DOCUMENT_KINDS, type FileDocument } from '../../src/domain/corporate-file';
import {
  type CorporateOnboardingContext,
  corporateOnboardingMachine,
} from '../../src/machines/corporate-onboarding.machine';
import type { MachineModel } from './harness/model';

/**
 * The model's world: a corporate in borrador whose file already holds seven of the eight kinds, approved; each path
 * starts there (the test builds it through the API) and works the last kind and one approved kind through the
 * screen. With every kind in play the traversal would walk 8! orders of the same file; the rules are per kind and
 * the same for all eight (decision 0051), so two kinds exercise every transition.
 */
export const MISSING_KIND = 'contrato_programa';
export const REVIEWED_KIND = 'poderes';
export const MODEL_TODAY = '2026-03-10';
export const MODEL_EXPIRY = '2026-03-01';
export const REJECTION_REASON = 'No acreditó el domicilio fiscal';
export const DOCUMENT_REJECTION_REASON = 'Documento ilegible';
export const SUSPENSION_REASON = 'Domicilio fiscal no localizado';

export const SEEDED_FILE: FileDocument[] = CORPORATE_DOCUMENT_KINDS.filter(
  (kind) => kind !== MISSING_KIND,
).map((kind) => ({ kind, status: 'aprobado', expires_on: null }));

/** The corporate is created by one operator (the world's analista) and worked by another on the screen. */
export const MODEL_CREATOR_ID = -1;
export const MODEL_INPUT: CorporateOnboardingContext = {
  documents: SEEDED_FILE,
  today: MODEL_TODAY,
  creatorId: MODEL_CREATOR_ID,
};

export const corporateOnboardingModel: MachineModel = {
  id: 'corporate-onboarding',
  machine: corporateOnboardingMachine,
  input: MODEL_INPUT,
  events: [
    { type: 'document.upload', kind: MISSING_KIND },
    { type: 'document.upload', kind: REVIEWED_KIND },
    { type: 'document.decide', kind: MISSING_KIND, status: 'aprobado', expiresOn: null },
    { type: 'document.decide', kind: REVIEWED_KIND, status: 'aprobado', expiresOn: null },
    { type: 'document.decide', kind: REVIEWED_KIND, status: 'rechazado', expiresOn: null },
    { type: 'document.decide', kind: REVIEWED_KIND, status: 'vencido', expiresOn: MODEL_EXPIRY },
    { type: 'corporate.activate', actor: { userId: MODEL_CREATOR_ID - 1 } },
    { type: 'corporate.reject', reason: REJECTION_REASON },
    { type: 'corporate.suspend', reason: SUSPENSION_REASON },
    { type: 'corporate.reactivate' },
  ] as readonly EventObject[],
  // The state alone. The guards read the two kinds in play (uploaded or not, approved or not), but keying the
  // traversal on them walked 81 paths (430 steps, a fresh corporate each) through every status combination in
  // every state; on the state alone it walks 24 (100 steps) that still take all 14 transitions, send every
  // event partition and visit every state, and the generator's concrete search adds any transition a guard
  // would otherwise hide. Each state's assertion checks 'Activar'/'Reactivar' against the machine's own `can`.
  abstract: (s: AnyMachineSnapshot) => s.value,
};
