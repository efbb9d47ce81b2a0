import { PROVIDER_MESSAGES } from '../../server/modules/providers/providers.service';
import { authorizationRequestMachine } from '../../src/machines/authorization-request.machine';
import type { MachineModel } from './harness/model';

/** Symbolic: each path imports its own AVAILABLE invoice and clicks that row. */
export const MODEL_INVOICE_ID = 1;

/** An access token the server no longer accepts. */
export const SESSION_ENDED_BODY = {
  detail: 'Las credenciales de autenticación no se proveyeron o expiraron.',
};

/** The server's real 409 when the invoice was already requested (another tab, another user of the company). */
export const ALREADY_REQUESTED_BODY = {
  detail: PROVIDER_MESSAGES.alreadyRequested,
  message: PROVIDER_MESSAGES.alreadyRequested,
  message_type: 'error',
};

// Request: answered; refused after a concurrent change (409); no response; session over (401).
export const authorizationRequestModel: MachineModel = {
  id: 'authorization-request',
  machine: authorizationRequestMachine,
  events: [
    { type: 'authorization.request', invoiceId: MODEL_INVOICE_ID },
    {
      type: 'xstate.done.actor.requestAuthorization',
      output: { message: PROVIDER_MESSAGES.requestSent, message_type: 'success' },
    },
    { type: 'xstate.error.actor.requestAuthorization', error: { status: 409, body: ALREADY_REQUESTED_BODY } },
    { type: 'xstate.error.actor.requestAuthorization', error: { status: 0, body: null } },
    { type: 'xstate.error.actor.requestAuthorization', error: { status: 401, body: SESSION_ENDED_BODY } },
    { type: 'dialog.close' },
  ],
};
