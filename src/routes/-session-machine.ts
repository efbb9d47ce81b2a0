import { fromPromise } from 'xstate';
import { homePathFor, landingRole } from '../domain/dashboard-home';
import { type LoginAttempt, tokenExpiryMs } from '../domain/session';
import { type SessionTokens, type StoredSession, sessionMachine } from '../machines/session.machine';
import { login, logout } from '../services/accounts.service';
import { loginCredentials } from '../services/captcha.service';
import { setTokenRenewer } from '../services/http';
import { navigateTo, signedOutDestination } from '../services/navigation';
import { refreshSessionTokens, storeTokens } from '../services/session-tokens';
import { ACCESS_TOKEN_KEY } from '../stores/storage-keys';
import { clearSession, setUser, userStore } from '../stores/user.store';

// The session's wiring to the real services, storage and navigation, in a module of its own so the
// prerendered login page (src/routes/-public/login-page.tsx) loads it without the rest of the app's wiring.

// Calls made with an expiring token renew it first, the same way the session's timer does (one renewal
// for all tabs); the machine's next timed refresh then finds the rotated pair already stored.
setTokenRenewer(async (expiringAccessToken) => (await refreshSessionTokens(expiringAccessToken)).access);

/** The session this browser holds at load; a stored token that cannot be decoded is logged (spec §8). */
export function readStoredSession(): StoredSession {
  const accessToken = localStorage.getItem(ACCESS_TOKEN_KEY);
  // The machine treats it as expired (src/domain stays free of logging); the log says why a stored
  // session was dropped.
  if (accessToken && tokenExpiryMs(accessToken) === null) {
    console.warn('stored access token cannot be decoded; treated as expired');
  }
  return { accessToken };
}

export const wiredSessionMachine = sessionMachine.provide({
  actors: {
    readStoredSession: fromPromise<StoredSession>(async () => readStoredSession()),
    login: fromPromise<SessionTokens, LoginAttempt>(async ({ input }) =>
      login(await loginCredentials(input)),
    ),
    refreshSession: fromPromise<SessionTokens, { accessToken: string | null }>(({ input }) =>
      refreshSessionTokens(input.accessToken),
    ),
    revokeSession: fromPromise<void>(() => logout()),
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
    clearStorage: () => clearSession(),
    logRefreshFailure: (_, { error }) => console.warn('session refresh failed; retrying', error),
    // Read after persistSession wrote this login's flags.
    goToLanding: () => {
      setUser({ role: landingRole(userStore) });
      navigateTo(homePathFor(userStore.role), { replace: true });
    },
    endSession: () => {
      localStorage.clear();
      window.location.assign(signedOutDestination());
    },
  },
});
