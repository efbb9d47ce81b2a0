import { CORPORATE_MESSAGES } from '../../server/modules/corporates/corporates.service';
import { supplierRequestsMachine } from '../../src/machines/supplier-requests.machine';
import type { MachineModel } from './harness/model';

/** Symbolic: each path imports its own Solicitado invoice and answers that row. */
export const MODEL_INVOICE_ID = 1;
const DATED = { invoiceId: MODEL_INVOICE_ID, label: 'T-1', paymentDate: '2030-01-31' };
const UNDATED = { ...DATED, paymentDate: '' };

/** An access token the server no longer accepts. */
export const SESSION_ENDED_BODY = {
  detail: 'Las credenciales de autenticación no se proveyeron o expiraron.',
};

/** What the model's 500 says (the page shows its own generic text instead). */
export const SERVER_FAILURE_BODY = { detail: 'Error interno del servidor.' };

// Authorize: without a date ('Requerido'), answered, refused per line (400), after a concurrent change (409),
// a server failure (500), no response, session over (401). Reject: confirm with or without reason, cancel,
// answered, a concurrent change (409), a server failure (500), no response.
export const supplierRequestsModel: MachineModel = {
  id: 'supplier-requests',
  machine: supplierRequestsMachine,
  events: [
    { type: 'requests.authorize', lines: [DATED] },
    { type: 'requests.authorize', lines: [UNDATED] },
    { type: 'requests.reject', lines: [UNDATED] },
    { type: 'reject.confirm', reason: 'El monto no coincide con la orden de compra.' },
    { type: 'reject.confirm', reason: '' },
    { type: 'reject.cancel' },
    {
      type: 'xstate.done.actor.authorizeRequests',
      output: {
        message: CORPORATE_MESSAGES.authorizedOne,
        payment_date_message: 'Fecha de pago: 31/01/2030',
      },
    },
    {
      type: 'xstate.error.actor.authorizeRequests',
      error: { status: 400, body: { '0.payment_date': ['x'] } },
    },
    { type: 'xstate.error.actor.authorizeRequests', error: { status: 409, body: { detail: 'x' } } },
    { type: 'xstate.error.actor.authorizeRequests', error: { status: 500, body: SERVER_FAILURE_BODY } },
    { type: 'xstate.error.actor.authorizeRequests', error: { status: 0, body: null } },
    { type: 'xstate.error.actor.authorizeRequests', error: { status: 401, body: SESSION_ENDED_BODY } },
    {
      type: 'xstate.done.actor.rejectRequests',
      output: {
        message: CORPORATE_MESSAGES.rejectedOne,
        payment_date_message: CORPORATE_MESSAGES.rejectedPaymentDate,
      },
    },
    { type: 'xstate.error.actor.rejectRequests', error: { status: 409, body: { detail: 'x' } } },
    { type: 'xstate.error.actor.rejectRequests', error: { status: 500, body: SERVER_FAILURE_BODY } },
    { type: 'xstate.error.actor.rejectRequests', error: { status: 0, body: null } },
    { type: 'dialog.close' },
  ],
};
