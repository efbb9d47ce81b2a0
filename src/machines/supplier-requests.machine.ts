import { assign, fromPromise, setup } from 'xstate';
import { callFailureOf } from '../domain/call-failure';
import { InvoiceStatus, type InvoiceStatusCode } from '../domain/invoice-status';
import type { MessageType } from '../domain/schemas/invoices';
import type { AuthorizeRejectResponse } from '../domain/schemas/quotations';
import { idempotentCallStates, newIdempotencyKey } from './idempotent-call';
import { messageFromFailure } from './pronto-pago-messages';

/** Spec §5: a payment date is required for each invoice authorized. */
export const PAYMENT_DATE_REQUIRED = 'Requerido';

/** A selected request: the invoice, how the page names it (its folio) and, to authorize, its payment date. */
export interface RequestLine {
  invoiceId: number;
  label: string;
  /** 'YYYY-MM-DD', or '' while the row's date field is empty. */
  paymentDate: string;
}

export interface AuthorizeRequestsInput {
  lines: readonly { invoiceId: number; paymentDate: string }[];
  idempotencyKey: string;
}

export interface RejectRequestsInput {
  invoiceIds: readonly number[];
  reason: string;
  idempotencyKey: string;
}

export interface SupplierRequestsContext {
  lines: readonly RequestLine[];
  /** Ids of the selected requests still without a payment date ('Requerido' under their date field). */
  missingDates: readonly number[];
  idempotencyKey: string | null;
  messages: readonly string[];
  variant: MessageType;
}

export type SupplierRequestsEvent =
  | { type: 'requests.authorize'; lines: readonly RequestLine[] }
  | { type: 'requests.reject'; lines: readonly RequestLine[] }
  | { type: 'reject.confirm'; reason: string }
  | { type: 'reject.cancel' }
  | { type: 'dialog.close' };

/**
 * What a refused batch says, one line each: a 400 that names lines ('0.payment_date': [...]) speaks of each
 * invoice by its folio; any other failure is the server's message or detail (spec §8: the error is shown).
 */
export function failureMessages(error: unknown, lines: readonly RequestLine[]): string[] {
  const { status, body } = callFailureOf(error);
  if (status === 400 && body) {
    const perLine: string[] = [];
    for (const [key, messages] of Object.entries(body)) {
      const index = /^(\d+)\./.exec(key)?.[1];
      const line = index === undefined ? undefined : lines[Number(index)];
      if (line && Array.isArray(messages) && typeof messages[0] === 'string')
        perLine.push(`Factura ${line.label}: ${messages[0]}`);
    }
    if (perLine.length > 0) return perLine;
  }
  return [messageFromFailure(error).message];
}

const supplierRequestsSetup = setup({
  types: {
    context: {} as SupplierRequestsContext,
    events: {} as SupplierRequestsEvent,
  },
  actors: {
    // Provided by the route (POST corporates/manually-requests/authorize/ and reject/) or a test.
    authorizeRequests: fromPromise<AuthorizeRejectResponse, AuthorizeRequestsInput>(async () => {
      throw new Error('authorizeRequests was not provided');
    }),
    rejectRequests: fromPromise<AuthorizeRejectResponse, RejectRequestsInput>(async () => {
      throw new Error('rejectRequests was not provided');
    }),
  },
  guards: {
    hasSelection: ({ event }) => 'lines' in event && event.lines.length > 0,
    everyDated: ({ event }) => 'lines' in event && event.lines.every((line) => line.paymentDate !== ''),
  },
  actions: {
    markMissing: assign({
      missingDates: ({ event }) =>
        'lines' in event
          ? event.lines.filter((line) => line.paymentDate === '').map((line) => line.invoiceId)
          : [],
    }),
    takeLines: assign({
      lines: ({ event }) => ('lines' in event ? event.lines : []),
      missingDates: [],
      // One key per answer: a double click or a replay after a lost answer cannot act twice.
      idempotencyKey: () => newIdempotencyKey(),
      messages: [],
    }),
    showAnswer: assign({
      messages: (_, params: { response: AuthorizeRejectResponse }) =>
        [params.response.message, params.response.payment_date_message].filter((text) => text.trim() !== ''),
      variant: 'success' as MessageType,
    }),
    showFailure: assign({
      messages: ({ context }, params: { error: unknown }) => failureMessages(params.error, context.lines),
      variant: 'error' as MessageType,
    }),
    clear: assign({ lines: [], missingDates: [], idempotencyKey: null, messages: [], variant: 'success' }),
    // Provided by the route: the answered rows leave the requests list (and the selection).
    removeRows: (_, _params: { invoiceIds: readonly number[]; status: InvoiceStatusCode }) => {},
    // Provided by the route: the lists are read again (a request may have been answered elsewhere).
    refreshList: () => {},
  },
});

/** Authorizing the selected requests, each with its date, with the batch's key. */
const authorizeStates = idempotentCallStates(supplierRequestsSetup, {
  state: 'authorizing',
  label: 'Autorizando (Cargando...)',
  tags: ['busy'],
  invoke: {
    src: 'authorizeRequests',
    input: ({ context }) => ({
      lines: context.lines.map(({ invoiceId, paymentDate }) => ({ invoiceId, paymentDate })),
      idempotencyKey: context.idempotencyKey as string,
    }),
    onDone: {
      target: 'answered',
      actions: [
        { type: 'showAnswer', params: ({ event }) => ({ response: event.output }) },
        {
          type: 'removeRows',
          params: ({ context }) => ({
            invoiceIds: context.lines.map((l) => l.invoiceId),
            status: InvoiceStatus.APPROVED,
          }),
        },
      ],
    },
  },
  refused: {
    target: 'failed',
    actions: [{ type: 'showFailure', params: ({ event }) => ({ error: event.error }) }, 'refreshList'],
  },
});

/** Rejecting the selected requests with the confirmed reason, with the batch's key. */
const rejectStates = idempotentCallStates(supplierRequestsSetup, {
  state: 'rejecting',
  label: 'Rechazando (Cargando...)',
  tags: ['busy'],
  invoke: {
    src: 'rejectRequests',
    input: ({ context, event }) => ({
      invoiceIds: context.lines.map((line) => line.invoiceId),
      reason: event.type === 'reject.confirm' ? event.reason.trim() : '',
      idempotencyKey: context.idempotencyKey as string,
    }),
    onDone: {
      target: 'answered',
      actions: [
        { type: 'showAnswer', params: ({ event }) => ({ response: event.output }) },
        {
          type: 'removeRows',
          params: ({ context }) => ({
            invoiceIds: context.lines.map((l) => l.invoiceId),
            status: InvoiceStatus.REJECTED,
          }),
        },
      ],
    },
  },
  refused: {
    target: 'failed',
    actions: [{ type: 'showFailure', params: ({ event }) => ({ error: event.error }) }, 'refreshList'],
  },
});

/**
 * /dashboard/solicitudes/ (spec §4, §8): the corporate answers the advance requests of its suppliers. The
 * selected requests are authorized, each with its own payment date, or rejected with an optional reason; each
 * call carries a fresh Idempotency-Key. On success the rows leave the list and the dialog shows the server's
 * message and payment-date message; on failure the error message, and the list is read again.
 */
export const supplierRequestsMachine = supplierRequestsSetup.createMachine({
  id: 'supplier-requests',
  meta: {
    title: 'Solicitudes de proveedores (autorizar o rechazar)',
    events: {
      'requests.authorize': '«Autorizar»',
      'requests.reject': '«Rechazar»',
      'reject.confirm': '«Rechazar» en la confirmación',
      'reject.cancel': '«Cancelar»',
      'xstate.done.actor.authorizeRequests': 'El servidor autoriza las facturas',
      'xstate.error.actor.authorizeRequests': 'El servidor rechaza la autorización o no responde',
      'xstate.done.actor.rejectRequests': 'El servidor registra el rechazo',
      'xstate.error.actor.rejectRequests': 'El servidor no acepta el rechazo o no responde',
      'dialog.close': '«Cerrar»',
    },
    guards: {
      everyDated: 'Cada factura seleccionada tiene su fecha de pago.',
      hasSelection: 'Hay al menos una factura seleccionada.',
    },
  },
  description:
    'En Solicitudes, el corporativo ve las facturas que sus proveedores le pidieron autorizar para adelantarlas. ' +
    'Selecciona algunas y las autoriza, cada una con su fecha de pago (sin fecha, el campo dice «Requerido»), o ' +
    'las rechaza con un motivo opcional después de confirmarlo. Cada envío lleva una clave de idempotencia; ' +
    'mientras viaja, el aviso dice «Cargando...». Si sale bien, las filas dejan la lista y el aviso muestra el ' +
    'mensaje del servidor y el de la fecha de pago; si no, el mensaje de error (uno por factura cuando el ' +
    'servidor señala líneas) y la lista se vuelve a leer.',
  context: { lines: [], missingDates: [], idempotencyKey: null, messages: [], variant: 'success' },
  initial: 'idle',
  states: {
    idle: {
      meta: { label: 'Lista de solicitudes' },
      on: {
        'requests.authorize': [
          { guard: 'everyDated', target: 'authorizing', actions: 'takeLines' },
          { guard: 'hasSelection', actions: 'markMissing' },
        ],
        'requests.reject': { guard: 'hasSelection', target: 'confirmingReject', actions: 'takeLines' },
      },
    },
    confirmingReject: {
      meta: { label: 'Confirmar el rechazo' },
      on: {
        'reject.confirm': 'rejecting',
        'reject.cancel': { target: 'idle', actions: 'clear' },
      },
    },
    ...authorizeStates,
    ...rejectStates,
    answered: {
      meta: { label: 'Solicitudes respondidas' },
      on: { 'dialog.close': { target: 'idle', actions: 'clear' } },
    },
    failed: {
      meta: { label: 'Error al responder' },
      on: { 'dialog.close': { target: 'idle', actions: 'clear' } },
    },
  },
});
