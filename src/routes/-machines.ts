import { fromPromise } from 'xstate';
import type { DemoRequest } from '../domain/schemas/session';
import { demoRequestMachine } from '../machines/demo-request.machine';
import { requestDemo } from '../services/accounts.service';

// Routes wire machines to the real services; tests render the same wired machines against MSW.
// (The '-' prefix keeps this file out of the route tree.)
export const wiredDemoRequestMachine = demoRequestMachine.provide({
  actors: { submitDemoRequest: fromPromise<unknown, DemoRequest>(({ input }) => requestDemo(input)) },
});
