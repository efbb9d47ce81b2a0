import { collectionActionsMachine } from '../../src/machines/collection-actions.machine';
import type { MachineModel } from './harness/model';

// /operacion/cobranza/: «Asignar» an unidentified payment (the form: the invoice's id) and «Aprobar» another
// one proposed by a different operator (one click); each saved (the real server), refused (500), or without an
// answer after the server saved (the retry carries the same Idempotency-Key). The bank statement's upload, the
// «Rechazar» and «Aplicar saldo a favor» forms run through the same transitions and are not separate paths.
export const collectionActionsModel: MachineModel = {
  id: 'collection-actions',
  machine: collectionActionsMachine,
  events: [
    { type: 'action.open', intent: { action: 'assign', id: 1, label: 'pago MODELO1', input: null } },
    { type: 'action.run', intent: { action: 'approve', id: 2, label: 'pago MODELO2', input: null } },
    { type: 'action.submit', input: { invoice_id: 1 } },
    { type: 'xstate.done.actor.act', output: 'El pago MODELO1 se aplicó a la factura 1.' },
    { type: 'xstate.error.actor.act', error: { status: 500, body: { detail: 'Error interno' } } },
    { type: 'xstate.error.actor.act', error: { status: 0, body: null } },
    { type: 'action.retry' },
    { type: 'action.cancel' },
  ],
  waivers: {
    'collection-actions.ready.succeeded|outcome.dismiss|0':
      'the collections screen shows its notice without «Cerrar aviso»: the notice stays until the next gesture',
    'collection-actions.ready.refused|outcome.dismiss|0':
      'the collections screen shows its refusal without «Cerrar aviso»: the alert stays until the next gesture',
    'collection-actions.acting|xstate.error.actor.act|1':
      'a 400 at a field would also be sent after «Aprobar», whose call has no fields (the server refuses an ' +
      'approval with its detail, 404 or 409) and whose editing state the screen draws no form for; the generator ' +
      'cannot keep the partition to «Asignar» alone, so no path sends it',
  },
};
