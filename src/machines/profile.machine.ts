import { assign, fromPromise, setup } from 'xstate';
import { failureText } from '../domain/call-failure';
import type { Profile, ProfileUpdate } from '../domain/schemas/session';

export const PROFILE_SAVED = 'Tu perfil se actualizó correctamente';
export const PROFILE_LOAD_FAILED = 'No pudimos cargar tu perfil.';
export const PROFILE_SAVE_FAILED = 'No pudimos guardar tu perfil. Por favor, intenta de nuevo.';

/** A rejected save: the first message of the first field the server refused (400), else the generic text. */
export function profileSaveErrorMessage(error: unknown): string {
  return failureText(error, {
    read: (status) => (status === 400 ? ['[]'] : []),
    otherwise: () => PROFILE_SAVE_FAILED,
  });
}

/**
 * 'Perfil' (/editar-perfil/, spec §3/§8): load the profile (retry on failure), edit and save; saved shows
 * 'Tu perfil se actualizó correctamente' for 2 s and the form keeps what the server stored.
 */
export const profileMachine = setup({
  types: {
    context: {} as { profile: Profile | null; error: string | null },
    events: {} as
      | { type: 'profile.retry' }
      | { type: 'profile.save'; values: ProfileUpdate }
      | { type: 'profile.dismiss' },
  },
  actors: {
    // Provided by the route (the real calls) or a test; the machine never fetches.
    loadProfile: fromPromise<Profile>(async () => {
      throw new Error('loadProfile was not provided');
    }),
    saveProfile: fromPromise<Profile, ProfileUpdate>(async () => {
      throw new Error('saveProfile was not provided');
    }),
  },
  actions: {
    keepProfile: assign({ profile: (_, params: { profile: Profile }) => params.profile }),
    clearError: assign({ error: null }),
    showLoadError: assign({ error: PROFILE_LOAD_FAILED }),
    showSaveError: assign({
      error: (_, params: { error: unknown }) => profileSaveErrorMessage(params.error),
    }),
  },
  delays: {
    // Spec §9: profile and password snackbars show for 2 s.
    TOAST_MS: 2000,
  },
}).createMachine({
  id: 'profile',
  meta: {
    title: 'Perfil',
    events: {
      'xstate.done.actor.loadProfile': 'El servidor entrega el perfil',
      'xstate.error.actor.loadProfile': 'El servidor falla o no responde',
      'profile.retry': '«Reintentar»',
      'profile.save': '«Guardar»',
      'xstate.done.actor.saveProfile': 'El servidor acepta los cambios',
      'xstate.error.actor.saveProfile': 'El servidor rechaza los cambios o no responde',
      'profile.dismiss': 'Cierra el aviso',
      'xstate.after.TOAST_MS': 'Pasan 2 segundos',
    },
  },
  description:
    'Carga los datos del usuario (nombre, apellido, teléfono, empresa y si desea recibir notificaciones) y las ' +
    'cuentas CLABE de solo lectura que tenga asignadas. Si la carga falla se ofrece «Reintentar». Al guardar se ' +
    'valida cada campo obligatorio y se muestra «Tu perfil se actualizó correctamente» durante 2 segundos; un ' +
    'error del servidor se muestra sin perder lo capturado.',
  context: { profile: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      meta: { label: 'Cargando perfil' },
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'loadProfile',
        src: 'loadProfile',
        onDone: {
          target: 'ready',
          actions: { type: 'keepProfile', params: ({ event }) => ({ profile: event.output }) },
        },
        onError: { target: 'loadFailed', actions: 'showLoadError' },
      },
    },
    loadFailed: {
      meta: { label: 'Error al cargar el perfil' },
      on: { 'profile.retry': 'loading' },
    },
    ready: {
      meta: { label: 'Perfil cargado' },
      initial: 'editing',
      states: {
        editing: {
          meta: { label: 'Editando' },
          on: { 'profile.save': 'saving' },
        },
        saving: {
          meta: { label: 'Guardando' },
          tags: ['busy'],
          entry: 'clearError',
          invoke: {
            id: 'saveProfile',
            src: 'saveProfile',
            input: ({ event }) => (event as { values: ProfileUpdate }).values,
            onDone: {
              target: 'saved',
              actions: { type: 'keepProfile', params: ({ event }) => ({ profile: event.output }) },
            },
            onError: {
              target: 'failed',
              actions: { type: 'showSaveError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        saved: {
          meta: { label: 'Perfil actualizado' },
          after: { TOAST_MS: 'editing' },
          on: { 'profile.dismiss': 'editing', 'profile.save': 'saving' },
        },
        failed: {
          meta: { label: 'Error al guardar' },
          after: { TOAST_MS: { target: 'editing', actions: 'clearError' } },
          on: {
            'profile.dismiss': { target: 'editing', actions: 'clearError' },
            'profile.save': 'saving',
          },
        },
      },
    },
  },
});
