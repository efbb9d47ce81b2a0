import type { EventObject } from 'xstate';
import { type DeskItemEvent, deskItemMachine } from '../../src/machines/desk-item.machine';
import type { MachineModel } from './harness/model';

export const DESK_REJECT_REASON = 'Falta el estado de cuenta del proveedor';
export const BANK_RETURN_REASON = 'Cuenta inexistente';

/** One partition per gesture: the aprobador's, tesorería's, the bank's file lines and the provider's new request. */
export const DESK_ITEM_EVENTS = [
  { type: 'desk.approve', failingChecks: 0 },
  // The automation's approval (`ops disburse --force`): recorded with the check that fails.
  { type: 'desk.approve', failingChecks: 1, force: true },
  { type: 'desk.reject', reason: DESK_REJECT_REASON },
  { type: 'desk.batch' },
  { type: 'bank.settle' },
  { type: 'bank.return', reason: BANK_RETURN_REASON },
  { type: 'desk.requeue' },
] as const satisfies readonly DeskItemEvent[];

/** Guard-failing partitions the test tries at every state: the server must refuse them too. */
export const REFUSED_DESK_EVENTS = [
  // A failing check (the model test removes the provider's CLABE for it).
  { type: 'desk.approve', failingChecks: 1 },
  { type: 'desk.reject', reason: '   ' },
] as const satisfies readonly DeskItemEvent[];

export const deskItemModel: MachineModel = {
  id: 'desk-item',
  machine: deskItemMachine,
  events: DESK_ITEM_EVENTS as readonly EventObject[],
};
