import { assign, fromPromise, setup } from 'xstate';
import { failureText } from '../domain/call-failure';
import type { PasswordChange, PlainMessageResponse } from '../domain/schemas/session';
import { fieldErrorsOf } from './field-errors';

export const PASSWORD_CHANGE_FAILED = 'No pudimos cambiar tu contraseña. Por favor, intenta de nuevo.';

/**
 * The text of a rejected password call (change or reset, spec §8): the first `old_password` item when
 * the server sent one, else the first message of any other field of a 400 (the server reports every
 * password rule per field), else `fallback`; a 429 shows its `detail`; a server error or no answer never
 * shows raw server text.
 */
export function passwordErrorMessage(error: unknown, fallback: string): string {
  return failureText(error, {
    // A throttled attempt: the server's own Spanish "try again later" says more than the generic text.
    read: (status) =>
      status === 429 ? ['detail'] : status === 400 ? ['old_password', '[]', 'message', 'detail'] : [],
    otherwise: () => fallback,
  });
}

/** The form's fields, which a 400 may name ({old_password: ['La contraseña actual es incorrecta.']}). */
export const PASSWORD_CHANGE_FIELDS = ['old_password', 'new_password1', 'new_password2'] as const;
export type PasswordChangeFieldErrors = Partial<Record<keyof PasswordChange, string[]>>;

/**
 * The messages a rejected change gives the form's own fields, each once under its own field; none when it was
 * not a 400 naming them. The server lists every new-password message again under old_password (the spec's
 * client read only that field, §8), so old_password keeps only what is its own: the wrong current password.
 */
export function passwordChangeFieldErrors(error: unknown): PasswordChangeFieldErrors {
  const errors = fieldErrorsOf(error, PASSWORD_CHANGE_FIELDS);
  const elsewhere = new Set([...(errors.new_password1 ?? []), ...(errors.new_password2 ?? [])]);
  const own = errors.old_password?.filter((message) => !elsewhere.has(message)) ?? [];
  const { old_password: _listedAgain, ...rest } = errors;
  return own.length > 0 ? { ...rest, old_password: own } : rest;
}

/**
 * Password change of a signed-in user (/cambiar-clave/, spec §5/§8): the server's message on success for 2 s;
 * a 400 that names the form's fields (a wrong current password, a common new one) shows under those fields
 * until the next attempt (issue 33: not in a toast that vanishes); any other failure in a toast for 2 s.
 */
export const passwordChangeMachine = setup({
  types: {
    context: {} as {
      message: string | null;
      error: string | null;
      /** The server's messages for the form's fields, shown under each until the next submission. */
      fieldErrors: PasswordChangeFieldErrors;
    },
    events: {} as
      | { type: 'passwordChange.submit'; values: PasswordChange }
      | { type: 'passwordChange.dismiss' },
  },
  actors: {
    // Provided by the route (the real call) or a test; the machine never fetches.
    changePassword: fromPromise<PlainMessageResponse, PasswordChange>(async () => {
      throw new Error('changePassword was not provided');
    }),
  },
  guards: {
    namesFields: ({ event }) =>
      Object.keys(passwordChangeFieldErrors((event as { error?: unknown }).error)).length > 0,
  },
  actions: {
    clearFeedback: assign({ message: null, error: null, fieldErrors: {} }),
    showFieldErrors: assign({
      fieldErrors: (_, params: { error: unknown }) => passwordChangeFieldErrors(params.error),
    }),
    showMessage: assign({
      message: (_, params: { response: PlainMessageResponse }) => params.response.message,
    }),
    showError: assign({
      error: (_, params: { error: unknown }) => passwordErrorMessage(params.error, PASSWORD_CHANGE_FAILED),
    }),
  },
  delays: {
    // Spec §9: profile and password snackbars show for 2 s.
    TOAST_MS: 2000,
  },
}).createMachine({
  id: 'passwordChange',
  meta: {
    title: 'Cambio de contraseña',
    events: {
      'passwordChange.submit': '«Cambiar contraseña»',
      'xstate.done.actor.changePassword': 'El servidor acepta la nueva contraseña',
      'xstate.error.actor.changePassword': 'El servidor rechaza el cambio o no responde',
      'passwordChange.dismiss': 'Cierra el aviso',
      'xstate.after.TOAST_MS': 'Pasan 2 segundos',
    },
    guards: {
      namesFields:
        'El servidor responde 400 con mensajes para los campos del formulario (p. ej. la contraseña actual es incorrecta).',
    },
  },
  description:
    'Un usuario con sesión cambia su contraseña escribiendo la actual, la nueva y su confirmación, con las mismas ' +
    'reglas en el navegador y en el servidor. Al aceptarse se muestra durante 2 segundos el mensaje del servidor ' +
    'y el formulario se limpia. Si el servidor rechaza algún campo (la contraseña actual no es correcta, la nueva ' +
    'es demasiado común) el mensaje queda bajo ese campo hasta el siguiente intento; cualquier otro error se ' +
    'avisa durante 2 segundos. Si la sesión ya no es válida se borran los datos locales y se vuelve al inicio.',
  context: { message: null, error: null, fieldErrors: {} },
  initial: 'editing',
  states: {
    editing: {
      meta: { label: 'Formulario' },
      on: { 'passwordChange.submit': 'submitting' },
    },
    submitting: {
      meta: { label: 'Cambiando la contraseña' },
      tags: ['busy'],
      entry: 'clearFeedback',
      invoke: {
        id: 'changePassword',
        src: 'changePassword',
        input: ({ event }) => (event as { values: PasswordChange }).values,
        onDone: {
          target: 'changed',
          actions: { type: 'showMessage', params: ({ event }) => ({ response: event.output }) },
        },
        onError: [
          {
            guard: 'namesFields',
            target: 'editing',
            actions: { type: 'showFieldErrors', params: ({ event }) => ({ error: event.error }) },
          },
          {
            target: 'failed',
            actions: { type: 'showError', params: ({ event }) => ({ error: event.error }) },
          },
        ],
      },
    },
    changed: {
      meta: { label: 'Contraseña cambiada' },
      after: { TOAST_MS: { target: 'editing', actions: 'clearFeedback' } },
      on: {
        'passwordChange.dismiss': { target: 'editing', actions: 'clearFeedback' },
        'passwordChange.submit': 'submitting',
      },
    },
    failed: {
      meta: { label: 'Error al cambiar la contraseña' },
      after: { TOAST_MS: { target: 'editing', actions: 'clearFeedback' } },
      on: {
        'passwordChange.dismiss': { target: 'editing', actions: 'clearFeedback' },
        'passwordChange.submit': 'submitting',
      },
    },
  },
});
