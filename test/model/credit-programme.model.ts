import type { AnyMachineSnapshot, EventObject } from 'xstate';
import {
  type CreditProgrammeContext,
  type CreditProgrammeEvent,
  creditProgrammeMachine,
  type ProgrammeActor,
} from '../../src/machines/credit-programme.machine';
import type { MachineModel } from './harness/model';

/**
 * The model's operators. Their ids are symbolic: the test maps each onto a real operator it creates (with the
 * roles given here), so the model and its diagram never depend on database ids.
 */
export const MODEL_OPERATORS = {
  analista: { userId: 1, roles: ['analista'] },
  aprobador: { userId: 2, roles: ['aprobador'] },
  otherAprobador: { userId: 3, roles: ['aprobador'] },
  tesoreria: { userId: 4, roles: ['tesoreria'] },
  auditor: { userId: 5, roles: ['auditor'] },
} as const satisfies Record<string, ProgrammeActor>;

/** The programme's end in the model; 'expire' is the business date moving one day past it. */
export const MODEL_ENDS_ON = '2026-12-31';
export const MODEL_AFTER_END = '2027-01-01';

export const FREEZE_REASON = 'Pagos atrasados del corporativo';
export const UNFREEZE_REASON = 'El corporativo se puso al corriente';

export const PROGRAMME_EVENTS = [
  { type: 'programme.propose', actor: MODEL_OPERATORS.analista },
  { type: 'programme.propose', actor: MODEL_OPERATORS.aprobador },
  // The aprobador who may have proposed, and one who never does: four eyes decide between them.
  { type: 'programme.approve', actor: MODEL_OPERATORS.aprobador },
  { type: 'programme.approve', actor: MODEL_OPERATORS.otherAprobador },
  { type: 'programme.freeze', actor: MODEL_OPERATORS.aprobador, reason: FREEZE_REASON },
  // Without overdueCollected: what an aprobador sends while the buyer still owes (refused when delinquent).
  { type: 'programme.unfreeze', actor: MODEL_OPERATORS.otherAprobador, reason: UNFREEZE_REASON },
  // The overdue collected first (a collection of what the late invoice owes), then «Descongelar».
  {
    type: 'programme.unfreeze',
    actor: MODEL_OPERATORS.otherAprobador,
    reason: UNFREEZE_REASON,
    overdueCollected: true,
  },
  // The day's collections run finds an advanced invoice past due + grace (decision 0068).
  { type: 'programme.delinquent', reason: 'morosidad' },
  { type: 'programme.expire', today: MODEL_AFTER_END },
] as const satisfies readonly CreditProgrammeEvent[];

/** Gestures the guards refuse in every state: the test tries each at every state, on the machine and the server. */
export const REFUSED_PROGRAMME_EVENTS = [
  { type: 'programme.propose', actor: MODEL_OPERATORS.tesoreria },
  { type: 'programme.propose', actor: MODEL_OPERATORS.auditor },
  { type: 'programme.approve', actor: MODEL_OPERATORS.analista },
  { type: 'programme.freeze', actor: MODEL_OPERATORS.analista, reason: FREEZE_REASON },
  { type: 'programme.freeze', actor: MODEL_OPERATORS.aprobador, reason: ' ' },
  { type: 'programme.unfreeze', actor: MODEL_OPERATORS.auditor, reason: UNFREEZE_REASON },
] as const satisfies readonly CreditProgrammeEvent[];

export const MODEL_INPUT: CreditProgrammeContext = { proposerId: null, endsOn: MODEL_ENDS_ON };

export const creditProgrammeModel: MachineModel = {
  id: 'credit-programme',
  machine: creditProgrammeMachine,
  input: MODEL_INPUT,
  // Guards read who proposed the pending limit; the end date never changes in the model.
  abstract: (snapshot: AnyMachineSnapshot) => ({
    value: snapshot.value,
    proposerId: (snapshot.context as CreditProgrammeContext).proposerId,
  }),
  events: PROGRAMME_EVENTS as readonly EventObject[],
};
