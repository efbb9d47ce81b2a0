import { fromPromise } from 'xstate';
import type { DemoRequest } from '../domain/schemas/session';
import { demoRequestMachine } from '../machines/demo-request.machine';
import { requestDemo } from '../services/accounts.service';

// Kept apart from -machines.ts so the prerendered public pages can wire the demo form without pulling in
// the session and sign-up machines.

/** Which page a demo request came from; the server stores it (accounts.routes.ts DEMO_REQUEST_SOURCES). */
export type DemoRequestSource = 'solicitar-demo' | 'alianzas-corporativas';

export function demoRequestMachineFor(source: DemoRequestSource) {
  return demoRequestMachine.provide({
    actors: {
      submitDemoRequest: fromPromise<unknown, DemoRequest>(({ input }) => requestDemo(input, source)),
    },
  });
}

export const wiredDemoRequestMachine = demoRequestMachineFor('solicitar-demo');

/** Spec §2 says the alliances page's corporate form had no handler; it submits like the demo page. */
export const wiredAlliancesDemoRequestMachine = demoRequestMachineFor('alianzas-corporativas');
