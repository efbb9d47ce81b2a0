import { ALLIANCE_MESSAGES } from '../../src/domain/alliance-terms';
import { ALLIANCE_ACTIONS, allianceActionsMachine } from '../../src/machines/alliance-actions.machine';
import type { MachineModel } from './harness/model';

/** The terms every path types into 'Nueva alianza' (its RFC is the path's own, fresh). */
export const MODEL_TERMS = { annual_rate: '15', max_days: 60 } as const;

/** A refusal at a field, as the server words it: the chosen company is not a corporate. */
export const NOT_CORPORATE_BODY = { corporate_id: [ALLIANCE_MESSAGES.notCorporate] };

// /operacion/alianzas/: 'Nueva alianza' saved (the real server), refused at a field (400), refused otherwise
// (500), or without an answer after the server saved (the retry sends the same Idempotency-Key).
export const allianceActionsModel: MachineModel = {
  id: 'alliance-actions',
  machine: allianceActionsMachine,
  events: [
    {
      type: 'action.open',
      intent: { action: ALLIANCE_ACTIONS.create, id: null, label: 'Alianzas', input: null },
    },
    { type: 'action.submit', input: { corporate_id: 1, provider_rfc: 'RFC', ...MODEL_TERMS } },
    { type: 'xstate.done.actor.act', output: 'Alianza guardada.' },
    { type: 'xstate.error.actor.act', error: { status: 400, body: NOT_CORPORATE_BODY } },
    { type: 'xstate.error.actor.act', error: { status: 500, body: { detail: 'Error interno' } } },
    { type: 'xstate.error.actor.act', error: { status: 0, body: null } },
    { type: 'action.retry' },
    { type: 'action.cancel' },
    { type: 'outcome.dismiss' },
  ],
  waivers: {
    'alliance-actions.ready|action.run|0':
      'the alliances screen has no one-click action: both of its gestures open the form',
  },
};
