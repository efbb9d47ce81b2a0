import { assign, fromPromise, setup } from 'xstate';
import type { PasswordReset, PlainMessageResponse } from '../domain/schemas/session';
import { passwordErrorMessage } from './password-change.machine';

export const PASSWORD_RESET_FAILED =
  'No pudimos cambiar tu contraseña. Si el enlace expiró, solicita uno nuevo e intenta de nuevo.';

/**
 * 'Cambiar clave' from the e-mailed link (/auth/reiniciar-contrasena/?token=…, spec §4/§8): on success
 * the server's message shows and the login screen follows after 4 s; a failure shows the first
 * `old_password` error. A link without a token never reaches this machine (the view explains it).
 */
export const passwordResetMachine = setup({
  types: {
    context: {} as { message: string | null; error: string | null },
    events: {} as { type: 'passwordReset.submit'; values: PasswordReset } | { type: 'passwordReset.dismiss' },
  },
  actors: {
    // Provided by the route (the real call) or a test; the machine never fetches.
    resetPassword: fromPromise<PlainMessageResponse, PasswordReset>(async () => {
      throw new Error('resetPassword was not provided');
    }),
  },
  actions: {
    clearError: assign({ error: null }),
    showMessage: assign({
      message: (_, params: { response: PlainMessageResponse }) => params.response.message,
    }),
    showError: assign({
      error: (_, params: { error: unknown }) => passwordErrorMessage(params.error, PASSWORD_RESET_FAILED),
    }),
    // Provided by the app: spec §4 "then login", history replaced.
    goToLogin: () => {},
  },
  delays: {
    // Spec §4/§9: login follows 4 s after a successful reset.
    REDIRECT_MS: 4000,
    // Spec §9: alerts auto-hide after 2-3 s.
    TOAST_MS: 3000,
  },
}).createMachine({
  id: 'passwordReset',
  meta: {
    title: 'Nueva contraseña desde el correo',
    events: {
      'passwordReset.submit': '«Guardar contraseña»',
      'xstate.done.actor.resetPassword': 'El servidor acepta la nueva contraseña',
      'xstate.error.actor.resetPassword': 'El servidor rechaza la contraseña o no responde',
      'xstate.after.REDIRECT_MS': 'Pasan 4 segundos',
      'passwordReset.dismiss': 'Cierra el aviso',
      'xstate.after.TOAST_MS': 'Pasan 3 segundos',
    },
  },
  description:
    'El enlace del correo abre «Cambiar clave» con su token. Mientras el usuario escribe, las reglas de al menos ' +
    '8 caracteres y no completamente numérica se marcan en rojo si no se cumplen; las de no parecerse a sus datos ' +
    'y no ser de uso común las revisa el servidor. Al aceptarse se muestra el mensaje del servidor y a los 4 ' +
    'segundos se va a la pantalla de ingreso; si se rechaza se muestra el primer error de la contraseña. Un enlace ' +
    'sin token no llega a esta máquina: la pantalla explica el problema y ofrece pedir un nuevo correo.',
  context: { message: null, error: null },
  initial: 'editing',
  states: {
    editing: {
      meta: { label: 'Formulario de nueva contraseña' },
      on: { 'passwordReset.submit': 'submitting' },
    },
    submitting: {
      meta: { label: 'Guardando la contraseña' },
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'resetPassword',
        src: 'resetPassword',
        input: ({ event }) => (event as { values: PasswordReset }).values,
        onDone: {
          target: 'done',
          actions: { type: 'showMessage', params: ({ event }) => ({ response: event.output }) },
        },
        onError: {
          target: 'failed',
          actions: { type: 'showError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    done: {
      meta: { label: 'Contraseña guardada' },
      after: { REDIRECT_MS: { target: 'leaving', actions: 'goToLogin' } },
    },
    failed: {
      meta: { label: 'Error al guardar la contraseña' },
      after: { TOAST_MS: { target: 'editing', actions: 'clearError' } },
      on: {
        'passwordReset.dismiss': { target: 'editing', actions: 'clearError' },
        'passwordReset.submit': 'submitting',
      },
    },
    leaving: { type: 'final', meta: { label: 'Ir a la pantalla de ingreso' } },
  },
});
