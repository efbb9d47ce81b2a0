import { assign, fromPromise, setup } from 'xstate';
import { factoringOption, factoringRequestForOption } from '../domain/factoring';
import {
  FACTORING_ENABLE_FAILED,
  FACTORING_NOT_ENABLED,
  FACTORING_QUOTE_FAILED,
  factoringContactMessage,
} from '../domain/factoring-messages';
import { MIN_FACTORING_INSTALMENTS } from '../domain/factoring-terms';
import type { InvoiceSubject } from '../domain/invoice-money';
import type { FactoringQuote, FactoringRequest } from '../domain/schemas/factoring';
import type { MessageResponse } from '../domain/schemas/invoices';
import { answerLost, idempotentCallStates, newIdempotencyKey } from './idempotent-call';
import {
  type DialogMessage,
  messageFromFailure,
  messageFromRefusal,
  messageFromResponse,
} from './pronto-pago-messages';

export interface TransferFactoringInput {
  request: FactoringRequest;
  idempotencyKey: string;
}

/**
 * The instalments chosen when the panel opens: one (30 days), the option the quote's headline figures
 * (days, cost_financing, total) describe, so what the panel first shows is what the server quoted
 * (docs/decisions/0036, Client).
 */
export const DEFAULT_FACTORING_INSTALMENTS = MIN_FACTORING_INSTALMENTS;

export interface FactoringEnrolmentContext {
  /** The row the panel is for: what it names it by (folio, amount with its currency, peso value). */
  invoice: InvoiceSubject | null;
  quote: FactoringQuote | null;
  instalments: number;
  /** One key per 'Transferir'; kept for a retry after a lost answer, so the transfer cannot happen twice. */
  idempotencyKey: string | null;
  /** The header card's enrolment shows the contact text with this address (spec §8 corporate-facing). */
  contactEmail: string | null;
  /** The quote's failure (panel) or an answer (dialog). */
  dialog: DialogMessage | null;
}

export type FactoringEnrolmentEvent =
  /** 'Solicitar Factoraje' on a row; hasFactoring is the account's flag as the factoring list last said. */
  | { type: 'factoring.request'; invoice: InvoiceSubject; hasFactoring: boolean }
  /** The blue header card 'Date de alta…': the enable request alone. */
  | { type: 'enrolment.request'; contactEmail: string }
  | { type: 'factoring.retry' }
  | { type: 'factoring.choose'; instalments: number }
  | { type: 'factoring.transfer' }
  | { type: 'factoring.close' }
  | { type: 'dialog.close' };

/**
 * The enable request's answer. From a row (provider screen) the server's own message and message_type (spec §8:
 * not enabled, or already requested); from the header card the corporate-facing contact text replaces the
 * first request's 'not enabled' answer, which would read oddly under 'Date de alta'.
 */
function enrolmentAnswer(response: MessageResponse, contactEmail: string | null): DialogMessage {
  if (contactEmail !== null && response.message === FACTORING_NOT_ENABLED) {
    return { message: factoringContactMessage(contactEmail), messageType: response.message_type };
  }
  return messageFromResponse(response);
}

const EMPTY: FactoringEnrolmentContext = {
  invoice: null,
  quote: null,
  instalments: DEFAULT_FACTORING_INSTALMENTS,
  idempotencyKey: null,
  contactEmail: null,
  dialog: null,
};

const factoringEnrolmentSetup = setup({
  types: {
    context: {} as FactoringEnrolmentContext,
    events: {} as FactoringEnrolmentEvent,
  },
  actors: {
    // Provided by the route (POST factoring-enable/, GET factoring-calculations/{id}/, POST factoring/) or a
    // test; the machine never fetches.
    enableFactoring: fromPromise<MessageResponse>(async () => {
      throw new Error('enableFactoring was not provided');
    }),
    loadQuote: fromPromise<FactoringQuote, { invoiceId: number }>(async () => {
      throw new Error('loadQuote was not provided');
    }),
    // POST factoring/ also answers the record's id; the panel only shows the message.
    transferFactoring: fromPromise<MessageResponse, TransferFactoringInput>(async () => {
      throw new Error('transferFactoring was not provided');
    }),
  },
  guards: {
    hasFactoring: (_, params: { hasFactoring: boolean }) => params.hasFactoring,
    answerLost,
    /** Only the quote's own options can be chosen (1-4 instalments, spec §9). */
    isQuotedOption: ({ context }, params: { instalments: number }) =>
      context.quote !== null && factoringOption(context.quote, params.instalments) !== null,
  },
  actions: {
    open: assign((_, params: { invoice: InvoiceSubject }) => ({ ...EMPTY, invoice: params.invoice })),
    openEnrolment: assign((_, params: { contactEmail: string | null }) => ({
      ...EMPTY,
      contactEmail: params.contactEmail,
    })),
    keepQuote: assign({
      quote: (_, params: { quote: FactoringQuote }) => params.quote,
      instalments: DEFAULT_FACTORING_INSTALMENTS,
    }),
    choose: assign({ instalments: (_, params: { instalments: number }) => params.instalments }),
    newIdempotencyKey: assign({ idempotencyKey: () => newIdempotencyKey(), dialog: null }),
    clearDialog: assign({ dialog: null }),
    showDialog: assign({ dialog: (_, params: { dialog: DialogMessage }) => params.dialog }),
    clear: assign(EMPTY),
    // Provided by the route: the row becomes FACTORING locally (and leaves a single-status filter it no longer matches).
    markFactoring: (_, _params: { invoiceId: number }) => {},
    // Provided by the route: the lists are read again (the row, the line's figures and has_factoring may have changed).
    refreshList: () => {},
  },
});

/** The transfer: one key per 'Transferir'; a lost answer keeps the panel and retries with that key. */
const transferStates = idempotentCallStates(factoringEnrolmentSetup, {
  state: 'transferring',
  label: 'Transfiriendo',
  tags: ['drawer', 'busy'],
  invoke: {
    src: 'transferFactoring',
    input: ({ context }) => ({
      request: factoringRequestForOption(context.quote as FactoringQuote, context.instalments),
      idempotencyKey: context.idempotencyKey as string,
    }),
    onDone: {
      target: 'transferred',
      actions: [
        { type: 'showDialog', params: ({ event }) => ({ dialog: messageFromResponse(event.output) }) },
        {
          type: 'markFactoring',
          params: ({ context }) => ({ invoiceId: (context.invoice as InvoiceSubject).id }),
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
    retry: 'factoring.retry',
    close: { event: 'factoring.close', target: 'closed', actions: ['refreshList', 'clear'] },
  },
});

/**
 * 'Solicitar Factoraje' (spec §4, §8, §9; issue 15). An account without a line sends the enable request and
 * shows the server's answer; an account with one loads the quote into the right-side panel, the user picks 1-4
 * instalments and confirms with 'Transferir', sent with an Idempotency-Key made once per confirmation and kept
 * for a retry after a lost answer. Success makes the row FACTORING locally; a refusal (line exhausted, quote or
 * invoice changed) shows the server's message and the list is read again.
 */
export const factoringEnrolmentMachine = factoringEnrolmentSetup.createMachine({
  id: 'factoring-enrolment',
  meta: {
    title: 'Factoraje (Solicitar Factoraje)',
    events: {
      'factoring.request': '«Solicitar Factoraje»',
      'enrolment.request': '«Date de alta y solicita una línea revolvente de factoraje»',
      'xstate.done.actor.enableFactoring': 'El servidor responde a la solicitud de alta',
      'xstate.error.actor.enableFactoring': 'El servidor falla o no responde',
      'dialog.close': '«Cerrar»',
      'xstate.done.actor.loadQuote': 'El servidor entrega la cotización',
      'xstate.error.actor.loadQuote': 'El servidor rechaza la cotización o no responde',
      'factoring.retry': '«Reintentar»',
      'factoring.close': '«Cerrar» el panel',
      'factoring.choose': 'Elige el número de pagos',
      'factoring.transfer': '«Transferir»',
      'xstate.done.actor.transferFactoring': 'El servidor acepta el factoraje',
      'xstate.error.actor.transferFactoring': 'El servidor rechaza el factoraje o no responde',
    },
    guards: {
      hasFactoring: 'La cuenta tiene una línea de factoraje habilitada.',
      isQuotedOption: 'El número de pagos elegido es una de las opciones de la cotización (de 1 a 4 pagos).',
      answerLost:
        'No llegó respuesta del servidor (se perdió la conexión), así que no se sabe si la transferencia se hizo.',
    },
  },
  description:
    'En una factura que no está Pagada, En trámite ni en factoraje, «Solicitar Factoraje» revisa si la cuenta tiene ' +
    'línea de factoraje. Sin línea, envía la solicitud de alta y muestra la respuesta del servidor (una sola ' +
    'solicitud pendiente por cuenta; un segundo clic recibe el aviso de que ya está en revisión); la tarjeta azul ' +
    '«Date de alta…» envía la misma solicitud. Con línea, un panel lateral muestra la cotización: tasa de la ' +
    'línea, las cuatro opciones de 1 a 4 pagos (30, 60, 90 o 120 días), honorarios de asesoría con IVA, monto a ' +
    'transferir hoy y línea disponible. «Transferir» envía la opción elegida con una clave de idempotencia creada ' +
    'para esa confirmación: si se pierde la respuesta, el reintento usa la misma clave. Al aceptarse, la factura ' +
    'pasa a factoraje; un rechazo (línea insuficiente, cotización o factura cambiada) se muestra con el mensaje ' +
    'del servidor y la lista se vuelve a leer.',
  context: EMPTY,
  initial: 'closed',
  states: {
    closed: {
      meta: { label: 'Lista de facturas' },
      on: {
        'factoring.request': [
          {
            guard: { type: 'hasFactoring', params: ({ event }) => ({ hasFactoring: event.hasFactoring }) },
            target: 'quoting',
            actions: {
              type: 'open',
              params: ({ event }) => ({ invoice: event.invoice }),
            },
          },
          {
            target: 'enrolling',
            actions: { type: 'openEnrolment', params: { contactEmail: null } },
          },
        ],
        'enrolment.request': {
          target: 'enrolling',
          actions: { type: 'openEnrolment', params: ({ event }) => ({ contactEmail: event.contactEmail }) },
        },
      },
    },
    enrolling: {
      meta: { label: 'Enviando solicitud de alta' },
      tags: ['dialog', 'busy'],
      invoke: {
        id: 'enableFactoring',
        src: 'enableFactoring',
        onDone: {
          target: 'enrolmentAnswered',
          actions: [
            {
              type: 'showDialog',
              params: ({ context, event }) => ({
                dialog: enrolmentAnswer(event.output, context.contactEmail),
              }),
            },
            'refreshList',
          ],
        },
        onError: {
          // Spec §8: whatever went wrong (500, no answer, 401 after the client ended the session).
          target: 'enrolmentFailed',
          actions: {
            type: 'showDialog',
            params: { dialog: { message: FACTORING_ENABLE_FAILED, messageType: 'error' } },
          },
        },
      },
    },
    enrolmentAnswered: {
      meta: { label: 'Respuesta a la solicitud de alta' },
      tags: ['dialog'],
      on: { 'dialog.close': { target: 'closed', actions: 'clear' } },
    },
    enrolmentFailed: {
      meta: { label: 'Error en la solicitud de alta' },
      tags: ['dialog'],
      on: { 'dialog.close': { target: 'closed', actions: 'clear' } },
    },
    quoting: {
      meta: { label: 'Cargando cotización' },
      tags: ['drawer', 'busy'],
      entry: 'clearDialog',
      invoke: {
        id: 'loadQuote',
        src: 'loadQuote',
        input: ({ context }) => ({ invoiceId: (context.invoice as InvoiceSubject).id }),
        onDone: {
          target: 'quoted',
          actions: { type: 'keepQuote', params: ({ event }) => ({ quote: event.output }) },
        },
        onError: {
          target: 'quoteFailed',
          actions: [
            {
              type: 'showDialog',
              params: ({ event }) => ({ dialog: messageFromRefusal(event.error, FACTORING_QUOTE_FAILED) }),
            },
            // A 403 means the account's flag was stale: reading the list again brings has_factoring back.
            'refreshList',
          ],
        },
      },
    },
    quoteFailed: {
      meta: { label: 'Error al cotizar' },
      tags: ['drawer'],
      on: {
        'factoring.retry': 'quoting',
        'factoring.close': { target: 'closed', actions: 'clear' },
      },
    },
    quoted: {
      meta: { label: 'Cotización de factoraje' },
      tags: ['drawer'],
      on: {
        'factoring.choose': {
          guard: { type: 'isQuotedOption', params: ({ event }) => ({ instalments: event.instalments }) },
          actions: { type: 'choose', params: ({ event }) => ({ instalments: event.instalments }) },
        },
        'factoring.transfer': { target: 'transferring', actions: 'newIdempotencyKey' },
        'factoring.close': { target: 'closed', actions: 'clear' },
      },
    },
    ...transferStates,
    transferred: {
      meta: { label: 'Factoraje aceptado' },
      tags: ['dialog'],
      on: { 'dialog.close': { target: 'closed', actions: 'clear' } },
    },
    refused: {
      meta: { label: 'Factoraje rechazado' },
      tags: ['dialog'],
      on: { 'dialog.close': { target: 'closed', actions: 'clear' } },
    },
  },
});
