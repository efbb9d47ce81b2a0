import type { EventObject } from 'xstate';
import { passwordChangeMachine } from '../../src/machines/password-change.machine';
import type { MachineModel } from './harness/model';
import { DEMO_CREDENTIALS } from './session.model';

/** Meets every rule: 8+ characters, not numeric, unlike the demo user's data, not a common password. */
export const CHANGED_PASSWORD = 'Colibri-Verde-2026!';

export const CHANGE_VALUES = {
  old_password: DEMO_CREDENTIALS.password,
  new_password1: CHANGED_PASSWORD,
  new_password2: CHANGED_PASSWORD,
};

/** The server's real 400 for a wrong current password (issue 3). */
export const WRONG_CURRENT_BODY = { old_password: ['La contraseña actual es incorrecta.'] };

/** An access token the server no longer accepts. */
export const SESSION_ENDED_BODY = {
  detail: 'Las credenciales de autenticación no se proveyeron o expiraron.',
};

/** A server error whose text must never reach the user. */
export const SERVER_ERROR_BODY = { detail: 'Error interno del servidor' };

// Outcomes: changed, wrong current password, session over (401), server error (500), no response.
export const passwordChangeModel: MachineModel = {
  id: 'password-change',
  machine: passwordChangeMachine,
  events: [
    { type: 'passwordChange.submit', values: CHANGE_VALUES },
    { type: 'passwordChange.dismiss' },
    {
      type: 'xstate.done.actor.changePassword',
      output: { message: 'Tu contraseña se actualizó correctamente' },
    },
    { type: 'xstate.error.actor.changePassword', error: { status: 400, body: WRONG_CURRENT_BODY } },
    { type: 'xstate.error.actor.changePassword', error: { status: 500, body: SERVER_ERROR_BODY } },
    { type: 'xstate.error.actor.changePassword', error: { status: 0, body: null } },
    { type: 'xstate.error.actor.changePassword', error: { status: 401, body: SESSION_ENDED_BODY } },
  ] as readonly EventObject[],
};
