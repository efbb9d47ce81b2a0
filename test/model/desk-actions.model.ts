import type { BackOfficeIntent } from '../../src/machines/back-office-action';
import { deskActionsMachine } from '../../src/machines/desk-actions.machine';
import type { MachineModel } from './harness/model';

/** The reason the aprobador types in the 'Rechazar' dialog. */
export const DESK_ACTIONS_REJECT_REASON = 'El proveedor debe enviar su estado de cuenta';

/** Symbolic: each path's executors act on the path's own advances (test/support/control-desk.ts). */
const ADVANCE = { id: 1, label: 'A-1' } as const;
const approve: BackOfficeIntent = { action: 'approve', ...ADVANCE, input: null };
const reject: BackOfficeIntent = { action: 'reject', ...ADVANCE, input: null };

// «Aprobar» (one click) and «Rechazar» (its reason dialog). The server: acts, refuses after a concurrent change
// (another aprobador rejected the advance first: it left the desk's queue, 404), or acts while its answer is lost
// (the retry carries the same Idempotency-Key).
export const deskActionsModel: MachineModel = {
  id: 'desk-actions',
  machine: deskActionsMachine,
  events: [
    { type: 'action.run', intent: approve },
    { type: 'action.open', intent: reject },
    { type: 'action.submit', input: { reason: DESK_ACTIONS_REJECT_REASON } },
    { type: 'action.cancel' },
    { type: 'action.retry' },
    { type: 'xstate.done.actor.act', output: null },
    { type: 'xstate.error.actor.act', error: { status: 0, body: null } },
    { type: 'xstate.error.actor.act', error: { status: 404, body: { detail: 'refused' } } },
  ],
  waivers: {
    'desk-actions.ready.succeeded|outcome.dismiss|0':
      'the desk shows no notice after a decision (the row changes), so there is nothing to dismiss',
    'desk-actions.ready.refused|outcome.dismiss|0':
      'the refusal stays above the list until the next gesture, as it did before the machine: no dismiss control',
    'desk-actions.acting|xstate.error.actor.act|1':
      "the reason is checked in the browser by the server's own struct (DeskRejectBody), so no 400 at a field " +
      'reaches the screen',
  },
};
