import type { AnyMachineSnapshot } from 'xstate';
import { corporateActionsMachine, corporateIntent } from '../../src/machines/corporate-actions.machine';
import type { MachineModel } from './harness/model';

/**
 * The model's world: a corporate in revisión whose eight documents are approved (created by one operator, worked
 * by another on its file's screen). The form gesture is replacing its 'Poderes' (repeatable in every state), the
 * one-click gesture is 'Activar corporativo'; every other gesture of the screen is the same statechart with
 * another intent (the onboarding model walks them all).
 */
export const FORM_KIND = 'poderes';
export const OPEN_INTENT = corporateIntent({ action: 'upload', kind: FORM_KIND }, 'Subir: Poderes');
export const RUN_INTENT = corporateIntent({ action: 'activate' }, 'Modelo');

/** The server's per-field refusal of an upload, and a refusal with its detail (a 409). */
export const FIELD_REFUSAL = { file: ['El archivo debe ser un PDF de máximo 10 MB.'] };
export const REFUSAL_DETAIL = 'El corporativo cambió mientras tanto; vuelve a intentarlo.';

export const corporateActionsModel: MachineModel = {
  id: 'corporate-actions',
  machine: corporateActionsMachine,
  events: [
    { type: 'action.open', intent: OPEN_INTENT },
    { type: 'action.run', intent: RUN_INTENT },
    { type: 'action.submit', input: { file: FORM_KIND } },
    { type: 'action.retry' },
    { type: 'action.cancel' },
    { type: 'outcome.dismiss' },
    { type: 'xstate.done.actor.act', output: null },
    { type: 'xstate.error.actor.act', error: { status: 0, body: null } },
    { type: 'xstate.error.actor.act', error: { status: 400, body: FIELD_REFUSAL } },
    { type: 'xstate.error.actor.act', error: { status: 409, body: { detail: REFUSAL_DETAIL } } },
  ],
  // The top state only: between gestures 'Lista', 'Acción hecha' and 'Acción rechazada' offer the same gestures.
  abstract: (s: AnyMachineSnapshot) => (typeof s.value === 'string' ? s.value : Object.keys(s.value)[0]),
};
