import type { EventObject } from 'xstate';
import {
  type UnidentifiedEvent,
  unidentifiedPaymentMachine,
} from '../../src/machines/unidentified-payment.machine';
import type { MachineModel } from './harness/model';

export const REJECT_REASON = 'La factura no es de ese corporativo';
export const RETURN_REASON = 'El ordenante no tiene relación con Flujo';

/** One partition per gesture: assign within and above the threshold, a different aprobador's approval, the rest. */
export const UNIDENTIFIED_EVENTS = [
  { type: 'payment.assign', amount: 3_000_00 },
  { type: 'payment.assign', amount: 60_000_00 },
  { type: 'payment.approve', byProposer: false },
  { type: 'payment.reject', reason: REJECT_REASON },
  { type: 'payment.return', reason: RETURN_REASON },
] as const satisfies readonly UnidentifiedEvent[];

/** Guard-failing partitions tried at every state: who proposed approving, and blank reasons. */
export const REFUSED_UNIDENTIFIED_EVENTS = [
  { type: 'payment.approve', byProposer: true },
  { type: 'payment.reject', reason: '  ' },
  { type: 'payment.return', reason: '' },
] as const satisfies readonly UnidentifiedEvent[];

export const unidentifiedPaymentModel: MachineModel = {
  id: 'unidentified-payment',
  machine: unidentifiedPaymentMachine,
  events: UNIDENTIFIED_EVENTS as readonly EventObject[],
};
