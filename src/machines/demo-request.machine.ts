import { assign, fromPromise, setup } from 'xstate';
import type { CallFailure } from '../domain/call-failure';
import type { DemoRequest } from '../domain/schemas/session';
import { SERVER_MESSAGES } from '../domain/schemas/session';

export const DEMO_REQUEST_SENT = SERVER_MESSAGES.demoRequestSent;
export const DEMO_REQUEST_FAILED = 'No pudimos enviar tu solicitud. Por favor, intenta de nuevo.';

/**
 * Spec §8: on error, the first message of each entry of the response's `errors` object is shown; a 429 (too
 * many requests from this address) shows the server's `detail`, which says to wait; anything else (500, no
 * response) gets one generic message so the user knows to retry.
 */
export function demoRequestErrorMessages(error: unknown): string[] {
  const failure = error as Partial<CallFailure> | null;
  const body = failure?.body as { errors?: unknown; detail?: unknown } | null | undefined;
  const errors = body?.errors;
  if (errors && typeof errors === 'object' && !Array.isArray(errors)) {
    const messages = Object.values(errors as Record<string, unknown>)
      .map((entry) => (Array.isArray(entry) ? entry[0] : entry))
      .filter((message): message is string => typeof message === 'string' && message.length > 0);
    if (messages.length > 0) return messages;
  }
  if (failure?.status === 429 && typeof body?.detail === 'string' && body.detail.trim() !== '') {
    return [body.detail];
  }
  return [DEMO_REQUEST_FAILED];
}

export const demoRequestMachine = setup({
  types: {
    context: {} as { errors: string[] },
    events: {} as { type: 'demo.submit'; values: DemoRequest } | { type: 'demo.dismiss' },
  },
  actors: {
    // Provided by the route (the real call) or a test; the machine never fetches.
    submitDemoRequest: fromPromise<unknown, DemoRequest>(async () => {
      throw new Error('submitDemoRequest was not provided');
    }),
  },
  actions: {
    clearErrors: assign({ errors: () => [] }),
    showErrors: assign({ errors: (_, params: { error: unknown }) => demoRequestErrorMessages(params.error) }),
  },
  delays: {
    // Spec §8: the success toast shows for 3 s; error toasts follow the same rhythm.
    TOAST_MS: 3000,
  },
}).createMachine({
  id: 'demoRequest',
  meta: {
    title: 'Solicitud de demo',
    events: {
      'demo.submit': '«Solicitar demo»',
      'xstate.done.actor.submitDemoRequest': 'El servidor acepta la solicitud',
      'xstate.error.actor.submitDemoRequest': 'El servidor rechaza la solicitud o no responde',
      'demo.dismiss': 'Cierra el aviso',
      'xstate.after.TOAST_MS': 'Pasan 3 segundos',
    },
  },
  description:
    'Formulario público para pedir una demostración. Los campos se validan con las mismas reglas en el navegador ' +
    'y en el servidor; al enviarse se muestra «Solicitud enviada con éxito» durante 3 segundos y el formulario se ' +
    'limpia. Si el servidor rechaza algún campo, falla o no responde, se muestran los mensajes de error y los ' +
    'datos capturados se conservan.',
  context: { errors: [] },
  initial: 'editing',
  states: {
    editing: {
      meta: { label: 'Formulario' },
      on: { 'demo.submit': 'submitting' },
    },
    submitting: {
      meta: { label: 'Enviando solicitud' },
      tags: ['busy'],
      entry: 'clearErrors',
      invoke: {
        id: 'submitDemoRequest',
        src: 'submitDemoRequest',
        input: ({ event }) => (event as { values: DemoRequest }).values,
        onDone: 'sent',
        onError: {
          target: 'failed',
          actions: { type: 'showErrors', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    sent: {
      meta: { label: 'Solicitud enviada con éxito' },
      after: { TOAST_MS: 'editing' },
      on: { 'demo.dismiss': 'editing', 'demo.submit': 'submitting' },
    },
    failed: {
      meta: { label: 'Error al enviar' },
      after: { TOAST_MS: { target: 'editing', actions: 'clearErrors' } },
      on: { 'demo.dismiss': { target: 'editing', actions: 'clearErrors' }, 'demo.submit': 'submitting' },
    },
  },
});
