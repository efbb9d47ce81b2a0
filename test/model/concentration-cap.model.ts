import type { AnyMachineSnapshot, EventObject } from 'xstate';
import {
  type CapActor,
  type ConcentrationCapContext,
  type ConcentrationCapEvent,
  concentrationCapMachine,
} from '../../src/machines/concentration-cap.machine';
import type { MachineModel } from './harness/model';

/** Symbolic operators: the test maps each onto a real operator with these roles. */
export const CAP_OPERATORS = {
  analista: { userId: 1, roles: ['analista'] },
  aprobador: { userId: 2, roles: ['aprobador'] },
  otherAprobador: { userId: 3, roles: ['aprobador'] },
  auditor: { userId: 4, roles: ['auditor'] },
} as const satisfies Record<string, CapActor>;

export const CAP_EVENTS = [
  { type: 'cap.propose', actor: CAP_OPERATORS.aprobador },
  { type: 'cap.propose', actor: CAP_OPERATORS.analista },
  // The aprobador who may have proposed, and one who never does: four eyes decide between them.
  { type: 'cap.approve', actor: CAP_OPERATORS.aprobador },
  { type: 'cap.approve', actor: CAP_OPERATORS.otherAprobador },
  { type: 'cap.reject', actor: CAP_OPERATORS.otherAprobador },
  { type: 'cap.supersede' },
] as const satisfies readonly ConcentrationCapEvent[];

/** Gestures refused in every state: tried at each state on the machine and the server. */
export const REFUSED_CAP_EVENTS = [
  { type: 'cap.propose', actor: CAP_OPERATORS.auditor },
  { type: 'cap.approve', actor: CAP_OPERATORS.analista },
  { type: 'cap.reject', actor: CAP_OPERATORS.analista },
] as const satisfies readonly ConcentrationCapEvent[];

export const concentrationCapModel: MachineModel = {
  id: 'concentration-cap',
  machine: concentrationCapMachine,
  abstract: (snapshot: AnyMachineSnapshot) => ({
    value: snapshot.value,
    proposerId: (snapshot.context as ConcentrationCapContext).proposerId,
  }),
  events: CAP_EVENTS as readonly EventObject[],
};
