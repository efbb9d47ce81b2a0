import { PROVIDER_MESSAGES } from '../../server/modules/providers/providers.service';
import { forwardPaymentMachine } from '../../src/machines/forward-payment.machine';
import { SESSION_ENDED_BODY } from './authorization-request.model';
import type { MachineModel } from './harness/model';
import { MODEL_INVOICE } from './model-invoice';

// Symbolic invoice (MODEL_INVOICE): each path imports its own, authorized by the corporate with a payment date 45 days away.

/** Days from today to the payment date the corporate sets in every path (the quote's `days`). */
export const DAYS_TO_PAYMENT = 45;

/** The server's real 409 after a concurrent advance (another tab already confirmed). */
export const ADVANCE_IN_PROCESS_BODY = {
  detail: PROVIDER_MESSAGES.advanceInProcess,
  message: PROVIDER_MESSAGES.advanceInProcess,
  message_type: 'error',
};

// Quote: loaded, server error (500). Approve: advanced, refused after a concurrent change (409), no answer
// (network loss after the server advanced: the retry with the same key gets the first answer), session over (401).
export const forwardPaymentModel: MachineModel = {
  id: 'forward-payment',
  machine: forwardPaymentMachine,
  events: [
    { type: 'advance.open', ...MODEL_INVOICE },
    { type: 'xstate.done.actor.loadQuote', output: { days: DAYS_TO_PAYMENT } },
    { type: 'xstate.error.actor.loadQuote', error: { status: 500, body: { detail: 'Error interno' } } },
    { type: 'advance.retry' },
    { type: 'advance.close' },
    { type: 'advance.confirm' },
    {
      type: 'xstate.done.actor.approveForwardPayment',
      output: { message: 'Tu adelanto de pago está en trámite.', message_type: 'success' },
    },
    {
      type: 'xstate.error.actor.approveForwardPayment',
      error: { status: 409, body: ADVANCE_IN_PROCESS_BODY },
    },
    { type: 'xstate.error.actor.approveForwardPayment', error: { status: 0, body: null } },
    { type: 'xstate.error.actor.approveForwardPayment', error: { status: 401, body: SESSION_ENDED_BODY } },
    { type: 'dialog.close' },
  ],
};
