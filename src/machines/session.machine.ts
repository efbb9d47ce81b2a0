import { assign, fromPromise, setup } from 'xstate';
import type { LoginRequest, TokenRefreshResponse } from '../domain/schemas/session';
import {
  accessTokenState,
  asksForCaptcha,
  INVALID_REFRESH_TOKEN,
  type LoginAttempt,
  loginErrorMessage,
  refreshDelayMs,
} from '../domain/session';

/** What the session keeps after login or refresh; persisting it is the caller's job (provided actions). */
export type SessionTokens = Partial<Omit<TokenRefreshResponse, 'access'>> & { access: string };

export interface StoredSession {
  accessToken: string | null;
}

export type SessionEvent =
  | { type: 'session.login'; credentials: LoginRequest }
  | { type: 'session.logout' }
  | { type: 'session.dismissError' };

/**
 * The browser session (spec §4 "Session"): restore from storage, log in, keep the access token fresh,
 * log out. Storage, navigation and the calls are provided by the app (src/routes/-machines.ts).
 */
export const sessionMachine = setup({
  types: {
    context: {} as { accessToken: string | null; error: string | null; captchaRequired: boolean },
    events: {} as SessionEvent,
  },
  actors: {
    readStoredSession: fromPromise<StoredSession>(async () => ({ accessToken: null })),
    login: fromPromise<SessionTokens, LoginAttempt>(async () => {
      throw new Error('login was not provided');
    }),
    // Input: the access token this tab holds, so the app can tell whether another tab already rotated it.
    refreshSession: fromPromise<SessionTokens, { accessToken: string | null }>(async () => {
      throw new Error('refreshSession was not provided');
    }),
    // The server revokes the refresh tokens of the login this tab holds.
    revokeSession: fromPromise<void>(async () => {
      throw new Error('revokeSession was not provided');
    }),
  },
  guards: {
    hasUsableToken: (_, params: { session: StoredSession }) =>
      accessTokenState(params.session.accessToken, Date.now()) === 'valid',
    // Spec §8: a refusal (401, or any 4xx but a timeout or throttle) or no refresh token stored ('Invalid
    // refresh token') ends the session; a 5xx, 408, 429 or no response leaves the user signed in to retry.
    isSessionRejected: (_, params: { error: unknown }) => {
      const failure = params.error as { status?: unknown; message?: unknown } | null | undefined;
      if (failure?.message === INVALID_REFRESH_TOKEN) return true;
      const status = typeof failure?.status === 'number' ? failure.status : 0;
      return status >= 400 && status < 500 && status !== 408 && status !== 429;
    },
  },
  actions: {
    // Provided by the app: write tokens and flags to storage and the user store / wipe all storage.
    persistSession: (_, _params: { tokens: SessionTokens }) => {},
    clearStorage: () => {},
    // Provided by the app: spec §8 logs errors that do not end the session.
    logRefreshFailure: (_, _params: { error: unknown }) => {},
    // Provided by the app: the view the login opens and its first screen, history replaced (decision 0065).
    goToLanding: () => {},
    // Provided by the app: wipe all local storage and reload at '/' (spec §2). The reload, not this
    // machine, resets what the page holds in memory, so nothing re-renders half signed out.
    endSession: () => {},
    keepToken: assign({ accessToken: (_, params: { accessToken: string | null }) => params.accessToken }),
    forgetToken: assign({ accessToken: null }),
    // A server that asked for the CAPTCHA (a few failures for the username) gets it on every later try here.
    showLoginError: assign({
      error: (_, params: { error: unknown }) => loginErrorMessage(params.error as never),
      captchaRequired: ({ context }, params: { error: unknown }) =>
        context.captchaRequired || asksForCaptcha(params.error),
    }),
    clearError: assign({ error: null }),
  },
  delays: {
    REFRESH_DELAY: ({ context }) => refreshDelayMs(context.accessToken, Date.now()),
    // Spec §9: alerts auto-hide after about 2-3 s.
    ERROR_TOAST_MS: 3000,
    // A refresh that failed without a 401 is tried again after this; the access token is refreshed a
    // minute before it expires, so a few retries fit before any call leaves with a dead token.
    REFRESH_RETRY_MS: 15_000,
  },
}).createMachine({
  id: 'session',
  meta: {
    title: 'Sesión',
    events: {
      'xstate.done.actor.readStoredSession': 'Se lee la sesión guardada',
      'xstate.error.actor.readStoredSession': 'No se puede leer la sesión guardada',
      'session.login': '«Ingresar»',
      'xstate.done.actor.login': 'El servidor acepta usuario y contraseña',
      'xstate.error.actor.login': 'El servidor rechaza el ingreso o no responde',
      'session.dismissError': 'Cierra el aviso',
      'xstate.after.ERROR_TOAST_MS': 'Pasan 3 segundos',
      'session.logout': '«Cerrar sesión»',
      'xstate.done.actor.revokeSession': 'El servidor cierra la sesión',
      'xstate.error.actor.revokeSession': 'El servidor no cierra la sesión o no responde',
      'xstate.after.REFRESH_DELAY': 'Falta un minuto para que venza el token de acceso',
      'xstate.done.actor.refreshSession': 'El servidor renueva los tokens',
      'xstate.error.actor.refreshSession': 'El servidor rechaza la renovación o no responde',
      'xstate.after.REFRESH_RETRY_MS': 'Pasan 15 segundos',
    },
    guards: {
      hasUsableToken: 'Hay un token de acceso guardado que se puede leer y no ha vencido.',
      isSessionRejected:
        'El servidor rechazó la renovación: el token de renovación no es válido o fue revocado, o respondió con un error 4xx que no es tiempo agotado (408) ni exceso de solicitudes (429).',
    },
  },
  description:
    'Al cargar la aplicación se lee el token guardado: si no existe, ya venció o no se puede leer, se borran los ' +
    'datos locales y el usuario queda sin sesión. Al ingresar se guardan los tokens y los permisos y se va a ' +
    'la primera pantalla de su vista: un corporativo con SAT autorizado al Resumen de facturas (Cuentas por ' +
    'Pagar), los demás a Pronto Pago; un error muestra el mensaje del servidor. Antes de que venza el token de acceso se renueva con ' +
    'el token de renovación; si la renovación falla se borra todo y se vuelve al inicio. Al cerrar sesión se pide ' +
    'al servidor que revoque la sesión y, responda o no, se borra todo y se vuelve al inicio.',
  context: { accessToken: null, error: null, captchaRequired: false },
  initial: 'restoring',
  states: {
    restoring: {
      meta: { label: 'Leyendo la sesión guardada' },
      invoke: {
        id: 'readStoredSession',
        src: 'readStoredSession',
        onDone: [
          {
            guard: { type: 'hasUsableToken', params: ({ event }) => ({ session: event.output }) },
            target: 'authenticated',
            actions: {
              type: 'keepToken',
              params: ({ event }) => ({ accessToken: event.output.accessToken }),
            },
          },
          // No token, an expired one or an undecodable one: session data is cleared (spec §4).
          { target: 'unauthenticated', actions: 'clearStorage' },
        ],
        onError: { target: 'unauthenticated', actions: 'clearStorage' },
      },
    },
    unauthenticated: {
      meta: { label: 'Sin sesión' },
      initial: 'idle',
      states: {
        idle: {
          meta: { label: 'Pantalla de ingreso' },
          on: { 'session.login': 'loggingIn' },
        },
        loggingIn: {
          meta: { label: 'Ingresando' },
          tags: ['busy'],
          entry: 'clearError',
          invoke: {
            id: 'login',
            src: 'login',
            input: ({ event, context }) => ({
              credentials: (event as Extract<SessionEvent, { type: 'session.login' }>).credentials,
              withCaptcha: context.captchaRequired,
            }),
            onDone: {
              target: '#session.authenticated',
              actions: [
                { type: 'persistSession', params: ({ event }) => ({ tokens: event.output }) },
                { type: 'keepToken', params: ({ event }) => ({ accessToken: event.output.access }) },
                'goToLanding',
              ],
            },
            onError: {
              target: 'failed',
              actions: { type: 'showLoginError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        failed: {
          meta: { label: 'Error al ingresar' },
          after: { ERROR_TOAST_MS: { target: 'idle', actions: 'clearError' } },
          on: {
            'session.login': 'loggingIn',
            'session.dismissError': { target: 'idle', actions: 'clearError' },
          },
        },
      },
    },
    authenticated: {
      meta: { label: 'Con sesión' },
      initial: 'active',
      on: {
        'session.logout': '.loggingOut',
      },
      states: {
        active: {
          meta: { label: 'Sesión activa' },
          after: { REFRESH_DELAY: 'refreshing' },
        },
        refreshing: {
          meta: { label: 'Renovando el token' },
          invoke: {
            id: 'refreshSession',
            src: 'refreshSession',
            input: ({ context }) => ({ accessToken: context.accessToken }),
            onDone: {
              target: 'active',
              actions: [
                { type: 'persistSession', params: ({ event }) => ({ tokens: event.output }) },
                { type: 'keepToken', params: ({ event }) => ({ accessToken: event.output.access }) },
              ],
            },
            onError: [
              // 'Invalid refresh token' or a revoked family: the session is over.
              {
                guard: { type: 'isSessionRejected', params: ({ event }) => ({ error: event.error }) },
                target: '#session.unauthenticated',
                actions: ['forgetToken', 'endSession'],
              },
              // A server error or no response: the user stays signed in and the refresh is tried again.
              {
                target: 'retrying',
                actions: { type: 'logRefreshFailure', params: ({ event }) => ({ error: event.error }) },
              },
            ],
          },
        },
        retrying: {
          meta: { label: 'Esperando para reintentar la renovación' },
          after: { REFRESH_RETRY_MS: 'refreshing' },
        },
        // The server ends the login's refresh tokens first (a copied token dies too); whatever it answers,
        // the browser forgets the session, so a network failure never keeps the user signed in.
        loggingOut: {
          meta: { label: 'Cerrando sesión' },
          invoke: {
            id: 'revokeSession',
            src: 'revokeSession',
            onDone: { target: '#session.unauthenticated', actions: ['forgetToken', 'endSession'] },
            onError: { target: '#session.unauthenticated', actions: ['forgetToken', 'endSession'] },
          },
        },
      },
    },
  },
});
