import type { AnyMachineSnapshot } from 'xstate';
import type { BackOfficeActionContext, BackOfficeIntent } from '../../src/machines/back-office-action';
import { deskActionsMachine } from '../../src/machines/desk-actions.machine';
import type { MachineModel } from './harness/model';

/** The reason the aprobador types in the 'Rechazar' dialog. */
export const DESK_ACTIONS_REJECT_REASON = 'El proveedor debe enviar su estado de cuenta';

/** Symbolic: what the open dialog sends (the approval's confirmation, or the rejection's reason). */
const SUBMIT_INPUT = 'la confirmación, o el motivo del rechazo';

/** Symbolic: each path's executors act on the path's own advances (test/support/control-desk.ts). */
const ADVANCE = { id: 1, label: 'A-1' } as const;
const approve: BackOfficeIntent = { action: 'approve', ...ADVANCE, input: null };
const reject: BackOfficeIntent = { action: 'reject', ...ADVANCE, input: null };

// «Aprobar» (its confirmation: the amount and the beneficiary) and «Rechazar» (its reason dialog), each ending
// with the outcome notice and its «Cerrar aviso». The server: acts, refuses after a concurrent change (another
// aprobador rejected the advance first: it left the desk's queue, 404), or acts while its answer is lost (the
// retry carries the same Idempotency-Key).
export const deskActionsModel: MachineModel = {
  id: 'desk-actions',
  machine: deskActionsMachine,
  // While a dialog is open or a call is out, which gesture it is decides what the screen shows.
  abstract: (snapshot: AnyMachineSnapshot) => {
    const { intent } = snapshot.context as BackOfficeActionContext;
    return snapshot.matches('ready') ? snapshot.value : { value: snapshot.value, action: intent?.action };
  },
  events: [
    { type: 'action.open', intent: approve },
    { type: 'action.open', intent: reject },
    { type: 'action.submit', input: SUBMIT_INPUT },
    { type: 'action.cancel' },
    { type: 'action.retry' },
    { type: 'xstate.done.actor.act', output: 'Hecho.' },
    { type: 'xstate.error.actor.act', error: { status: 0, body: null } },
    { type: 'xstate.error.actor.act', error: { status: 404, body: { detail: 'refused' } } },
    { type: 'outcome.dismiss' },
  ],
  waivers: {
    'desk-actions.ready|action.run|0':
      'the desk has no one-click gesture: «Aprobar» opens its confirmation first (issue 33)',
    'desk-actions.acting|xstate.error.actor.act|1':
      "the reason is checked in the browser by the server's own struct (DeskRejectBody), so no 400 at a field " +
      'reaches the screen',
  },
};
