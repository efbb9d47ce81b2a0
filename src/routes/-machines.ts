import { fromPromise } from 'xstate';
import type { LoginRequest, SignUpRequest } from '../domain/schemas/session';
import type { satLinkMachine } from '../machines/sat-link.machine';
import { type SessionTokens, type StoredSession, sessionMachine } from '../machines/session.machine';
import { signUpMachine } from '../machines/sign-up.machine';
import { login, register } from '../services/accounts.service';
import { solveCaptcha } from '../services/captcha.service';
import { setTokenRenewer } from '../services/http';
import { navigateTo } from '../services/navigation';
import { refreshSessionTokens, storeTokens } from '../services/session-tokens';
import { ACCESS_TOKEN_KEY } from '../stores/storage-keys';
import { resetUser, setUser } from '../stores/user.store';

// Routes wire machines to the real services, storage and navigation; tests render the same wired
// machines against MSW. (The '-' prefix keeps this file out of the route tree.)

// The demo form's wiring lives in its own module so the prerendered public pages can load it alone.
export { wiredDemoRequestMachine } from './-demo-request-machines';

/** Where a successful login lands: the provider alliances list (spec §4), history replaced. */
export const ALLIANCES_PATH = '/dashboard/pronto-pago/';

// Calls made with an expiring token renew it first, the same way the session's timer does (one renewal
// for all tabs); the machine's next timed refresh then finds the rotated pair already stored.
setTokenRenewer(async (expiringAccessToken) => (await refreshSessionTokens(expiringAccessToken)).access);

export const wiredSessionMachine = sessionMachine.provide({
  actors: {
    readStoredSession: fromPromise<StoredSession>(async () => ({
      accessToken: localStorage.getItem(ACCESS_TOKEN_KEY),
    })),
    login: fromPromise<SessionTokens, LoginRequest>(({ input }) => login(input)),
    refreshSession: fromPromise<SessionTokens, { accessToken: string | null }>(({ input }) =>
      refreshSessionTokens(input.accessToken),
    ),
  },
  actions: {
    persistSession: (_, { tokens }) => {
      storeTokens(tokens);
      setUser({
        isAuthenticated: true,
        ...(tokens.sat_credentials_status !== undefined && { satCredentials: tokens.sat_credentials_status }),
        ...(tokens.corporate_can_pay_costs !== undefined && {
          corporate_can_pay_costs: tokens.corporate_can_pay_costs,
        }),
        ...(tokens.has_factoring !== undefined && { hasFactoring: tokens.has_factoring }),
        ...(tokens.is_corporate !== undefined && { isCorporate: tokens.is_corporate }),
      });
    },
    clearStorage: () => {
      localStorage.clear();
      resetUser();
      // resetUser re-persists the signed-out user; spec §2: logging out leaves local storage empty.
      localStorage.clear();
    },
    logRefreshFailure: (_, { error }) => console.warn('session refresh failed; retrying', error),
    goToAlliances: () => {
      setUser({ role: 'provider' });
      navigateTo(ALLIANCES_PATH, { replace: true });
    },
    endSession: () => {
      localStorage.clear();
      window.location.assign('/');
    },
  },
});

export const wiredSignUpMachine = signUpMachine.provide({
  actors: {
    obtainCaptcha: fromPromise<string>(() => solveCaptcha('register')),
    register: fromPromise<unknown, SignUpRequest>(({ input }) => register(input)),
  },
  actions: { goToLogin: () => navigateTo('/auth/ingresar/?registro=exitoso', { replace: true }) },
});

/** Machines a router context may replace (tests); routes fall back to the wired ones above. */
export interface MachineOverrides {
  signUp?: typeof wiredSignUpMachine;
  /** Tests shorten the SAT-link poll interval. */
  satLink?: typeof satLinkMachine;
}
