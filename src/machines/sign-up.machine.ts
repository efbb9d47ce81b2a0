import { assign, fromPromise, setup } from 'xstate';
import { failureText } from '../domain/call-failure';
import { MESSAGES } from '../domain/schemas/fields';
import type { SignUpForm, SignUpRequest } from '../domain/schemas/session';
import { fieldErrorsOf } from './field-errors';

export const SIGN_UP_CAPTCHA_FAILED = MESSAGES.captchaFailed;
export const SIGN_UP_FAILED = 'No pudimos crear tu cuenta. Por favor, intenta de nuevo.';

export type SignUpFieldErrors = Partial<Record<keyof SignUpRequest, string[]>>;

/** Server field errors of a 400 ({field: [message]}), or none when the failure carried no fields. */
export function signUpFieldErrors(error: unknown): SignUpFieldErrors {
  return fieldErrorsOf<keyof SignUpRequest>(error);
}

/**
 * The toast of a refused sign-up: the first server field error of a 400, the server's own Spanish
 * `detail` of a 429 (too many attempts), else the generic text; a server error or no answer never
 * shows raw server text.
 */
export function signUpErrorMessage(error: unknown): string {
  return failureText(error, {
    read: (status) => (status === 400 ? ['[]'] : status === 429 ? ['detail'] : []),
    otherwise: () => SIGN_UP_FAILED,
  });
}

/**
 * Sign-up (spec §4/§5): the CAPTCHA action 'register' runs first and nothing is sent without its
 * token; the server re-checks every rule and its field errors land on the fields.
 */
export const signUpMachine = setup({
  types: {
    context: {} as {
      values: SignUpForm | null;
      captchaToken: string | null;
      fieldErrors: SignUpFieldErrors;
      message: string | null;
    },
    events: {} as { type: 'signUp.submit'; values: SignUpForm } | { type: 'signUp.dismiss' },
  },
  actors: {
    obtainCaptcha: fromPromise<string>(async () => {
      throw new Error('obtainCaptcha was not provided');
    }),
    register: fromPromise<unknown, SignUpRequest>(async () => {
      throw new Error('register was not provided');
    }),
  },
  actions: {
    keepValues: assign({ values: (_, params: { values: SignUpForm }) => params.values }),
    keepCaptcha: assign({ captchaToken: (_, params: { token: string }) => params.token }),
    clearFeedback: assign({ fieldErrors: {}, message: null }),
    captchaFailed: assign({ message: SIGN_UP_CAPTCHA_FAILED, captchaToken: null }),
    rejected: assign({
      fieldErrors: (_, params: { error: unknown }) => signUpFieldErrors(params.error),
      message: (_, params: { error: unknown }) => signUpErrorMessage(params.error),
      captchaToken: null,
    }),
    clearMessage: assign({ message: null }),
    // Provided by the app: spec §4 "Sign-up success: go to login".
    goToLogin: () => {},
  },
  delays: { TOAST_MS: 3000 },
}).createMachine({
  id: 'signUp',
  meta: {
    title: 'Registro',
    events: {
      'signUp.submit': '«Siguiente»',
      'xstate.done.actor.obtainCaptcha': 'Se resuelve el CAPTCHA',
      'xstate.error.actor.obtainCaptcha': 'El CAPTCHA no está disponible',
      'xstate.done.actor.register': 'El servidor crea la cuenta',
      'xstate.error.actor.register': 'El servidor rechaza el registro o no responde',
      'signUp.dismiss': 'Cierra el aviso',
      'xstate.after.TOAST_MS': 'Pasan 3 segundos',
    },
  },
  description:
    'Crear una cuenta: primero se resuelve el CAPTCHA de la acción «register» y sin él no se envía nada; luego el ' +
    'servidor vuelve a validar cada campo y las contraseñas. Los errores del servidor se muestran en cada campo; ' +
    'al crearse la cuenta se va a la pantalla de ingreso.',
  context: { values: null, captchaToken: null, fieldErrors: {}, message: null },
  initial: 'editing',
  states: {
    editing: {
      meta: { label: 'Formulario de registro' },
      on: {
        'signUp.submit': {
          target: 'verifying',
          actions: { type: 'keepValues', params: ({ event }) => ({ values: event.values }) },
        },
      },
    },
    verifying: {
      meta: { label: 'Verificando el CAPTCHA' },
      tags: ['busy'],
      entry: 'clearFeedback',
      invoke: {
        id: 'obtainCaptcha',
        src: 'obtainCaptcha',
        onDone: {
          target: 'submitting',
          actions: { type: 'keepCaptcha', params: ({ event }) => ({ token: event.output }) },
        },
        // Spec §5: sign-up is not submitted when the CAPTCHA is unavailable.
        onError: { target: 'failed', actions: 'captchaFailed' },
      },
    },
    submitting: {
      meta: { label: 'Creando la cuenta' },
      tags: ['busy'],
      invoke: {
        id: 'register',
        src: 'register',
        input: ({ context }) => ({ ...context.values!, recaptcha_token: context.captchaToken! }),
        onDone: { target: 'registered', actions: 'goToLogin' },
        onError: {
          target: 'failed',
          actions: { type: 'rejected', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    failed: {
      meta: { label: 'Error en el registro' },
      on: {
        'signUp.submit': {
          target: 'verifying',
          actions: { type: 'keepValues', params: ({ event }) => ({ values: event.values }) },
        },
        'signUp.dismiss': { target: 'editing', actions: 'clearMessage' },
      },
      after: { TOAST_MS: { target: 'editing', actions: 'clearMessage' } },
    },
    registered: { type: 'final', meta: { label: 'Cuenta creada' } },
  },
});
