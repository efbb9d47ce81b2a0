import { screen, waitFor, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { fromPromise } from 'xstate';
import type { StoredSession } from '../../src/machines/session.machine';
import { wiredSessionMachine } from '../../src/routes/-machines';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY } from '../../src/stores/storage-keys';
import { resetUser, setUser, userStore } from '../../src/stores/user.store';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp, signInAs } from './harness/render-app';
import { DEMO_CREDENTIALS, STORED, sessionModel } from './session.model';

// The real delays are 3 s (toast), "one minute before expiry" (about 4 min) and 15 s (refresh retry);
// the model only needs them to be observable, not long.
const DELAYS = { ERROR_TOAST_MS: 700, REFRESH_DELAY: 1500, REFRESH_RETRY_MS: 1000 };

interface Ctx {
  login: ReturnType<typeof gateEndpoint>;
  refresh: ReturnType<typeof gateEndpoint>;
  releaseStorage: () => void;
  storageRead: Promise<void>;
  assign: ReturnType<typeof vi.spyOn>;
}

const dashboardHeading = () => screen.findByRole('heading', { level: 1, name: 'Pronto Pago' });

defineModelTests<Ctx>(sessionModel, {
  setup: () => {
    let releaseStorage = () => {};
    const storageRead = new Promise<void>((resolve) => {
      releaseStorage = resolve;
    });
    return {
      login: gateEndpoint('post', '/api/accounts/login/'),
      refresh: gateEndpoint('post', '/api/accounts/token/refresh/'),
      releaseStorage,
      storageRead,
      // A DOM test cannot reload the page; the spy records the reload to '/' the app asks for.
      assign: vi.spyOn(Location.prototype, 'assign').mockImplementation(() => {}),
    };
  },
  render: (ctx) => {
    // The real storage read, held until the model has seeded storage for its partition.
    const session = wiredSessionMachine.provide({
      actors: {
        readStoredSession: fromPromise<StoredSession>(async () => {
          await ctx.storageRead;
          return { accessToken: localStorage.getItem(ACCESS_TOKEN_KEY) };
        }),
      },
      delays: DELAYS,
    });
    const { router } = renderApp('/auth/ingresar/', { session });
    // What a reload does: the page's memory starts again from (now empty) storage, then the URL loads.
    ctx.assign.mockImplementation((url: string | URL) => {
      resetUser();
      void router.navigate({ href: String(url) });
    });
  },
  teardown: (ctx) => ctx.assign.mockRestore(),
  states: {
    '#session.restoring': async () => {
      expect(await screen.findByLabelText('Cargando…')).toBeTruthy();
    },
    '#session.unauthenticated.idle': async () => {
      await waitFor(() => expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull());
      expect(userStore.isAuthenticated).toBe(false);
      // Either the login form or, after logging out, the public page's 'Ingresar' link.
      await waitFor(() => expect(screen.getAllByText('Ingresar').length).toBeGreaterThan(0));
      await waitFor(() => expect(screen.queryAllByRole('alert')).toEqual([]));
    },
    '#session.unauthenticated.loggingIn': async () => {
      await waitFor(() =>
        expect((screen.getByRole('button', { name: /Ingresar/ }) as HTMLButtonElement).disabled).toBe(true),
      );
    },
    '#session.unauthenticated.failed': async ({ state }) => {
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toBe((state.context as { error: string }).error);
      expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
    },
    '#session.authenticated.active': async () => {
      expect(await dashboardHeading()).toBeTruthy();
      expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeTruthy();
      expect(userStore.isAuthenticated).toBe(true);
    },
    '#session.authenticated.refreshing': async ({ ctx }) => {
      const request = await ctx.refresh.waitForRequest();
      expect(request.url).toContain('/api/accounts/token/refresh/');
      expect(screen.getByRole('heading', { level: 1, name: 'Pronto Pago' })).toBeTruthy();
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
      if (accessToken === STORED.valid) {
        await signInAs(DEMO_CREDENTIALS.username);
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
      await screen.findByLabelText('Usuario');
      denied.mockRestore();
    },
    'session.login': async ({ user }) => {
      if (!screen.queryByLabelText('Usuario'))
        await user.click(screen.getByRole('link', { name: 'Ingresar' }));
      const username = await screen.findByLabelText('Usuario');
      await user.clear(username);
      await user.type(username, DEMO_CREDENTIALS.username);
      await user.type(screen.getByLabelText('Contraseña'), DEMO_CREDENTIALS.password);
      await user.click(screen.getByRole('button', { name: /Ingresar/ }));
    },
    'xstate.done.actor.login': async ({ ctx }) => {
      await ctx.login.pass();
      expect(ctx.login.bodies.at(-1)).toEqual(DEMO_CREDENTIALS);
    },
    'xstate.error.actor.login': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number; body: unknown } };
      if (error.status === 0) await ctx.login.networkError();
      else await ctx.login.respond(error.status, error.body);
    },
    'session.dismissError': async ({ user }) => {
      const toast = (await screen.findByRole('alert')).closest('.bp6-toast') as HTMLElement;
      await user.click(within(toast).getByRole('button', { name: 'Cerrar' }));
    },
    'xstate.after.ERROR_TOAST_MS.session.unauthenticated.failed': async () => {
      await waitFor(() => expect(screen.queryByRole('alert')).toBeNull(), { timeout: 3000 });
    },
    'session.logout': async ({ ctx, user }) => {
      await user.click(await screen.findByRole('button', { name: 'Mi cuenta' }));
      await user.click(await screen.findByRole('menuitem', { name: 'Cerrar sesión' }));
      await waitFor(() => expect(ctx.assign).toHaveBeenCalledWith('/'));
    },
    'xstate.after.REFRESH_DELAY.session.authenticated.active': async ({ ctx }) => {
      await ctx.refresh.waitForRequest();
    },
    'xstate.done.actor.refreshSession': async ({ ctx }) => {
      const before = localStorage.getItem(REFRESH_TOKEN_KEY);
      await ctx.refresh.pass();
      // The server rotated the refresh token; the session stored the new pair.
      await waitFor(() => expect(localStorage.getItem(REFRESH_TOKEN_KEY)).not.toBe(before));
    },
    'xstate.error.actor.refreshSession': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number; body: unknown } };
      if (error.status === 0) await ctx.refresh.networkError();
      else await ctx.refresh.respond(error.status, error.body);
      // Spec §8: only a 401 ends the session; the retry state asserts the rest.
      if (error.status === 401) await waitFor(() => expect(ctx.assign).toHaveBeenCalledWith('/'));
    },
    'xstate.after.REFRESH_RETRY_MS.session.authenticated.retrying': async ({ ctx }) => {
      await ctx.refresh.waitForRequest();
    },
  },
});
