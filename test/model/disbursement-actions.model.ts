import type { BackOfficeIntent } from '../../src/machines/back-office-action';
import { disbursementActionsMachine } from '../../src/machines/disbursement-actions.machine';
import type { MachineModel } from './harness/model';

/** Symbolic: each path's executors tick the path's own approved advances and upload to its own batch. */
const createBatch: BackOfficeIntent = { action: 'createBatch', id: null, label: 'Lote nuevo', input: [1] };
const upload: BackOfficeIntent = { action: 'upload', id: 1, label: 'lote 1', input: null };

// «Crear lote» (one click, the ticked advances) and «Cargar resultado del banco» (the file chooser is the form;
// choosing the file sends it). The server: acts, refuses after a concurrent change (another tesorería batched the
// advance first: 409), or acts while its answer is lost (the retry carries the same Idempotency-Key). The layout
// download is the screen test's (test/screens/operator-disbursements.test.tsx).
export const disbursementActionsModel: MachineModel = {
  id: 'disbursement-actions',
  machine: disbursementActionsMachine,
  events: [
    { type: 'action.run', intent: createBatch },
    { type: 'action.open', intent: upload },
    { type: 'action.submit', input: 'resultado.csv' },
    { type: 'action.cancel' },
    { type: 'action.retry' },
    { type: 'xstate.done.actor.act', output: 'Lote creado.' },
    { type: 'xstate.error.actor.act', error: { status: 0, body: null } },
    { type: 'xstate.error.actor.act', error: { status: 409, body: { detail: 'refused' } } },
  ],
  waivers: {
    'disbursement-actions.ready.succeeded|outcome.dismiss|0':
      'the notice stays until the next gesture, as it did before the machine: the page has no dismiss control',
    'disbursement-actions.ready.refused|outcome.dismiss|0':
      'the refusal stays until the next gesture, as it did before the machine: the page has no dismiss control',
    'disbursement-actions.acting|xstate.error.actor.act|1':
      "the page's calls have no form fields: a batch is the ticked advances and the bank's file is refused line by " +
      'line (its reasons, not fields), so no 400 at a field reaches the screen',
  },
};
