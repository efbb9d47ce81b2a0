import { screen, waitFor, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { landingRole } from '../../src/domain/dashboard-home';
import type { LoginResponse } from '../../src/domain/schemas/session';
import { INVALID_REFRESH_TOKEN } from '../../src/domain/session';
import type { StoredSession } from '../../src/machines/session.machine';
import { readStoredSession, wiredSessionMachine } from '../../src/routes/-machines';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY, USER_STORE_KEY } from '../../src/stores/storage-keys';
import { clearSession, setUser, type UserState, userStore } from '../../src/stores/user.store';
import { dashboardHeading } from '../screens/session.page';
import { SERVER_WAIT } from '../support/server-wait';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp, signInAs } from './harness/render-app';
import { callServer, forwardToServer } from './harness/test-server';
import { world } from './harness/world';
import { STORED, sessionModel } from './session.model';

// The real delays are 3 s (toast), "one minute before expiry" (about 4 min) and 15 s (refresh retry);
// the model only needs them to be observable, not long.
const DELAYS = { ERROR_TOAST_MS: 700, REFRESH_DELAY: 1500, REFRESH_RETRY_MS: 1000 };

interface Ctx {
  login: ReturnType<typeof gateEndpoint>;
  refresh: ReturnType<typeof gateEndpoint>;
  logout: ReturnType<typeof gateEndpoint>;
  releaseStorage: () => void;
  storageRead: Promise<void>;
  assign: ReturnType<typeof vi.spyOn>;
  /** console.warn, recorded: spec §8 logs an undecodable token and a refresh that will be retried. */
  warn: ReturnType<typeof vi.spyOn>;
  /** The access token the model seeded before the session read storage. */
  seeded: string | null;
  /** The last login answer the server gave, whose flags the stored user must carry. */
  loginAnswer: LoginResponse | null;
}

const UNDECODABLE_WARNING = 'stored access token cannot be decoded; treated as expired';

async function providerCredentials(): Promise<{ username: string; password: string }> {
  const { provider } = await world.parties();
  return { username: provider.username, password: provider.password };
}

/** Spec §3 "Session user" as the session stores it after this login answer (the view it lands on, decision 0065). */
function userAfterLogin(answer: LoginResponse): UserState {
  const flags = { isCorporate: answer.is_corporate!, satCredentials: answer.sat_credentials_status! };
  return {
    role: landingRole(flags),
    satCredentials: answer.sat_credentials_status!,
    corporate_can_pay_costs: answer.corporate_can_pay_costs!,
    hasFactoring: answer.has_factoring!,
    isCorporate: answer.is_corporate!,
    isAuthenticated: true,
    operatorRoles: [],
  };
}

defineModelTests<Ctx>(sessionModel, {
  setup: () => {
    let releaseStorage = () => {};
    const storageRead = new Promise<void>((resolve) => {
      releaseStorage = resolve;
    });
    return {
      login: gateEndpoint('post', '/api/accounts/login/'),
      refresh: gateEndpoint('post', '/api/accounts/token/refresh/'),
      logout: gateEndpoint('post', '/api/accounts/logout/'),
      releaseStorage,
      storageRead,
      // A DOM test cannot reload the page; the spy records the reload to '/' the app asks for.
      assign: vi.spyOn(Location.prototype, 'assign').mockImplementation(() => {}),
      warn: vi.spyOn(console, 'warn').mockImplementation(() => {}),
      seeded: null,
      loginAnswer: null,
    };
  },
  render: (ctx) => {
    // The real storage read, held until the model has seeded storage for its partition.
    const session = wiredSessionMachine.provide({
      actors: {
        readStoredSession: fromPromise<StoredSession>(async () => {
          await ctx.storageRead;
          return readStoredSession();
        }),
      },
      delays: DELAYS,
    });
    const { router } = renderApp('/auth/ingresar/', { session });
    // What a reload does: the page's memory starts again from (now empty) storage, then the URL loads.
    ctx.assign.mockImplementation((url: string | URL) => {
      clearSession();
      void router.navigate({ href: String(url) });
    });
  },
  teardown: (ctx) => {
    ctx.assign.mockRestore();
    ctx.warn.mockRestore();
  },
  states: {
    '#session.restoring': async () => {
      expect(await screen.findByLabelText('Cargando…', {}, SERVER_WAIT)).toBeTruthy();
    },
    '#session.unauthenticated.idle': async ({ ctx }) => {
      await waitFor(() => expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull(), SERVER_WAIT);
      expect(userStore.isAuthenticated).toBe(false);
      // Either the login form or, after logging out, the public page's 'Ingresar' link.
      await waitFor(() => expect(screen.getAllByText('Ingresar').length).toBeGreaterThan(0), SERVER_WAIT);
      await waitFor(() => expect(screen.queryAllByRole('alert')).toEqual([]), SERVER_WAIT);
      // Spec §2/§4: a cleared session leaves nothing behind, not even the signed-out user (the stale
      // flags of an expired or undecodable session included).
      expect(localStorage.length).toBe(0);
      // Spec §8: only a token that cannot be decoded is logged; an expired one is an ordinary end.
      const warned = ctx.warn.mock.calls.some((args: unknown[]) => args[0] === UNDECODABLE_WARNING);
      expect(warned).toBe(ctx.seeded === STORED.undecodable);
    },
    '#session.unauthenticated.loggingIn': async () => {
      await waitFor(
        () =>
          expect((screen.getByRole('button', { name: /Ingresar/ }) as HTMLButtonElement).disabled).toBe(true),
        SERVER_WAIT,
      );
    },
    '#session.unauthenticated.failed': async ({ state }) => {
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      expect(alert.textContent).toBe((state.context as { error: string }).error);
      expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
    },
    '#session.authenticated.active': async ({ ctx }) => {
      expect(await dashboardHeading()).toBeTruthy();
      expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeTruthy();
      expect(userStore.isAuthenticated).toBe(true);
      // The flags of the login answer, persisted (a refresh answers the same flags for this user).
      expect(JSON.parse(localStorage.getItem(USER_STORE_KEY) ?? 'null')).toEqual(
        userAfterLogin(ctx.loginAnswer!),
      );
    },
    '#session.authenticated.refreshing': async ({ ctx }) => {
      const request = await ctx.refresh.waitForRequest();
      expect(request.url).toContain('/api/accounts/token/refresh/');
      expect(screen.getByRole('heading', { level: 1, name: 'Pronto Pago' })).toBeTruthy();
    },
    // The logout call is out: the browser still holds the session until the server answers (or does not).
    '#session.authenticated.loggingOut': async ({ ctx }) => {
      const request = await ctx.logout.waitForRequest();
      expect(request.headers.get('authorization')).toBe(`Bearer ${localStorage.getItem(ACCESS_TOKEN_KEY)}`);
      expect(ctx.assign).not.toHaveBeenCalled();
    },
    // A refresh that failed without a 401: still signed in, tokens kept, no reload to '/'.
    '#session.authenticated.retrying': async ({ ctx }) => {
      expect(await dashboardHeading()).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Mi cuenta' })).toBeTruthy();
      expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeTruthy();
      expect(localStorage.getItem(REFRESH_TOKEN_KEY)).toBeTruthy();
      expect(userStore.isAuthenticated).toBe(true);
      expect(ctx.assign).not.toHaveBeenCalled();
    },
  },
  events: {
    'xstate.done.actor.readStoredSession': async ({ ctx, event }) => {
      const { accessToken } = (event as unknown as { output: StoredSession }).output;
      ctx.seeded = accessToken;
      if (accessToken === STORED.valid) {
        const { provider } = await world.parties();
        ctx.loginAnswer = await signInAs(provider.username, provider.password);
      } else if (accessToken) {
        // A stale session from an earlier visit: token and flags still in storage.
        localStorage.setItem(ACCESS_TOKEN_KEY, accessToken);
        setUser({ isAuthenticated: true });
      }
      ctx.releaseStorage();
    },
    'xstate.error.actor.readStoredSession': async ({ ctx }) => {
      const denied = vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
        throw new DOMException('El almacenamiento local está deshabilitado', 'SecurityError');
      });
      ctx.releaseStorage();
      // The app does not hang on its spinner: it falls back to a signed-out session.
      await screen.findByLabelText('Usuario', {}, SERVER_WAIT);
      denied.mockRestore();
    },
    'session.login': async ({ user }) => {
      // The model's credentials are the demo user's; the world's provider is that user in process.
      const credentials = await providerCredentials();
      if (!screen.queryByLabelText('Usuario'))
        await user.click(screen.getByRole('link', { name: 'Ingresar' }));
      const username = await screen.findByLabelText('Usuario', {}, SERVER_WAIT);
      await user.clear(username);
      await user.type(username, credentials.username);
      await user.type(screen.getByLabelText('Contraseña'), credentials.password);
      await user.click(screen.getByRole('button', { name: /Ingresar/ }));
    },
    'xstate.done.actor.login': async ({ ctx }) => {
      // Passed to the real server; its answer is kept to compare with what the session stores.
      const { request, resolve } = await ctx.login.take();
      const response = await forwardToServer(request);
      ctx.loginAnswer = (await response.clone().json()) as LoginResponse;
      resolve(response);
      expect(ctx.login.bodies.at(-1)).toEqual(await providerCredentials());
    },
    'xstate.error.actor.login': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number; body: unknown } };
      if (error.status === 0) await ctx.login.networkError();
      else await ctx.login.respond(error.status, error.body);
    },
    'session.dismissError': async ({ user }) => {
      const toast = (await screen.findByRole('alert', {}, SERVER_WAIT)).closest('.bp6-toast') as HTMLElement;
      await user.click(within(toast).getByRole('button', { name: 'Cerrar' }));
    },
    'xstate.after.ERROR_TOAST_MS.session.unauthenticated.failed': async () => {
      await waitFor(() => expect(screen.queryByRole('alert')).toBeNull(), { timeout: 3000 });
    },
    'session.logout': async ({ ctx, user }) => {
      await user.click(await screen.findByRole('button', { name: 'Mi cuenta' }, SERVER_WAIT));
      await user.click(await screen.findByRole('menuitem', { name: 'Cerrar sesión' }, SERVER_WAIT));
      await ctx.logout.waitForRequest();
    },
    'xstate.done.actor.revokeSession': async ({ ctx }) => {
      const refreshToken = localStorage.getItem(REFRESH_TOKEN_KEY);
      await ctx.logout.pass();
      await waitFor(() => expect(ctx.assign).toHaveBeenCalledWith('/'), SERVER_WAIT);
      expect(localStorage.length).toBe(0);
      // The server ended that login: its refresh token is refused from now on.
      const res = await callServer('POST', '/api/accounts/token/refresh/', {
        body: { refresh: refreshToken },
      });
      expect(res.status).toBe(401);
    },
    'xstate.error.actor.revokeSession': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number; body: unknown } };
      if (error.status === 0) await ctx.logout.networkError();
      else await ctx.logout.respond(error.status, error.body);
      // Signed out all the same: a failed logout never keeps the session in this browser.
      await waitFor(() => expect(ctx.assign).toHaveBeenCalledWith('/'), SERVER_WAIT);
      expect(localStorage.length).toBe(0);
    },
    'xstate.after.REFRESH_DELAY.session.authenticated.active': async ({ ctx }) => {
      await ctx.refresh.waitForRequest();
    },
    'xstate.done.actor.refreshSession': async ({ ctx }) => {
      const before = localStorage.getItem(REFRESH_TOKEN_KEY);
      await ctx.refresh.pass();
      // The server rotated the refresh token; the session stored the new pair.
      await waitFor(() => expect(localStorage.getItem(REFRESH_TOKEN_KEY)).not.toBe(before), SERVER_WAIT);
    },
    'xstate.error.actor.refreshSession': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status?: number; body?: unknown; message?: string } };
      if (error.message === INVALID_REFRESH_TOKEN) {
        // The refresh token left storage while the call was out (a logout in another tab): the rotated
        // pair the server sends back is refused as 'Invalid refresh token' rather than reviving the session.
        localStorage.removeItem(REFRESH_TOKEN_KEY);
        await ctx.refresh.pass();
      } else if (error.status === 0) await ctx.refresh.networkError();
      else await ctx.refresh.respond(error.status!, error.body);
      // Spec §8: a 401 or no refresh token ends the session; the retry state asserts the rest.
      if (error.status === 401 || error.message === INVALID_REFRESH_TOKEN) {
        await waitFor(() => expect(ctx.assign).toHaveBeenCalledWith('/'), SERVER_WAIT);
        expect(localStorage.length).toBe(0);
      }
    },
    'xstate.after.REFRESH_RETRY_MS.session.authenticated.retrying': async ({ ctx }) => {
      await ctx.refresh.waitForRequest();
    },
  },
});
