import { assign, fromPromise, setup } from 'xstate';
import type { MessageResponse } from '../domain/schemas/invoices';
import { idempotentCallStates, newIdempotencyKey } from './idempotent-call';
import { type DialogMessage, messageFromFailure, messageFromResponse } from './pronto-pago-messages';

export interface AuthorizationRequestInput {
  invoiceId: number;
  idempotencyKey: string;
}

export interface AuthorizationRequestContext {
  invoiceId: number | null;
  idempotencyKey: string | null;
  dialog: DialogMessage | null;
}

const authorizationRequestSetup = setup({
  types: {
    context: {} as AuthorizationRequestContext,
    events: {} as { type: 'authorization.request'; invoiceId: number } | { type: 'dialog.close' },
  },
  actors: {
    // Provided by the route (POST providers/request-payment/) or a test; the machine never fetches.
    requestAuthorization: fromPromise<MessageResponse, AuthorizationRequestInput>(async () => {
      throw new Error('requestAuthorization was not provided');
    }),
  },
  actions: {
    startRequest: assign({
      invoiceId: (_, params: { invoiceId: number }) => params.invoiceId,
      // One key per request: a double click or a replay after a lost answer cannot ask twice.
      idempotencyKey: () => newIdempotencyKey(),
      dialog: null,
    }),
    showDialog: assign({ dialog: (_, params: { dialog: DialogMessage }) => params.dialog }),
    clear: assign({ invoiceId: null, idempotencyKey: null, dialog: null }),
    // Provided by the route: the row becomes PENDING locally (and leaves a single-status filter that no longer matches).
    markRequested: (_, _params: { invoiceId: number }) => {},
    // Provided by the route: the list is read again (the row's status changed under the page).
    refreshList: () => {},
  },
});

/** The request: one key per 'Solicitar adelanto'; any failure (a lost answer too) is shown and the list read again. */
const requestStates = idempotentCallStates(authorizationRequestSetup, {
  state: 'requesting',
  label: 'Enviando solicitud (Cargando...)',
  tags: ['busy'],
  invoke: {
    src: 'requestAuthorization',
    input: ({ context }) => ({
      invoiceId: context.invoiceId as number,
      idempotencyKey: context.idempotencyKey as string,
    }),
    onDone: {
      target: 'answered',
      actions: [
        { type: 'showDialog', params: ({ event }) => ({ dialog: messageFromResponse(event.output) }) },
        { type: 'markRequested', params: ({ context }) => ({ invoiceId: context.invoiceId as number }) },
      ],
    },
  },
  refused: {
    target: 'failed',
    actions: [
      { type: 'showDialog', params: ({ event }) => ({ dialog: messageFromFailure(event.error) }) },
      'refreshList',
    ],
  },
});

/**
 * 'Solicitar adelanto' on an invoice Por Autorizar (spec §4 AVAILABLE → PENDING): the request goes out with a
 * fresh Idempotency-Key, the alert dialog shows 'Cargando...' and then the server's message and message_type
 * (the customer is notified and answers within 24 hours). Success marks the row Solicitado; a refusal (for
 * example a concurrent change: 409) refreshes the list so the row shows its real status.
 */
export const authorizationRequestMachine = authorizationRequestSetup.createMachine({
  id: 'authorization-request',
  meta: {
    title: 'Solicitud de autorización (Solicitar adelanto)',
    events: {
      'authorization.request': '«Solicitar adelanto»',
      'xstate.done.actor.requestAuthorization': 'El servidor acepta la solicitud',
      'xstate.error.actor.requestAuthorization': 'El servidor rechaza la solicitud o no responde',
      'dialog.close': '«Cerrar»',
    },
  },
  description:
    'En Pronto Pago, el proveedor pulsa «Solicitar adelanto» en una factura Por Autorizar para pedir a su cliente ' +
    'que la autorice. La solicitud lleva una clave de idempotencia, así que no puede enviarse dos veces; mientras ' +
    'se envía, el aviso muestra «Cargando...». Después se muestra el mensaje del servidor con su tipo (éxito, ' +
    'error, información o advertencia): el cliente fue notificado y responde en un plazo máximo de 24 horas, y la ' +
    'factura pasa a Solicitado. Si el servidor la rechaza, por ejemplo porque alguien ya la solicitó, se muestra ' +
    'su mensaje y la lista se vuelve a leer.',
  context: { invoiceId: null, idempotencyKey: null, dialog: null },
  initial: 'idle',
  states: {
    idle: {
      meta: { label: 'Lista de facturas' },
      on: {
        'authorization.request': {
          target: 'requesting',
          actions: { type: 'startRequest', params: ({ event }) => ({ invoiceId: event.invoiceId }) },
        },
      },
    },
    ...requestStates,
    answered: {
      meta: { label: 'Solicitud enviada' },
      on: { 'dialog.close': { target: 'idle', actions: 'clear' } },
    },
    failed: {
      meta: { label: 'Solicitud rechazada' },
      on: { 'dialog.close': { target: 'idle', actions: 'clear' } },
    },
  },
});
