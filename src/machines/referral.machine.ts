import { assign, fromPromise, setup } from 'xstate';
import type { PlainMessageResponse, Referral } from '../domain/schemas/session';
import { fieldErrorsOf } from './field-errors';

export const REFERRAL_FAILED = 'No pudimos enviar tu recomendación. Por favor, intenta de nuevo.';

/**
 * Spec §8: a referral's error goes to the generic handler: the server's field messages (400) or its `detail`
 * (403: not a provider account) when it gave them, else one generic text so the user knows to retry.
 */
export function referralErrorMessages(error: unknown): string[] {
  const fields = Object.values(fieldErrorsOf(error)).flatMap((messages) => messages?.slice(0, 1) ?? []);
  if (fields.length > 0) return fields;
  const detail = (error as { body?: { detail?: unknown } } | null)?.body?.detail;
  return typeof detail === 'string' && detail !== '' ? [detail] : [REFERRAL_FAILED];
}

export const referralMachine = setup({
  types: {
    context: {} as { message: string | null; errors: string[] },
    events: {} as { type: 'referral.submit'; values: Referral } | { type: 'referral.dismiss' },
  },
  actors: {
    // Provided by the route (the real call) or a test; the machine never fetches.
    submitReferral: fromPromise<PlainMessageResponse, Referral>(async () => {
      throw new Error('submitReferral was not provided');
    }),
  },
  actions: {
    clear: assign({ message: () => null, errors: () => [] }),
    showMessage: assign({ message: (_, params: { message: string }) => params.message }),
    showErrors: assign({ errors: (_, params: { error: unknown }) => referralErrorMessages(params.error) }),
  },
  delays: {
    // Spec §8: the server's message shows for 3 s.
    TOAST_MS: 3000,
  },
}).createMachine({
  id: 'referral',
  meta: {
    title: 'Referir cliente',
    events: {
      'referral.submit': '«Enviar recomendación»',
      'xstate.done.actor.submitReferral': 'El servidor acepta la recomendación',
      'xstate.error.actor.submitReferral': 'El servidor rechaza los datos o no responde',
      'referral.dismiss': 'Cierra el aviso',
      'xstate.after.TOAST_MS': 'Pasan 3 segundos',
    },
  },
  description:
    'El proveedor recomienda Flujo a un cliente (nombre, empresa, correo y teléfono, todos obligatorios). Al ' +
    'enviarse se muestra el mensaje del servidor durante 3 segundos y el formulario se limpia; si el servidor ' +
    'rechaza los datos, falla o no responde, se muestra el error y los datos capturados se conservan.',
  context: { message: null, errors: [] },
  initial: 'editing',
  states: {
    editing: {
      meta: { label: 'Formulario' },
      on: { 'referral.submit': 'submitting' },
    },
    submitting: {
      meta: { label: 'Enviando recomendación' },
      tags: ['busy'],
      entry: 'clear',
      invoke: {
        id: 'submitReferral',
        src: 'submitReferral',
        input: ({ event }) => (event as { values: Referral }).values,
        onDone: {
          target: 'sent',
          actions: { type: 'showMessage', params: ({ event }) => ({ message: event.output.message }) },
        },
        onError: {
          target: 'failed',
          actions: { type: 'showErrors', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    sent: {
      meta: { label: 'Recomendación enviada' },
      after: { TOAST_MS: { target: 'editing', actions: 'clear' } },
      on: { 'referral.dismiss': { target: 'editing', actions: 'clear' }, 'referral.submit': 'submitting' },
    },
    failed: {
      meta: { label: 'Error al enviar' },
      after: { TOAST_MS: { target: 'editing', actions: 'clear' } },
      on: { 'referral.dismiss': { target: 'editing', actions: 'clear' }, 'referral.submit': 'submitting' },
    },
  },
});
