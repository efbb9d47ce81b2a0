import type { AnyMachineSnapshot } from 'xstate';
import { PROGRAMME_REFUSALS } from '../../server/modules/credit-programmes/credit-programmes.service';
import type { BackOfficeActionContext, BackOfficeIntent } from '../../src/machines/back-office-action';
import { programmeActionsMachine } from '../../src/machines/programme-actions.machine';
import type { MachineModel } from './harness/model';

// /operacion/programas/'s gestures, two of them: «Aprobar» (one click, on a fresh corporate's pending limit) and
// «Registrar cobro» (a form, on an advanced invoice of the demo programme), both money calls with an
// Idempotency-Key. Ids and labels are symbolic: the test maps them onto the path's own programme and invoice.

export const APPROVE_INTENT: BackOfficeIntent = {
  action: 'approve',
  id: 1,
  label: 'Corporativo del modelo',
  input: null,
};
export const COLLECT_INTENT: BackOfficeIntent = { action: 'collect', id: 2, label: 'M-1', input: null };

/** The form as the operator sends it: the amount the invoice still uses, a clave de rastreo, today. */
export const COLLECTION_INPUT = { amount: 'lo que la factura aún usa', clave_rastreo: 'COBRO', fecha: 'hoy' };

/** The server's 400 after another treasurer recorded the whole payment meanwhile: nothing remains to collect. */
export const AMOUNT_REFUSED = {
  status: 400,
  body: { amount: ['El monto excede lo que falta por cobrar de esta factura.'] },
};

/** A refusal without fields: for «Aprobar», another aprobador approved the limit first. */
export const ACTION_REFUSED = { status: 409, body: { detail: PROGRAMME_REFUSALS.nothingPending } };

export const programmeActionsModel: MachineModel = {
  id: 'programme-actions',
  machine: programmeActionsMachine,
  // While a call is out, which gesture it is (a one-click approval or a form) decides what its outcomes show.
  abstract: (snapshot: AnyMachineSnapshot) => {
    const { intent } = snapshot.context as BackOfficeActionContext;
    return snapshot.matches('acting') ? { value: snapshot.value, action: intent?.action } : snapshot.value;
  },
  events: [
    { type: 'action.run', intent: APPROVE_INTENT },
    { type: 'action.open', intent: COLLECT_INTENT },
    { type: 'action.submit', input: COLLECTION_INPUT },
    { type: 'xstate.done.actor.act', output: 'Hecho.' },
    { type: 'xstate.error.actor.act', error: { status: 0, body: null } },
    { type: 'xstate.error.actor.act', error: AMOUNT_REFUSED },
    { type: 'xstate.error.actor.act', error: ACTION_REFUSED },
    { type: 'action.retry' },
    { type: 'action.cancel' },
    { type: 'outcome.dismiss' },
  ],
};
