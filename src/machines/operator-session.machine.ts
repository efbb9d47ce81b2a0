import { assign, fromPromise, not, setup } from 'xstate';
import { callFailureOf, failureText } from '../domain/call-failure';
import type {
  MfaChallengeResponse,
  MfaLoginRequest,
  OperatorSessionResponse,
} from '../domain/schemas/operator-session';
import type { LoginRequest, LoginResponse } from '../domain/schemas/session';
import { asksForCaptcha, type LoginAttempt } from '../domain/session';

/** Shown for a server error or no answer; the server's own text never reaches the operator then. */
export const OPERATOR_LOGIN_FAILED = 'No pudimos verificar tus datos. Por favor, intenta de nuevo.';
/** A provider or corporate who typed their password here: this door is for Flujo's operators. */
export const NOT_AN_OPERATOR =
  'Esta entrada es solo para operadores de Flujo. Los proveedores y corporativos ingresan en /auth/ingresar/.';

/**
 * The words of a refused step: a 4xx says why in its own Spanish (`detail`, or the first message of `code` for
 * a wrong code); a server error or no answer gets the generic text.
 */
export function operatorLoginError(error: unknown): string {
  return failureText(error, {
    read: (status) =>
      status !== null && status >= 400 && status < 500 ? ['code', 'captcha_token', 'detail'] : [],
    otherwise: () => OPERATOR_LOGIN_FAILED,
  });
}

type LoginAnswer = LoginResponse | MfaChallengeResponse;

export interface OperatorSessionContext {
  mfaToken: string | null;
  /** The code step takes a recovery code instead of the authenticator's. */
  recovery: boolean;
  error: string | null;
  /** The server asked for the CAPTCHA 'login' (a few failures for the username): every later try solves it. */
  captchaRequired: boolean;
}

export type OperatorSessionEvent =
  | { type: 'operatorSession.submitPassword'; credentials: LoginRequest }
  | { type: 'operatorSession.submitCode'; code: string }
  | { type: 'operatorSession.useRecoveryCode' }
  | { type: 'operatorSession.useAuthenticator' }
  | { type: 'operatorSession.restart' };

/**
 * An operator's two-step login at /operacion/ingresar/ (docs/decisions/0050): the password, then the code of the
 * authenticator app or a recovery code, and the session. The calls, storing the session and the navigation are
 * provided by the route.
 */
export const operatorSessionMachine = setup({
  types: {
    context: {} as OperatorSessionContext,
    events: {} as OperatorSessionEvent,
  },
  actors: {
    login: fromPromise<LoginAnswer, LoginAttempt>(async () => {
      throw new Error('login was not provided');
    }),
    verifyCode: fromPromise<OperatorSessionResponse, MfaLoginRequest>(async () => {
      throw new Error('verifyCode was not provided');
    }),
  },
  guards: {
    isChallenge: (_, params: { answer: LoginAnswer }) =>
      (params.answer as Partial<MfaChallengeResponse>).mfa_required === true,
    isLocked: (_, params: { error: unknown }) => callFailureOf(params.error).status === 429,
    isChallengeOver: (_, params: { error: unknown }) => callFailureOf(params.error).status === 401,
    isAskingRecoveryCode: ({ context }) => context.recovery,
  },
  actions: {
    keepChallenge: assign({
      mfaToken: (_, params: { answer: LoginAnswer }) =>
        (params.answer as Partial<MfaChallengeResponse>).mfa_token ?? null,
      recovery: false,
      error: null,
    }),
    forgetChallenge: assign({ mfaToken: null, recovery: false }),
    showError: assign({
      error: (_, params: { error: unknown }) => operatorLoginError(params.error),
      captchaRequired: ({ context }, params: { error: unknown }) =>
        context.captchaRequired || asksForCaptcha(params.error),
    }),
    showNotOperator: assign({ error: NOT_AN_OPERATOR }),
    clearError: assign({ error: null }),
    askRecoveryCode: assign({ recovery: true, error: null }),
    askAuthenticatorCode: assign({ recovery: false, error: null }),
    // Provided by the route: store the tokens and the operator, then open the back office.
    startSession: (_, _params: { session: OperatorSessionResponse }) => {},
  },
}).createMachine({
  id: 'operatorSession',
  meta: {
    title: 'Ingreso de operadores',
    events: {
      'operatorSession.submitPassword': '«Continuar» con usuario y contraseña',
      'xstate.done.actor.login': 'El servidor acepta la contraseña',
      'xstate.error.actor.login':
        'El servidor rechaza la contraseña, el operador está bloqueado o no responde',
      'operatorSession.submitCode': '«Verificar» el código',
      'xstate.done.actor.verifyCode': 'El servidor acepta el código y abre la sesión',
      'xstate.error.actor.verifyCode': 'El servidor rechaza el código o no responde',
      'operatorSession.useRecoveryCode': '«Usar un código de recuperación»',
      'operatorSession.useAuthenticator': '«Usar el código de la aplicación»',
      'operatorSession.restart': '«Volver a ingresar»',
    },
    guards: {
      isChallenge: 'El usuario es operador: el servidor pide el segundo paso en lugar de abrir la sesión.',
      isLocked:
        'El servidor respondió 429: demasiados códigos incorrectos (bloqueo de 15 minutos) o demasiados intentos.',
      isChallengeOver:
        'El servidor respondió 401: la verificación venció (5 minutos) o ya se usó; hay que repetir la contraseña.',
      isAskingRecoveryCode: 'La pantalla pide un código de recuperación en lugar del de la aplicación.',
    },
  },
  description:
    'Un operador de Flujo ingresa en dos pasos: usuario y contraseña, y después el código de 6 dígitos de su ' +
    'aplicación de autenticación o uno de sus códigos de recuperación (cada uno sirve una vez). Un código ' +
    'incorrecto permite reintentar; cinco seguidos bloquean al operador 15 minutos. Tras unas contraseñas ' +
    'incorrectas para el usuario (desde cualquier dirección) el servidor pide además la prueba anti-robots, que se ' +
    'resuelve en cada intento siguiente. Si la verificación vence ' +
    'se vuelve a pedir la contraseña. Un proveedor o corporativo no puede entrar por aquí.',
  context: { mfaToken: null, recovery: false, error: null, captchaRequired: false },
  initial: 'password',
  states: {
    password: {
      meta: { label: 'Usuario y contraseña' },
      on: { 'operatorSession.submitPassword': 'checkingPassword' },
    },
    checkingPassword: {
      meta: { label: 'Verificando la contraseña' },
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'login',
        src: 'login',
        input: ({ event, context }) => ({
          credentials: (event as Extract<OperatorSessionEvent, { type: 'operatorSession.submitPassword' }>)
            .credentials,
          withCaptcha: context.captchaRequired,
        }),
        onDone: [
          {
            guard: { type: 'isChallenge', params: ({ event }) => ({ answer: event.output }) },
            target: 'code',
            actions: { type: 'keepChallenge', params: ({ event }) => ({ answer: event.output }) },
          },
          { target: 'password', actions: 'showNotOperator' },
        ],
        onError: [
          {
            guard: { type: 'isLocked', params: ({ event }) => ({ error: event.error }) },
            target: 'locked',
            actions: { type: 'showError', params: ({ event }) => ({ error: event.error }) },
          },
          {
            target: 'password',
            actions: { type: 'showError', params: ({ event }) => ({ error: event.error }) },
          },
        ],
      },
    },
    code: {
      meta: { label: 'Código de verificación' },
      on: {
        'operatorSession.submitCode': 'verifyingCode',
        'operatorSession.useRecoveryCode': {
          guard: not('isAskingRecoveryCode'),
          target: 'code',
          actions: 'askRecoveryCode',
        },
        'operatorSession.useAuthenticator': {
          guard: 'isAskingRecoveryCode',
          target: 'code',
          actions: 'askAuthenticatorCode',
        },
        'operatorSession.restart': { target: 'password', actions: ['forgetChallenge', 'clearError'] },
      },
    },
    verifyingCode: {
      meta: { label: 'Verificando el código' },
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'verifyCode',
        src: 'verifyCode',
        input: ({ context, event }) => ({
          mfa_token: context.mfaToken ?? '',
          code: (event as Extract<OperatorSessionEvent, { type: 'operatorSession.submitCode' }>).code,
        }),
        onDone: {
          target: 'signedIn',
          actions: { type: 'startSession', params: ({ event }) => ({ session: event.output }) },
        },
        onError: [
          {
            guard: { type: 'isLocked', params: ({ event }) => ({ error: event.error }) },
            target: 'locked',
            actions: [
              'forgetChallenge',
              { type: 'showError', params: ({ event }) => ({ error: event.error }) },
            ],
          },
          {
            guard: { type: 'isChallengeOver', params: ({ event }) => ({ error: event.error }) },
            target: 'password',
            actions: [
              'forgetChallenge',
              { type: 'showError', params: ({ event }) => ({ error: event.error }) },
            ],
          },
          {
            target: 'code',
            actions: { type: 'showError', params: ({ event }) => ({ error: event.error }) },
          },
        ],
      },
    },
    locked: {
      meta: { label: 'Acceso bloqueado' },
      on: { 'operatorSession.restart': { target: 'password', actions: 'clearError' } },
    },
    signedIn: {
      meta: { label: 'Sesión de operador abierta' },
      type: 'final',
    },
  },
});
