import { assign, setup } from 'xstate';
import { businessDateAt, type IsoDate } from '../domain/calendar-date';
import {
  PAYMENT_DATE_TOO_FAR,
  PAYMENT_DATES_OUT_OF_RANGE_MESSAGE,
  paymentDateError,
  preAuthorizationDateError,
} from '../domain/payment-date';
import {
  type PreAuthorizationWork,
  type PreAuthorizedInvoice,
  preAuthorizationTimeLeft,
} from '../domain/pre-authorization';

/** A row the buyer can select: the invoice without a date yet. */
export type SelectableInvoice = Omit<PreAuthorizedInvoice, 'paymentDate'>;

export interface PreAuthorizationContext {
  /** The selected invoices, in the order they were selected, each with its payment date. */
  invoices: PreAuthorizedInvoice[];
  /** Epoch ms of the last change; the work is dropped 5 minutes after it (spec §9). */
  savedAt: number;
  /** 'Cotizar' was pressed with a missing or invalid date: every field shows its error, not only the touched. */
  showErrors: boolean;
  /** The blocking message (spec §5), shown in the alert dialog. */
  blockedMessage: string | null;
  /** Mexico City's business date when the page opened: a payment date must fall after it (the server's rule). */
  today: IsoDate;
}

/** The saved work, and the business date to check dates against (the clock's when not given). */
export type PreAuthorizationInput = PreAuthorizationWork & { today?: IsoDate };

function withoutInvoice(invoices: readonly PreAuthorizedInvoice[], id: number): PreAuthorizedInvoice[] {
  return invoices.filter((item) => item.id !== id);
}

function exceeds(item: PreAuthorizedInvoice): boolean {
  return paymentDateError(item.emissionDate, item.paymentDate) === PAYMENT_DATE_TOO_FAR;
}

/**
 * Spec §2 /pre-autorizacion/, §5 and §9: the buyer selects received invoices and gives each a payment date;
 * 'Cotizar' goes to the quotation only when every selected invoice has a valid date within 150 days of its
 * emission. A date beyond that blocks with the spec's message and is cleared. The work (invoices, dates, time
 * of the last change) is saved by the route after every change (`persist`) and dropped 5 minutes after the
 * last one, here by a timer and on reload by the store. The clock is Date.now (vi's fake timers move it).
 */
export const preAuthorizationMachine = setup({
  types: {
    context: {} as PreAuthorizationContext,
    input: {} as PreAuthorizationInput,
    events: {} as
      | { type: 'invoice.toggle'; invoice: SelectableInvoice }
      | { type: 'invoice.toggleAll'; invoices: readonly SelectableInvoice[] }
      | { type: 'date.change'; invoiceId: number; paymentDate: string | null }
      | { type: 'quote' }
      | { type: 'dialog.close' },
  },
  guards: {
    hasWork: ({ context }) => context.invoices.length > 0,
    // Deselecting the only selected invoice, or 'Seleccionar todos' when every row is already selected.
    leavesNothing: ({ context, event }) => {
      if (event.type === 'invoice.toggle')
        return context.invoices.length === 1 && context.invoices[0]?.id === event.invoice.id;
      if (event.type === 'invoice.toggleAll')
        return event.invoices.every((row) => context.invoices.some((item) => item.id === row.id));
      return false;
    },
    // Only a selected invoice's date field is enabled.
    isSelected: ({ context }, params: { invoiceId: number }) =>
      context.invoices.some((item) => item.id === params.invoiceId),
    selectsSomething: ({ event }) => event.type === 'invoice.toggleAll' && event.invoices.length > 0,
    someExceed: ({ context }) => context.invoices.some(exceeds),
    someInvalid: ({ context }) =>
      context.invoices.some(
        (item) => preAuthorizationDateError(item.emissionDate, item.paymentDate, context.today) !== null,
      ),
  },
  actions: {
    toggle: assign({
      invoices: ({ context }, params: { invoice: SelectableInvoice }) =>
        context.invoices.some((item) => item.id === params.invoice.id)
          ? withoutInvoice(context.invoices, params.invoice.id)
          : [...context.invoices, { ...params.invoice, paymentDate: null }],
    }),
    toggleAll: assign({
      invoices: ({ context }, params: { invoices: readonly SelectableInvoice[] }) => {
        const all = params.invoices.every((row) => context.invoices.some((item) => item.id === row.id));
        if (all) return context.invoices.filter((item) => !params.invoices.some((row) => row.id === item.id));
        const added = params.invoices
          .filter((row) => !context.invoices.some((item) => item.id === row.id))
          .map((row) => ({ ...row, paymentDate: null }));
        return [...context.invoices, ...added];
      },
    }),
    setDate: assign({
      invoices: ({ context }, params: { invoiceId: number; paymentDate: string | null }) =>
        context.invoices.map((item) =>
          item.id === params.invoiceId ? { ...item, paymentDate: params.paymentDate } : item,
        ),
    }),
    clearExceeding: assign({
      invoices: ({ context }) =>
        context.invoices.map((item) => (exceeds(item) ? { ...item, paymentDate: null } : item)),
      blockedMessage: PAYMENT_DATES_OUT_OF_RANGE_MESSAGE,
      showErrors: true,
    }),
    closeMessage: assign({ blockedMessage: null }),
    revealErrors: assign({ showErrors: true }),
    clear: assign({ invoices: [], showErrors: false, blockedMessage: null }),
    touch: assign({ savedAt: () => Date.now() }),
    // Provided by the route: save the work (an empty one clears the store).
    persist: (_, _params: PreAuthorizationWork) => {},
    // Provided by the route: /dashboard/cotizacion/, which quotes the saved work.
    goToQuotation: () => {},
  },
  delays: {
    // What is left of the 5 minutes since the last change (a reloaded page keeps counting from it).
    lifetime: ({ context }) => preAuthorizationTimeLeft(context.savedAt, Date.now()),
  },
}).createMachine({
  id: 'pre-authorization',
  meta: {
    title: 'Pre-autorización de facturas',
    events: {
      always: 'Automático',
      'invoice.toggle': 'Marca o desmarca una factura',
      'invoice.toggleAll': '«Seleccionar todos»',
      'date.change': 'Cambia la fecha de pago de una factura',
      quote: '«Cotizar»',
      'xstate.after.lifetime': 'Pasan 5 minutos desde el último cambio',
      'dialog.close': '«Cerrar»',
    },
    guards: {
      hasWork: 'Hay facturas seleccionadas guardadas en el navegador.',
      selectsSomething: 'La tabla tiene al menos una factura que seleccionar.',
      leavesNothing:
        'El cambio deja la selección vacía: se desmarca la única factura seleccionada, o se pulsa «Seleccionar todos» con todas ya seleccionadas.',
      isSelected: 'La factura cuya fecha cambia está seleccionada.',
      someExceed: 'Alguna factura seleccionada tiene una fecha de pago que excede 150 días desde su emisión.',
      someInvalid:
        'A alguna factura seleccionada le falta la fecha de pago, su fecha no es válida o no es posterior a hoy.',
    },
  },
  description:
    'El comprador selecciona facturas recibidas (una por una o con «Seleccionar todos») y da a cada una su ' +
    'fecha de pago: es requerida, debe ser una fecha válida posterior a hoy y no puede exceder 150 días desde ' +
    'la emisión; una fecha pasada se rechaza en su campo con el texto del servidor. ' +
    '«Cotizar» se habilita con una selección; si alguna fecha excede el rango se bloquea con el aviso de la ' +
    'especificación y esas fechas se borran; si falta alguna se señala en su campo. Con todas las fechas ' +
    'válidas se pasa a la cotización. La selección y las fechas se guardan en el navegador y se descartan ' +
    '5 minutos después del último cambio, también al recargar la página.',
  context: ({ input }) => ({
    invoices: input.invoices,
    savedAt: input.savedAt,
    showErrors: false,
    blockedMessage: null,
    today: input.today ?? businessDateAt(new Date()),
  }),
  initial: 'restoring',
  states: {
    restoring: {
      meta: { label: 'Recuperando la selección guardada' },
      always: [{ guard: 'hasWork', target: 'selecting' }, { target: 'empty' }],
    },
    empty: {
      meta: { label: 'Sin facturas seleccionadas' },
      on: {
        'invoice.toggle': {
          target: 'selecting',
          actions: [
            { type: 'toggle', params: ({ event }) => ({ invoice: event.invoice }) },
            'touch',
            { type: 'persist', params: ({ context }) => context },
          ],
        },
        'invoice.toggleAll': {
          guard: 'selectsSomething',
          target: 'selecting',
          actions: [
            { type: 'toggleAll', params: ({ event }) => ({ invoices: event.invoices }) },
            'touch',
            { type: 'persist', params: ({ context }) => context },
          ],
        },
      },
    },
    selecting: {
      meta: { label: 'Seleccionando facturas y fechas' },
      after: {
        lifetime: {
          target: 'empty',
          actions: ['clear', { type: 'persist', params: ({ context }) => context }],
        },
      },
      on: {
        'invoice.toggle': [
          {
            guard: 'leavesNothing',
            target: 'empty',
            actions: ['clear', 'touch', { type: 'persist', params: ({ context }) => context }],
          },
          {
            // Re-entered, so the 5 minutes count again from this change.
            target: 'selecting',
            reenter: true,
            actions: [
              { type: 'toggle', params: ({ event }) => ({ invoice: event.invoice }) },
              'touch',
              { type: 'persist', params: ({ context }) => context },
            ],
          },
        ],
        'invoice.toggleAll': [
          {
            guard: 'leavesNothing',
            target: 'empty',
            actions: ['clear', 'touch', { type: 'persist', params: ({ context }) => context }],
          },
          {
            target: 'selecting',
            reenter: true,
            actions: [
              { type: 'toggleAll', params: ({ event }) => ({ invoices: event.invoices }) },
              'touch',
              { type: 'persist', params: ({ context }) => context },
            ],
          },
        ],
        'date.change': {
          guard: { type: 'isSelected', params: ({ event }) => ({ invoiceId: event.invoiceId }) },
          target: 'selecting',
          reenter: true,
          actions: [
            {
              type: 'setDate',
              params: ({ event }) => ({ invoiceId: event.invoiceId, paymentDate: event.paymentDate }),
            },
            'touch',
            { type: 'persist', params: ({ context }) => context },
          ],
        },
        quote: [
          {
            guard: 'someExceed',
            target: 'blocked',
            actions: ['clearExceeding', 'touch', { type: 'persist', params: ({ context }) => context }],
          },
          { guard: 'someInvalid', actions: 'revealErrors' },
          { target: 'quoting' },
        ],
      },
    },
    blocked: {
      meta: { label: 'Fechas fuera de rango' },
      on: {
        'dialog.close': { target: 'selecting', actions: 'closeMessage' },
      },
    },
    quoting: {
      meta: { label: 'Ir a la cotización' },
      entry: 'goToQuotation',
    },
  },
});
