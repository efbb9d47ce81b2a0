import { assign, fromPromise, setup } from 'xstate';
import type { CallFailure } from '../domain/call-failure';
import type { PasswordResetRequest, PlainMessageResponse } from '../domain/schemas/session';
import { SERVER_MESSAGES } from '../domain/schemas/session';

/** What the server answers for an address it does not know (spec §8), and what the user reads instead. */
export const UNKNOWN_EMAIL_SERVER_MESSAGE = SERVER_MESSAGES.unknownResetEmail;
export const UNKNOWN_EMAIL = 'El correo electrónico no está registrado';
export const RESET_REQUEST_FAILED =
  'Error al enviar el correo de restablecimiento. Por favor, intenta de nuevo';

/** Spec §8 "Reset request failure": an unknown address has its own text; anything else the generic one. */
export function resetRequestErrorMessage(error: unknown): string {
  const body = (error as Partial<CallFailure> | null)?.body as { message?: unknown } | null | undefined;
  return body?.message === UNKNOWN_EMAIL_SERVER_MESSAGE ? UNKNOWN_EMAIL : RESET_REQUEST_FAILED;
}

/**
 * 'Restablecer contraseña' (/auth/recuperar-contrasena/, spec §4): on success the server's message stays
 * on the page and the form is cleared; a failure shows a toast and keeps the address typed.
 */
export const passwordResetRequestMachine = setup({
  types: {
    context: {} as { message: string | null; error: string | null },
    events: {} as
      | { type: 'resetRequest.submit'; values: PasswordResetRequest }
      | { type: 'resetRequest.dismiss' },
  },
  actors: {
    // Provided by the route (the real call) or a test; the machine never fetches.
    requestPasswordReset: fromPromise<PlainMessageResponse, PasswordResetRequest>(async () => {
      throw new Error('requestPasswordReset was not provided');
    }),
  },
  actions: {
    clearFeedback: assign({ message: null, error: null }),
    clearError: assign({ error: null }),
    showMessage: assign({
      message: (_, params: { response: PlainMessageResponse }) => params.response.message,
    }),
    showError: assign({ error: (_, params: { error: unknown }) => resetRequestErrorMessage(params.error) }),
  },
  delays: {
    // Spec §9: alerts auto-hide after 2-3 s.
    TOAST_MS: 3000,
  },
}).createMachine({
  id: 'passwordResetRequest',
  meta: {
    title: 'Solicitud de restablecimiento de contraseña',
    events: {
      'resetRequest.submit': '«Enviar enlace»',
      'xstate.done.actor.requestPasswordReset': 'El servidor envía el correo',
      'xstate.error.actor.requestPasswordReset': 'El servidor rechaza la solicitud o no responde',
      'resetRequest.dismiss': 'Cierra el aviso',
      'xstate.after.TOAST_MS': 'Pasan 3 segundos',
    },
  },
  description:
    'En «Restablecer contraseña» el usuario escribe su correo y se le envía un enlace de un solo uso para crear ' +
    'una nueva contraseña. Al enviarse se muestra el mensaje del servidor y el formulario se limpia. Si el correo ' +
    'no está registrado se muestra «El correo electrónico no está registrado»; cualquier otra falla, incluso sin ' +
    'respuesta del servidor, muestra «Error al enviar el correo de restablecimiento. Por favor, intenta de nuevo» ' +
    'y conserva el correo capturado.',
  context: { message: null, error: null },
  initial: 'editing',
  states: {
    editing: {
      meta: { label: 'Formulario' },
      on: { 'resetRequest.submit': 'submitting' },
    },
    submitting: {
      meta: { label: 'Enviando el correo' },
      tags: ['busy'],
      entry: 'clearFeedback',
      invoke: {
        id: 'requestPasswordReset',
        src: 'requestPasswordReset',
        input: ({ event }) => (event as { values: PasswordResetRequest }).values,
        onDone: {
          target: 'sent',
          actions: { type: 'showMessage', params: ({ event }) => ({ response: event.output }) },
        },
        onError: {
          target: 'failed',
          actions: { type: 'showError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    // The message says where the e-mail went; it stays until the user asks again.
    sent: {
      meta: { label: 'Correo enviado' },
      on: { 'resetRequest.submit': 'submitting' },
    },
    failed: {
      meta: { label: 'Error al enviar el correo' },
      after: { TOAST_MS: { target: 'editing', actions: 'clearError' } },
      on: {
        'resetRequest.dismiss': { target: 'editing', actions: 'clearError' },
        'resetRequest.submit': 'submitting',
      },
    },
  },
});
