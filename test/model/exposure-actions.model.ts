import { EXPOSURE_MESSAGES } from '../../src/domain/schemas/exposure';
import { exposureActionsMachine } from '../../src/machines/exposure-actions.machine';
import type { MachineModel } from './harness/model';

/** A refusal at a field, as the server words it. */
export const VALUE_REFUSED_BODY = { value: [EXPOSURE_MESSAGES.percentTooLarge] };

// /operacion/exposicion/: «Proponer tope» sent (the real server), refused at a field (400), refused otherwise
// (500), or without an answer after the server saved (the retry sends the same Idempotency-Key).
export const exposureActionsModel: MachineModel = {
  id: 'exposure-actions',
  machine: exposureActionsMachine,
  events: [
    { type: 'action.open', intent: { action: 'propose', id: null, label: '', input: null } },
    { type: 'action.submit', input: { scope: 'buyer', kind: 'amount', value: '5000000', company_id: 1 } },
    { type: 'xstate.done.actor.act', output: 'Tope enviado a aprobación.' },
    { type: 'xstate.error.actor.act', error: { status: 400, body: VALUE_REFUSED_BODY } },
    { type: 'xstate.error.actor.act', error: { status: 500, body: { detail: 'Error interno' } } },
    { type: 'xstate.error.actor.act', error: { status: 0, body: null } },
    { type: 'action.retry' },
    { type: 'action.cancel' },
    { type: 'outcome.dismiss' },
  ],
  waivers: {
    'exposure-actions.ready|action.run|0':
      '«Aprobar» and «Rechazar» are one-click calls whose four eyes the concentration-cap model and test/api/exposure.test.ts exercise against the server; this model drives the proposal form',
  },
};
