import type { EventObject } from 'xstate';
import { type CfdiProofEvent, cfdiProofMachine } from '../../src/machines/cfdi-proof.machine';
import type { MachineModel } from './harness/model';

export const SEAL_REFUSAL_REASON = 'El sello no corresponde a la cadena original.';

/** One partition per answer: the seal check's, SAT's status query (both ways it fails) and the 69-B list's. */
export const CFDI_PROOF_EVENTS = [
  { type: 'seal.verified' },
  { type: 'seal.refused', reason: SEAL_REFUSAL_REASON },
  { type: 'seal.missing' },
  { type: 'sat.vigente' },
  { type: 'sat.cancelado' },
  { type: 'sat.noEncontrado' },
  { type: 'sat.unavailable', cause: 'timeout' },
  { type: 'sat.unavailable', cause: 'error' },
  { type: 'efos.listed', situation: 'Presunto' },
  { type: 'efos.listed', situation: 'Definitivo' },
  { type: 'sat.recheck' },
] as const satisfies readonly CfdiProofEvent[];

/** Guard-failing partitions the test tries at every state: they must be refused and change nothing. */
export const REFUSED_CFDI_PROOF_EVENTS = [
  { type: 'seal.refused', reason: '   ' },
] as const satisfies readonly CfdiProofEvent[];

export const cfdiProofModel: MachineModel = {
  id: 'cfdi-proof',
  machine: cfdiProofMachine,
  events: CFDI_PROOF_EVENTS as readonly EventObject[],
};
