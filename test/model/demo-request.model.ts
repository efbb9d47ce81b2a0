import type { EventObject } from 'xstate';
import type { DemoRequest } from '../../src/domain/schemas/session';
import { DEMO_REQUEST_SENT, demoRequestMachine } from '../../src/machines/demo-request.machine';
import type { MachineModel } from './harness/model';

export const VALID_DEMO_REQUEST: DemoRequest = {
  first_name: 'Ana',
  last_name: 'Torres',
  phone: '5598765432',
  email: 'ana.torres@example.mx',
  company: 'Maquiladora Norte',
};

/** The server's real 400 shape for this call (see test/api/demo-request.test.ts). */
export const REJECTED_BY_SERVER = { errors: { email: ['Debe ser un correo valido'] } };

// One payload per partition of the call's outcome: stored, rejected per field, server failure, no response.
export const demoRequestModel: MachineModel = {
  id: 'demo-request',
  machine: demoRequestMachine,
  events: [
    { type: 'demo.submit', values: VALID_DEMO_REQUEST },
    { type: 'demo.dismiss' },
    { type: 'xstate.done.actor.submitDemoRequest', output: { message: DEMO_REQUEST_SENT } },
    { type: 'xstate.error.actor.submitDemoRequest', error: { status: 400, body: REJECTED_BY_SERVER } },
    {
      type: 'xstate.error.actor.submitDemoRequest',
      error: { status: 500, body: { detail: 'Error interno' } },
    },
    { type: 'xstate.error.actor.submitDemoRequest', error: { status: 0, body: null } },
  ] as readonly EventObject[],
};
