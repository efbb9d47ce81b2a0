import { assign, fromPromise, setup } from 'xstate';
import { SatStatus, type SatStatusCode } from '../domain/sat-status';
import type { SatLinkStatus, TaxLink } from '../domain/schemas/session';
import { SERVER_MESSAGES } from '../domain/schemas/session';
import { fieldErrorsOf } from './field-errors';

export const SAT_LINK_SENT = SERVER_MESSAGES.taxLinkSent;
export const SAT_LINK_FAILED = 'Error al enviar las credenciales. Por favor, intenta de nuevo';
export const SAT_LINK_WAITING =
  'Recibimos tus credenciales. Tu vinculación con el SAT se aprobará en las próximas horas; esta pantalla se ' +
  'actualizará sola cuando esté lista.';

/** GET /api/accounts/ciec/: the company's link as the server holds it. */
/** The server's reasons for a rejected link, per field (a 400's {rfc: [message]} or {ciec: [message]}). */
export type TaxLinkFieldErrors = Partial<Record<keyof TaxLink, string[]>>;

const TAX_LINK_FIELDS: readonly (keyof TaxLink)[] = ['rfc', 'ciec'];

/** The field errors of a 400 on the form's own fields, or none when the failure carried no fields. */
export function taxLinkFieldErrors(error: unknown): TaxLinkFieldErrors {
  return fieldErrorsOf(error, TAX_LINK_FIELDS);
}

export interface SatLinkContext {
  /** The link status as last known: the user store's at start, then the server's. */
  status: SatStatusCode;
  /** Why a link ended without the operator's approval (another account won the RFC, or it lapsed), or null. */
  reason: string | null;
  /** The last submission's field errors from the server; shown under the fields until the next submit. */
  fieldErrors: TaxLinkFieldErrors;
}

/**
 * 'Credenciales SAT' (spec §2, §4, §8): the server's link status decides the screen. Not linked or rejected
 * shows the form (rejected with its warning); submitting sets it SENT; while SENT the form is hidden and the
 * status is polled until the operator approves (go to Pronto Pago) or rejects (form again).
 */
export const satLinkMachine = setup({
  types: {
    context: {} as SatLinkContext,
    input: {} as { satCredentials: SatStatusCode },
    events: {} as { type: 'satLink.submit'; values: TaxLink } | { type: 'satLink.dismiss' },
  },
  actors: {
    // Provided by the route (the real calls) or a test; the machine never fetches.
    loadStatus: fromPromise<SatLinkStatus>(async () => {
      throw new Error('loadStatus was not provided');
    }),
    submitTaxLink: fromPromise<unknown, TaxLink>(async () => {
      throw new Error('submitTaxLink was not provided');
    }),
  },
  actions: {
    keepStatus: assign({
      status: (_, params: { status: SatStatusCode; reason?: string | null }) => params.status,
      reason: (_, params: { status: SatStatusCode; reason?: string | null }) => params.reason ?? null,
    }),
    clearFieldErrors: assign({ fieldErrors: {} }),
    keepFieldErrors: assign({
      fieldErrors: (_, params: { error: unknown }) => taxLinkFieldErrors(params.error),
    }),
    // The wiring copies the status into the user store, so the dashboard guards see it.
    storeStatus: (_, _params: { status: SatStatusCode }) => {},
    goToProntoPago: () => {},
  },
  guards: {
    isAuthorized: ({ context }) => context.status === SatStatus.AUTHORIZED,
    isSent: ({ context }) => context.status === SatStatus.SENT,
  },
  delays: {
    // Spec §9: the tax-link snackbar shows for 3 s.
    TOAST_MS: 3000,
    // How often the waiting screen asks whether the operator decided; approval takes hours, so no hurry.
    POLL_MS: 15_000,
  },
}).createMachine({
  id: 'satLink',
  meta: {
    title: 'Vinculación SAT',
    events: {
      'xstate.done.actor.loadStatus': 'El servidor entrega el estado de la vinculación',
      'xstate.error.actor.loadStatus': 'El servidor falla o no responde',
      always: 'Automático',
      'satLink.submit': '«Enviar credenciales»',
      'xstate.done.actor.submitTaxLink': 'El servidor acepta las credenciales',
      'xstate.error.actor.submitTaxLink': 'El servidor rechaza las credenciales o no responde',
      'satLink.dismiss': 'Cierra el aviso',
      'xstate.after.TOAST_MS': 'Pasan 3 segundos',
      'xstate.after.POLL_MS': 'Pasan 15 segundos',
      'xstate.done.actor.pollStatus': 'El servidor entrega el estado de la vinculación',
      'xstate.error.actor.pollStatus': 'El servidor falla o no responde',
    },
    guards: {
      isAuthorized: 'La vinculación SAT del proveedor está autorizada.',
      isSent: 'Las credenciales SAT se enviaron y esperan la aprobación.',
    },
  },
  description:
    'El proveedor vincula su cuenta del SAT con su RFC y su contraseña CIEC; mientras la vinculación no esté ' +
    'autorizada, todas las pantallas del dashboard lo traen aquí. Al abrir la pantalla se consulta el estado en el ' +
    'servidor: sin vincular o rechazada muestra el formulario (con el aviso «La última solicitud de vinculación fue ' +
    'rechazada» si fue rechazada); enviada oculta el formulario y pide esperar la aprobación, consultando el estado ' +
    'cada 15 segundos; autorizada lleva a Pronto Pago. Un error al enviar muestra un aviso y conserva los datos.',
  context: ({ input }) => ({ status: input.satCredentials, reason: null, fieldErrors: {} }),
  initial: 'loading',
  states: {
    loading: {
      meta: { label: 'Consultando la vinculación' },
      tags: ['busy'],
      invoke: {
        id: 'loadStatus',
        src: 'loadStatus',
        onDone: {
          target: 'routing',
          actions: [
            {
              type: 'keepStatus',
              params: ({ event }) => ({
                status: event.output.sat_credentials_status,
                reason: event.output.reason,
              }),
            },
            { type: 'storeStatus', params: ({ event }) => ({ status: event.output.sat_credentials_status }) },
          ],
        },
        // Without an answer the stored status decides (a 401 has already ended the session).
        onError: 'routing',
      },
    },
    routing: {
      meta: { label: 'Según el estado de la vinculación' },
      always: [
        { guard: 'isAuthorized', target: 'authorized' },
        { guard: 'isSent', target: 'sent.waiting' },
        { target: 'form' },
      ],
    },
    form: {
      meta: { label: 'Formulario de credenciales SAT' },
      initial: 'editing',
      states: {
        editing: {
          meta: { label: 'Capturando RFC y CIEC' },
          on: { 'satLink.submit': 'submitting' },
        },
        submitting: {
          meta: { label: 'Enviando credenciales' },
          tags: ['busy'],
          entry: 'clearFieldErrors',
          invoke: {
            id: 'submitTaxLink',
            src: 'submitTaxLink',
            input: ({ event }) => (event as { values: TaxLink }).values,
            onDone: {
              target: '#satLink.sent.confirmed',
              actions: [
                { type: 'keepStatus', params: { status: SatStatus.SENT } },
                { type: 'storeStatus', params: { status: SatStatus.SENT } },
              ],
            },
            // Spec §8's toast either way; a 400's field reasons also go under their fields.
            onError: {
              target: 'failed',
              actions: { type: 'keepFieldErrors', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        failed: {
          meta: { label: 'Error al enviar' },
          after: { TOAST_MS: 'editing' },
          on: { 'satLink.dismiss': 'editing', 'satLink.submit': 'submitting' },
        },
      },
    },
    sent: {
      meta: { label: 'Vinculación en revisión' },
      initial: 'waiting',
      states: {
        confirmed: {
          meta: { label: 'Credenciales enviadas' },
          after: { TOAST_MS: 'waiting' },
          on: { 'satLink.dismiss': 'waiting' },
        },
        waiting: {
          meta: { label: 'Esperando la aprobación' },
          after: { POLL_MS: 'polling' },
        },
        polling: {
          meta: { label: 'Consultando el estado' },
          invoke: {
            id: 'pollStatus',
            src: 'loadStatus',
            onDone: {
              target: '#satLink.routing',
              actions: [
                {
                  type: 'keepStatus',
                  params: ({ event }) => ({
                    status: event.output.sat_credentials_status,
                    reason: event.output.reason,
                  }),
                },
                {
                  type: 'storeStatus',
                  params: ({ event }) => ({ status: event.output.sat_credentials_status }),
                },
              ],
            },
            // A missed poll is retried on the next tick.
            onError: 'waiting',
          },
        },
      },
    },
    authorized: {
      meta: { label: 'Vinculación autorizada' },
      type: 'final',
      entry: 'goToProntoPago',
    },
  },
});
