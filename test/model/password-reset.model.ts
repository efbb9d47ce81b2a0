import type { EventObject } from 'xstate';
import { passwordResetMachine } from '../../src/machines/password-reset.machine';
import type { MachineModel } from './harness/model';

/** Meets every rule: 8+ characters, not numeric, unlike the demo user's data, not a common password. */
export const NEW_PASSWORD = 'Girasol-Azul-2026!';

/** The server's real 400 for a rejected new password: every message under `old_password` (spec §8). */
export const REJECTED_BODY = {
  old_password: ['La contraseña es demasiado común.'],
  new_password: ['La contraseña es demasiado común.'],
};

// The token comes from the e-mailed link at run time; the model only needs a stand-in for the replay.
export const passwordResetModel: MachineModel = {
  id: 'password-reset',
  machine: passwordResetMachine,
  events: [
    { type: 'passwordReset.submit', values: { new_password: NEW_PASSWORD, token: 'token-del-correo' } },
    { type: 'passwordReset.dismiss' },
    {
      type: 'xstate.done.actor.resetPassword',
      output: { message: 'Tu contraseña se restableció correctamente.' },
    },
    { type: 'xstate.error.actor.resetPassword', error: { status: 400, body: REJECTED_BODY } },
    { type: 'xstate.error.actor.resetPassword', error: { status: 500, body: { detail: 'Error interno' } } },
    { type: 'xstate.error.actor.resetPassword', error: { status: 0, body: null } },
  ] as readonly EventObject[],
};
