import { FACTORING_NOT_ENABLED } from '../../src/domain/factoring-messages';
import type { FactoringQuote } from '../../src/domain/schemas/factoring';
import { factoringEnrolmentMachine } from '../../src/machines/factoring-enrolment.machine';
import { SESSION_ENDED_BODY } from './authorization-request.model';
import type { MachineModel } from './harness/model';
import { MODEL_INVOICE } from './model-invoice';

// Symbolic invoice (MODEL_INVOICE): each path imports its own (Autorizada, so every action may be taken on it).

/** The instalments the user picks in the model (the panel opens with one). */
export const CHOSEN_INSTALMENTS = 3;

/** Symbolic quote: the real one comes from the server; the model only needs its four options. */
const QUOTE: FactoringQuote = {
  max_rate: 18.5,
  days: 30,
  cost_financing: '0.00',
  cost_consultancy: '0.00',
  total: '0.00',
  now: '2026-01-16',
  invoice_id: MODEL_INVOICE.invoice.id,
  fiscal_folio: MODEL_INVOICE.invoice.fiscal_folio,
  amount: '0.00',
  rate: 18.5,
  advisory_fee: '0.00',
  amount_to_transfer: '0.00',
  available_credit: '0.00',
  options: [1, 2, 3, 4].map((n) => ({
    installments: n,
    days: n * 30,
    installment_payment: '0.00',
    total_payment: '0.00',
  })),
};

/** Which server answer a refused transfer stands for (the executor produces it for real). */
export type TransferFault = 'lineExhausted' | 'quoteChanged' | 500 | 0 | 401;

// Enrolment: an account without a line (row or header card) → the server's answer, or a 500. Quote: loaded, 500,
// 409 (the invoice changed under the page). Transfer: done, line exhausted (409), quote changed (409), 500, no
// answer (the server transferred; the retry with the same key gets the first answer), session over (401).
export const factoringEnrolmentModel: MachineModel = {
  id: 'factoring-enrolment',
  machine: factoringEnrolmentMachine,
  // The header card's enable request shows its own text: its states are told apart from the row's.
  abstract: (s) => ({ value: s.value, card: s.context.contactEmail !== null }),
  events: [
    { type: 'factoring.request', ...MODEL_INVOICE, hasFactoring: false },
    { type: 'factoring.request', ...MODEL_INVOICE, hasFactoring: true },
    { type: 'enrolment.request', contactEmail: 'contacto@flujo.mx' },
    {
      type: 'xstate.done.actor.enableFactoring',
      output: { message: FACTORING_NOT_ENABLED, message_type: 'info' },
    },
    { type: 'xstate.error.actor.enableFactoring', error: { status: 500, body: { detail: 'Error interno' } } },
    { type: 'xstate.done.actor.loadQuote', output: QUOTE },
    { type: 'xstate.error.actor.loadQuote', error: { status: 500, body: { detail: 'Error interno' } } },
    {
      type: 'xstate.error.actor.loadQuote',
      error: { status: 409, body: { message: 'quote refused', message_type: 'error' } },
    },
    { type: 'factoring.retry' },
    { type: 'factoring.choose', instalments: CHOSEN_INSTALMENTS },
    { type: 'factoring.transfer' },
    { type: 'factoring.close' },
    {
      type: 'xstate.done.actor.transferFactoring',
      output: { message: 'ok', message_type: 'success', factoring_request_id: 1 },
    },
    {
      type: 'xstate.error.actor.transferFactoring',
      error: { status: 409, body: { message: 'line', message_type: 'error' }, fault: 'lineExhausted' },
    },
    {
      type: 'xstate.error.actor.transferFactoring',
      error: { status: 409, body: { message: 'quote', message_type: 'error' }, fault: 'quoteChanged' },
    },
    { type: 'xstate.error.actor.transferFactoring', error: { status: 500, body: null } },
    { type: 'xstate.error.actor.transferFactoring', error: { status: 0, body: null } },
    { type: 'xstate.error.actor.transferFactoring', error: { status: 401, body: SESSION_ENDED_BODY } },
    { type: 'dialog.close' },
  ],
};
