import { fromPromise } from 'xstate';
import { paths } from '../domain/paths';
import type { SignUpRequest } from '../domain/schemas/session';
import type { satLinkMachine } from '../machines/sat-link.machine';
import { signUpMachine } from '../machines/sign-up.machine';
import { register } from '../services/accounts.service';
import { solveCaptcha } from '../services/captcha.service';
import { navigateTo } from '../services/navigation';

// Routes wire machines to the real services, storage and navigation; tests render the same wired
// machines against MSW. (The '-' prefix keeps this file out of the route tree.)

// The demo form's and the session's wiring live in their own modules so the prerendered pages can load
// them alone.
export { wiredDemoRequestMachine } from './-demo-request-machines';
export { readStoredSession, wiredSessionMachine } from './-session-machine';

export const wiredSignUpMachine = signUpMachine.provide({
  actors: {
    obtainCaptcha: fromPromise<string>(() => solveCaptcha('register')),
    register: fromPromise<unknown, SignUpRequest>(({ input }) => register(input)),
  },
  actions: { goToLogin: () => navigateTo(`${paths.login}?registro=exitoso`, { replace: true }) },
});

/** Machines a router context may replace (tests); routes fall back to the wired ones above. */
export interface MachineOverrides {
  signUp?: typeof wiredSignUpMachine;
  /** Tests shorten the SAT-link poll interval. */
  satLink?: typeof satLinkMachine;
}
