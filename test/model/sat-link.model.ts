import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { SatStatus } from '../../src/domain/sat-status';
import { satLinkMachine } from '../../src/machines/sat-link.machine';
import type { MachineModel } from './harness/model';

/** The RFC the model's submit event carries; the test types a fresh one per path (RFCs are unique). */
export const MODEL_RFC = 'MOVE800101ST2';
export const MODEL_CIEC = 'Cl4veCIEC';

/** The server's 400 when the typed RFC already belongs to another company (its field error on `rfc`). */
export const RFC_TAKEN_BODY = { rfc: ['Este RFC ya está vinculado a otra cuenta.'] };

/** An access token the server no longer accepts. */
export const SESSION_ENDED_BODY = {
  detail: 'Las credenciales de autenticación no se proveyeron o expiraron.',
};

const status = (code: number) => ({
  sat_credentials_status: code,
  rfc: code === SatStatus.DONT_SENT ? null : MODEL_RFC,
});

// Load and poll: each status the server can hold, and a failed call. Submit: accepted, a field rejected,
// server error, no response, session over.
export const satLinkModel: MachineModel = {
  id: 'sat-link',
  machine: satLinkMachine,
  input: { satCredentials: SatStatus.DONT_SENT },
  // The status is what the routing guards read; four values keep the model finite.
  abstract: (s: AnyMachineSnapshot) => ({ value: s.value, status: (s.context as { status: number }).status }),
  events: [
    { type: 'xstate.done.actor.loadStatus', output: status(SatStatus.DONT_SENT) },
    { type: 'xstate.done.actor.loadStatus', output: status(SatStatus.UNAUTHORIZED) },
    { type: 'xstate.done.actor.loadStatus', output: status(SatStatus.SENT) },
    { type: 'xstate.done.actor.loadStatus', output: status(SatStatus.AUTHORIZED) },
    { type: 'xstate.error.actor.loadStatus', error: { status: 500, body: { detail: 'Error interno' } } },
    { type: 'satLink.submit', values: { rfc: MODEL_RFC, ciec: MODEL_CIEC } },
    { type: 'satLink.dismiss' },
    { type: 'xstate.done.actor.submitTaxLink', output: {} },
    { type: 'xstate.error.actor.submitTaxLink', error: { status: 400, body: RFC_TAKEN_BODY } },
    { type: 'xstate.error.actor.submitTaxLink', error: { status: 500, body: { detail: 'Error interno' } } },
    { type: 'xstate.error.actor.submitTaxLink', error: { status: 0, body: null } },
    { type: 'xstate.error.actor.submitTaxLink', error: { status: 401, body: SESSION_ENDED_BODY } },
    { type: 'xstate.done.actor.pollStatus', output: status(SatStatus.SENT) },
    { type: 'xstate.done.actor.pollStatus', output: status(SatStatus.UNAUTHORIZED) },
    { type: 'xstate.done.actor.pollStatus', output: status(SatStatus.AUTHORIZED) },
    { type: 'xstate.error.actor.pollStatus', error: { status: 0, body: null } },
  ] as readonly EventObject[],
};
