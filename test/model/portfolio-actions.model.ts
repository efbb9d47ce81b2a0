import { portfolioActionsMachine } from '../../src/machines/portfolio-actions.machine';
import type { MachineModel } from './harness/model';

/** A refusal at a field, as the server words it (a note too long). */
export const NOTE_REFUSAL = { note: ['Asegúrate de que este campo no tenga más de 1000 caracteres.'] };

// /operacion/cartera/?corporativo=<id>: 'Registrar gestión' saved (the real server), refused at a field (400),
// refused otherwise (500), or without an answer after the server saved.
export const portfolioActionsModel: MachineModel = {
  id: 'portfolio-actions',
  machine: portfolioActionsMachine,
  events: [
    { type: 'action.open', intent: { action: 'log', id: 1, label: 'Comprador', input: null } },
    { type: 'action.submit', input: { action: 'llamada', note: 'Llamada del modelo', promised_on: null } },
    { type: 'xstate.done.actor.act', output: 'Gestión registrada en la bitácora.' },
    { type: 'xstate.error.actor.act', error: { status: 400, body: NOTE_REFUSAL } },
    { type: 'xstate.error.actor.act', error: { status: 500, body: { detail: 'Error interno' } } },
    { type: 'xstate.error.actor.act', error: { status: 0, body: null } },
    { type: 'action.retry' },
    { type: 'action.cancel' },
    { type: 'outcome.dismiss' },
  ],
  waivers: {
    'portfolio-actions.ready|action.run|0':
      'the portfolio screen has no one-click action: its gesture opens the form',
  },
};
