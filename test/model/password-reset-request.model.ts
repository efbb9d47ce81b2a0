import type { EventObject } from 'xstate';
import {
  passwordResetRequestMachine,
  UNKNOWN_EMAIL_SERVER_MESSAGE,
} from '../../src/machines/password-reset-request.machine';
import type { MachineModel } from './harness/model';

/** A registered address of the demo world (server/seed/demo-world.ts). */
export const REGISTERED_EMAIL = 'proveedor.demo@flujo.mx';

/** The server's real 400 for an address it does not know (spec §8, issue 3). */
export const UNKNOWN_EMAIL_BODY = { message: UNKNOWN_EMAIL_SERVER_MESSAGE };

// One payload per partition of the call's outcome: sent, unknown address, server failure, no response.
export const passwordResetRequestModel: MachineModel = {
  id: 'password-reset-request',
  machine: passwordResetRequestMachine,
  events: [
    { type: 'resetRequest.submit', values: { email: REGISTERED_EMAIL } },
    { type: 'resetRequest.dismiss' },
    {
      type: 'xstate.done.actor.requestPasswordReset',
      output: { message: 'Te enviamos un correo con las instrucciones para restablecer tu contraseña.' },
    },
    { type: 'xstate.error.actor.requestPasswordReset', error: { status: 400, body: UNKNOWN_EMAIL_BODY } },
    {
      type: 'xstate.error.actor.requestPasswordReset',
      error: { status: 500, body: { detail: 'Error interno' } },
    },
    { type: 'xstate.error.actor.requestPasswordReset', error: { status: 0, body: null } },
  ] as readonly EventObject[],
};
