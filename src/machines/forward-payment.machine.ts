import { assign, fromPromise, setup } from 'xstate';
import type { InvoiceSubject } from '../domain/invoice-money';
import type { ForwardPaymentQuote, MessageResponse } from '../domain/schemas/invoices';
import { answerLost, idempotentCallStates, newIdempotencyKey } from './idempotent-call';
import {
  type DialogMessage,
  messageFromFailure,
  messageFromRefusal,
  messageFromResponse,
} from './pronto-pago-messages';

export const QUOTE_FAILED_MESSAGE = 'No pudimos obtener la cotización. Por favor, intenta de nuevo.';

export interface ApproveForwardPaymentInput {
  invoiceId: number;
  idempotencyKey: string;
}

/** The row the advance is for: what the drawer names it by (folio, amount with its currency, peso value). */
export type AdvanceInvoice = InvoiceSubject;

export interface ForwardPaymentContext {
  invoice: AdvanceInvoice | null;
  quote: ForwardPaymentQuote | null;
  /** One key per confirmation; kept for a retry after a lost answer, so the advance cannot happen twice. */
  idempotencyKey: string | null;
  /** The quote's failure (drawer) or the approval's answer (dialog). */
  dialog: DialogMessage | null;
}

const forwardPaymentSetup = setup({
  types: {
    context: {} as ForwardPaymentContext,
    events: {} as
      | { type: 'advance.open'; invoice: AdvanceInvoice }
      | { type: 'advance.retry' }
      | { type: 'advance.confirm' }
      | { type: 'advance.close' }
      | { type: 'dialog.close' },
  },
  actors: {
    // Provided by the route (GET / POST providers/forward-payment/) or a test; the machine never fetches.
    loadQuote: fromPromise<ForwardPaymentQuote, { invoiceId: number }>(async () => {
      throw new Error('loadQuote was not provided');
    }),
    approveForwardPayment: fromPromise<MessageResponse, ApproveForwardPaymentInput>(async () => {
      throw new Error('approveForwardPayment was not provided');
    }),
  },
  guards: {
    answerLost,
  },
  actions: {
    open: assign({
      invoice: (_, params: { invoice: AdvanceInvoice }) => params.invoice,
      quote: null,
      idempotencyKey: null,
      dialog: null,
    }),
    keepQuote: assign({ quote: (_, params: { quote: ForwardPaymentQuote }) => params.quote }),
    newIdempotencyKey: assign({ idempotencyKey: () => newIdempotencyKey(), dialog: null }),
    clearDialog: assign({ dialog: null }),
    showDialog: assign({ dialog: (_, params: { dialog: DialogMessage }) => params.dialog }),
    clear: assign({ invoice: null, quote: null, idempotencyKey: null, dialog: null }),
    // Provided by the route: the row becomes PROCESS locally (and leaves a single-status filter that no longer matches).
    markAdvanced: (_, _params: { invoiceId: number }) => {},
    // Provided by the route: the list is read again (the row may have changed under the page).
    refreshList: () => {},
  },
});

/** The approval: one key per confirmation; a lost answer keeps the drawer and retries with that key. */
const approvalStates = idempotentCallStates(forwardPaymentSetup, {
  state: 'approving',
  label: 'Enviando el adelanto',
  tags: ['drawer', 'busy'],
  invoke: {
    src: 'approveForwardPayment',
    input: ({ context }) => ({
      invoiceId: (context.invoice as AdvanceInvoice).id,
      idempotencyKey: context.idempotencyKey as string,
    }),
    onDone: {
      target: 'succeeded',
      actions: [
        { type: 'showDialog', params: ({ event }) => ({ dialog: messageFromResponse(event.output) }) },
        {
          type: 'markAdvanced',
          params: ({ context }) => ({ invoiceId: (context.invoice as AdvanceInvoice).id }),
        },
      ],
    },
  },
  refused: {
    target: 'refused',
    actions: [
      { type: 'showDialog', params: ({ event }) => ({ dialog: messageFromFailure(event.error) }) },
      'refreshList',
    ],
  },
  answerLost: {
    state: 'answerLost',
    label: 'Sin respuesta del servidor',
    tags: ['drawer'],
    actions: { type: 'showDialog', params: ({ event }) => ({ dialog: messageFromFailure(event.error) }) },
    retry: 'advance.retry',
    close: { event: 'advance.close', target: 'closed', actions: ['refreshList', 'clear'] },
  },
});

/**
 * 'Adelantar pago' on an Autorizada invoice (spec §4 APPROVED → PROCESS): the right-side drawer loads the
 * quote (retry on failure), the user confirms with its own 'Adelantar pago', the approval goes out with an
 * Idempotency-Key made once per confirmation. No answer (network loss) keeps the drawer and the key: the
 * retry replays the same request, so the server advances at most once. Success shows the success dialog and
 * the row becomes En trámite; a refusal (409 after a concurrent change…) shows the server's message and the
 * list is read again.
 */
export const forwardPaymentMachine = forwardPaymentSetup.createMachine({
  id: 'forward-payment',
  meta: {
    title: 'Adelanto de pago (Adelantar pago)',
    events: {
      'advance.open': '«Adelantar pago» en la factura',
      'xstate.done.actor.loadQuote': 'El servidor entrega la cotización',
      'xstate.error.actor.loadQuote': 'El servidor rechaza la cotización o no responde',
      'advance.retry': '«Reintentar»',
      'advance.close': '«Cerrar» el panel',
      'advance.confirm': '«Adelantar pago» en el panel',
      'xstate.done.actor.approveForwardPayment': 'El servidor acepta el adelanto',
      'xstate.error.actor.approveForwardPayment': 'El servidor rechaza el adelanto o no responde',
      'dialog.close': '«Cerrar»',
    },
    guards: {
      answerLost:
        'No llegó respuesta del servidor (se perdió la conexión), así que no se sabe si el adelanto se hizo.',
    },
  },
  description:
    'En una factura Autorizada, «Adelantar pago» abre un panel lateral con la cotización: tasa anual (tasa + IVA), ' +
    'días, costo financiero, costo de asesoría y total a recibir; si la cotización falla se ofrece «Reintentar». ' +
    'Al confirmar, el adelanto se envía con una clave de idempotencia creada para esa confirmación: si se pierde ' +
    'la respuesta, el reintento usa la misma clave y el servidor no puede adelantar dos veces. Al aceptarse se ' +
    'muestra el aviso de éxito y la factura pasa a En trámite; un rechazo del servidor (por ejemplo, un cambio ' +
    'simultáneo) se muestra con su mensaje y la lista se vuelve a leer.',
  context: { invoice: null, quote: null, idempotencyKey: null, dialog: null },
  initial: 'closed',
  states: {
    closed: {
      meta: { label: 'Lista de facturas' },
      on: {
        'advance.open': {
          target: 'quoting',
          actions: {
            type: 'open',
            params: ({ event }) => ({ invoice: event.invoice }),
          },
        },
      },
    },
    quoting: {
      meta: { label: 'Cargando cotización' },
      tags: ['drawer', 'busy'],
      entry: 'clearDialog',
      invoke: {
        id: 'loadQuote',
        src: 'loadQuote',
        input: ({ context }) => ({ invoiceId: (context.invoice as AdvanceInvoice).id }),
        onDone: {
          target: 'quoted',
          actions: { type: 'keepQuote', params: ({ event }) => ({ quote: event.output }) },
        },
        onError: {
          target: 'quoteFailed',
          actions: {
            type: 'showDialog',
            params: ({ event }) => ({ dialog: messageFromRefusal(event.error, QUOTE_FAILED_MESSAGE) }),
          },
        },
      },
    },
    quoteFailed: {
      meta: { label: 'Error al cotizar' },
      tags: ['drawer'],
      on: {
        'advance.retry': 'quoting',
        'advance.close': { target: 'closed', actions: 'clear' },
      },
    },
    quoted: {
      meta: { label: 'Cotización del adelanto' },
      tags: ['drawer'],
      on: {
        'advance.confirm': { target: 'approving', actions: 'newIdempotencyKey' },
        'advance.close': { target: 'closed', actions: 'clear' },
      },
    },
    ...approvalStates,
    succeeded: {
      meta: { label: 'Adelanto aceptado' },
      on: { 'dialog.close': { target: 'closed', actions: 'clear' } },
    },
    refused: {
      meta: { label: 'Adelanto rechazado' },
      on: { 'dialog.close': { target: 'closed', actions: 'clear' } },
    },
  },
});
