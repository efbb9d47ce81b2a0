import { assign, fromPromise, setup } from 'xstate';
import { callFailureOf } from '../domain/call-failure';
import { quoteResume } from '../domain/corporate-quote';
import type {
  AcceptedQuotationResponse,
  BuyerCostResume,
  CorporateQuote,
  CorporateQuoteResume,
  PreApprovedQuotationResponse,
  QuotationLine,
  QuotationOutcomeResponse,
} from '../domain/schemas/corporates';
import { type ErrorTransitionOf, idempotentCallStates, newIdempotencyKey } from './idempotent-call';
import { messageFromFailure } from './pronto-pago-messages';

/** The alert dialog's content (spec §2 "Alert dialog"): one message or several, and its variant. */
export interface QuotationDialog {
  messages: string[];
  variant: 'success' | 'error';
}

/**
 * A failed call as the alert dialog shows it: a 400's messages, one per line (its keys are 'index.field',
 * decision 0028), else the pronto-pago wording of call-failure.ts (messageFromFailure).
 */
export function quotationFailure(error: unknown): QuotationDialog {
  const { status, body } = callFailureOf(error);
  const perLine =
    status === 400 && body && !Array.isArray(body)
      ? Object.values(body).flatMap((entry) =>
          (Array.isArray(entry) ? entry : [entry]).filter(
            (message): message is string => typeof message === 'string' && message.length > 0,
          ),
        )
      : [];
  if (perLine.length > 0) return { messages: perLine, variant: 'error' };
  return { messages: [messageFromFailure(error).message], variant: 'error' };
}

function outcome(response: { message: string; payment_date_message: string }): QuotationDialog {
  return {
    messages: [response.message, response.payment_date_message].filter((text) => text.length > 0),
    variant: 'success',
  };
}

/** One Idempotency-Key per call of a given quotation, so a repeated click or retry never acts twice. */
export interface QuotationKeys {
  preApprove: string;
  accept: string;
  pay: string;
  reject: string;
}

function newKeys(): QuotationKeys {
  return {
    preApprove: newIdempotencyKey(),
    accept: newIdempotencyKey(),
    pay: newIdempotencyKey(),
    reject: newIdempotencyKey(),
  };
}

export interface QuotationInput {
  /** The saved pre-authorization: invoice and payment date per line. */
  lines: QuotationLine[];
}

export interface QuotationContext {
  lines: QuotationLine[];
  quotes: CorporateQuote[];
  resume: CorporateQuoteResume | null;
  /** The buyer-paid resume (spec §3 variant B) once the buyer accepted to absorb the cost. */
  buyerResume: BuyerCostResume | null;
  keys: QuotationKeys;
  dialog: QuotationDialog | null;
}

export interface KeyedLines {
  lines: QuotationLine[];
  idempotencyKey: string;
}

const quotationSetup = setup({
  types: {
    context: {} as QuotationContext,
    input: {} as QuotationInput,
    events: {} as
      | { type: 'line.remove'; invoiceId: number }
      | { type: 'payer.ask' }
      | { type: 'payer.provider' }
      | { type: 'payer.buyer' }
      | { type: 'payer.cancel' }
      | { type: 'quotation.accept' }
      | { type: 'quotation.pay' }
      | { type: 'quotation.reject' }
      | { type: 'dialog.close' },
  },
  actors: {
    // Provided by the route (src/services/corporates.service.ts) or a test; the machine never fetches.
    quote: fromPromise<
      { quotes: CorporateQuote[]; resume: CorporateQuoteResume },
      { lines: QuotationLine[] }
    >(async () => {
      throw new Error('quote was not provided');
    }),
    preApprove: fromPromise<PreApprovedQuotationResponse, KeyedLines>(async () => {
      throw new Error('preApprove was not provided');
    }),
    accept: fromPromise<AcceptedQuotationResponse, KeyedLines>(async () => {
      throw new Error('accept was not provided');
    }),
    payProviders: fromPromise<QuotationOutcomeResponse, KeyedLines>(async () => {
      throw new Error('payProviders was not provided');
    }),
    reject: fromPromise<QuotationOutcomeResponse, KeyedLines>(async () => {
      throw new Error('reject was not provided');
    }),
  },
  guards: {
    noLines: ({ context }) => context.lines.length === 0,
    removesLastLine: ({ context }, params: { invoiceId: number }) =>
      context.lines.length === 1 && context.lines[0]?.invoice_id === params.invoiceId,
    // Only a line on the quote has its 'Quitar'.
    hasLine: ({ context }, params: { invoiceId: number }) =>
      context.lines.some((line) => line.invoice_id === params.invoiceId),
  },
  actions: {
    keepQuote: assign({
      quotes: (_, params: { quotes: CorporateQuote[]; resume: CorporateQuoteResume }) => params.quotes,
      resume: (_, params: { quotes: CorporateQuote[]; resume: CorporateQuoteResume }) => params.resume,
    }),
    removeLine: assign(({ context }, params: { invoiceId: number }) => {
      const quotes = context.quotes.filter((quote) => quote.id !== params.invoiceId);
      return {
        quotes,
        lines: context.lines.filter((line) => line.invoice_id !== params.invoiceId),
        resume: quoteResume(quotes),
        // Another quotation: its calls get their own keys.
        keys: newKeys(),
      };
    }),
    keepBuyerResume: assign({
      buyerResume: (_, params: { response: AcceptedQuotationResponse }) => params.response.resume,
    }),
    showDialog: assign({ dialog: (_, params: { dialog: QuotationDialog }) => params.dialog }),
    closeDialog: assign({ dialog: null }),
    // Provided by the route: the saved pre-authorization follows the lines (removed line, or done: cleared).
    saveLines: (_, _params: { lines: QuotationLine[] }) => {},
    clearSaved: () => {},
    // Provided by the route: /dashboard/pre-autorizacion/.
    goToPreAuthorization: () => {},
    // Provided by the route: every invoice list is read again after invoices changed.
    refreshLists: () => {},
  },
});

/** A refused call: the server's words in the dialog, the lists read again, back to the lines or to the resume. */
function refusedTo(target: 'refused' | 'resumeRefused'): ErrorTransitionOf<typeof quotationSetup> {
  return {
    target,
    actions: [
      { type: 'showDialog', params: ({ event }) => ({ dialog: quotationFailure(event.error) }) },
      'refreshLists',
    ],
  };
}

/** The provider absorbs the cost: 'Aceptar' pre-approves every line with the quotation's key. */
const preApproveStates = idempotentCallStates(quotationSetup, {
  state: 'preApproving',
  label: 'Autorizando las facturas',
  tags: ['busy'],
  invoke: {
    src: 'preApprove',
    input: ({ context }) => ({ lines: context.lines, idempotencyKey: context.keys.preApprove }),
    onDone: {
      target: 'preApproved',
      actions: [
        { type: 'showDialog', params: ({ event }) => ({ dialog: outcome(event.output) }) },
        'clearSaved',
        'refreshLists',
      ],
    },
  },
  refused: refusedTo('refused'),
});

/** The buyer absorbs the cost: the lines are accepted at its charge, then the resume. */
const acceptStates = idempotentCallStates(quotationSetup, {
  state: 'accepting',
  label: 'Aceptando a cargo del comprador',
  tags: ['busy'],
  invoke: {
    src: 'accept',
    input: ({ context }) => ({ lines: context.lines, idempotencyKey: context.keys.accept }),
    onDone: {
      target: 'resume',
      actions: [
        { type: 'keepBuyerResume', params: ({ event }) => ({ response: event.output }) },
        'clearSaved',
        'refreshLists',
      ],
    },
  },
  refused: refusedTo('refused'),
});

/** 'Pagar a Proveedores' from the resume. */
const payStates = idempotentCallStates(quotationSetup, {
  state: 'paying',
  label: 'Pagando a proveedores',
  tags: ['busy'],
  invoke: {
    src: 'payProviders',
    input: ({ context }) => ({ lines: context.lines, idempotencyKey: context.keys.pay }),
    onDone: {
      target: 'paid',
      actions: [
        { type: 'showDialog', params: ({ event }) => ({ dialog: outcome(event.output) }) },
        'refreshLists',
      ],
    },
  },
  refused: refusedTo('resumeRefused'),
});

/** 'Rechazar Cotización' from the resume. */
const rejectStates = idempotentCallStates(quotationSetup, {
  state: 'rejecting',
  label: 'Rechazando la cotización',
  tags: ['busy'],
  invoke: {
    src: 'reject',
    input: ({ context }) => ({ lines: context.lines, idempotencyKey: context.keys.reject }),
    onDone: {
      target: 'rejected',
      actions: [
        { type: 'showDialog', params: ({ event }) => ({ dialog: outcome(event.output) }) },
        'refreshLists',
      ],
    },
  },
  refused: refusedTo('resumeRefused'),
});

/**
 * Spec §2 /cotizacion/ and "Quotation dialog", issue 13, decision 0028: the saved pre-authorization is quoted;
 * the buyer may remove lines (the totals are quoteResume of the rest), then says who absorbs the financial
 * cost. Provider: 'Aceptar' pre-approves every invoice (Autorizada). Buyer: the invoices are accepted with the
 * buyer as payer and the resume offers 'Pagar a Proveedores' (the advance at no cost to the provider) or
 * 'Rechazar Cotización'. Every failure shows in the alert dialog. Without lines the page goes back to
 * pre-authorization.
 */
export const quotationMachine = quotationSetup.createMachine({
  id: 'quotation',
  meta: {
    title: 'Cotización del comprador (quién absorbe el costo)',
    events: {
      always: 'Automático',
      'xstate.done.actor.quote': 'El servidor entrega la cotización',
      'xstate.error.actor.quote': 'El servidor rechaza la cotización o no responde',
      'dialog.close': '«Cerrar»',
      'line.remove': '«Quitar»',
      'payer.ask': '«Continuar»',
      'payer.provider': '«El proveedor»',
      'payer.buyer': '«El comprador»',
      'payer.cancel': '«Cancelar»',
      'quotation.accept': '«Aceptar»',
      'xstate.done.actor.preApprove': 'El servidor autoriza las facturas',
      'xstate.error.actor.preApprove': 'El servidor rechaza la autorización o no responde',
      'xstate.done.actor.accept': 'El servidor acepta la cotización a cargo del comprador',
      'xstate.error.actor.accept': 'El servidor rechaza la aceptación o no responde',
      'quotation.pay': '«Pagar a Proveedores»',
      'quotation.reject': '«Rechazar Cotización»',
      'xstate.done.actor.payProviders': 'El servidor registra el pago a proveedores',
      'xstate.error.actor.payProviders': 'El servidor rechaza el pago o no responde',
      'xstate.done.actor.reject': 'El servidor registra el rechazo de la cotización',
      'xstate.error.actor.reject': 'El servidor no acepta el rechazo o no responde',
    },
    guards: {
      noLines: 'No hay facturas pre-autorizadas que cotizar.',
      removesLastLine: 'La línea que se quita es la única de la cotización.',
      hasLine: 'La línea que se quita está en la cotización.',
    },
  },
  description:
    'La cotización de las facturas pre-autorizadas: una línea por factura con días, tasa anual (tasa + IVA), ' +
    'costo financiero, IVA y neto al proveedor, y los totales en MXN y USD. Quitar una línea baja los totales ' +
    'exactamente en sus importes; sin líneas se vuelve a Pre-autorización. El diálogo pregunta quién absorbe el ' +
    'costo financiero: si el proveedor, «Aceptar» deja las facturas Autorizadas con su fecha de pago; si el ' +
    'comprador, las facturas se aceptan a su cargo y el resumen ofrece «Pagar a Proveedores» (el proveedor ' +
    'recibe el monto completo sin costo) o «Rechazar Cotización». Cada error se muestra en el diálogo de aviso.',
  context: ({ input }) => ({
    lines: input.lines,
    quotes: [],
    resume: null,
    buyerResume: null,
    keys: newKeys(),
    dialog: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      meta: { label: 'Inicio' },
      always: [{ guard: 'noLines', target: 'leaving' }, { target: 'loading' }],
    },
    loading: {
      meta: { label: 'Cargando cotización' },
      tags: ['busy'],
      invoke: {
        id: 'quote',
        src: 'quote',
        input: ({ context }) => ({ lines: context.lines }),
        onDone: {
          target: 'quoted',
          actions: { type: 'keepQuote', params: ({ event }) => event.output },
        },
        onError: {
          target: 'loadFailed',
          actions: { type: 'showDialog', params: ({ event }) => ({ dialog: quotationFailure(event.error) }) },
        },
      },
    },
    // Nothing to show without a quote: closing the dialog goes back to fix the dates or the selection.
    loadFailed: {
      meta: { label: 'Error al cotizar' },
      on: { 'dialog.close': { target: 'leaving', actions: 'closeDialog' } },
    },
    quoted: {
      meta: { label: 'Cotización' },
      on: {
        'line.remove': [
          {
            guard: { type: 'removesLastLine', params: ({ event }) => ({ invoiceId: event.invoiceId }) },
            target: 'leaving',
            actions: 'clearSaved',
          },
          {
            guard: { type: 'hasLine', params: ({ event }) => ({ invoiceId: event.invoiceId }) },
            actions: [
              { type: 'removeLine', params: ({ event }) => ({ invoiceId: event.invoiceId }) },
              { type: 'saveLines', params: ({ context }) => ({ lines: context.lines }) },
            ],
          },
        ],
        'payer.ask': 'choosingPayer',
      },
    },
    choosingPayer: {
      meta: { label: '¿Quién absorbe el costo financiero?' },
      on: {
        'payer.provider': 'providerAbsorbs',
        'payer.buyer': 'accepting',
        'payer.cancel': 'quoted',
      },
    },
    providerAbsorbs: {
      meta: { label: 'Absorbe el proveedor' },
      on: {
        'quotation.accept': 'preApproving',
        'payer.cancel': 'quoted',
      },
    },
    ...preApproveStates,
    ...acceptStates,
    // A refused pre-approval or acceptance: the quote stays so the buyer can remove the line named.
    refused: {
      meta: { label: 'Rechazo del servidor' },
      on: { 'dialog.close': { target: 'quoted', actions: 'closeDialog' } },
    },
    resume: {
      meta: { label: 'Resumen de la cotización' },
      on: {
        'quotation.pay': 'paying',
        'quotation.reject': 'rejecting',
      },
    },
    ...payStates,
    ...rejectStates,
    // The invoices are already accepted at the buyer's cost: back to the resume, to pay or reject again.
    resumeRefused: {
      meta: { label: 'Error en el resumen' },
      on: { 'dialog.close': { target: 'resume', actions: 'closeDialog' } },
    },
    preApproved: {
      meta: { label: 'Facturas autorizadas' },
      on: { 'dialog.close': { target: 'leaving', actions: 'closeDialog' } },
    },
    paid: {
      meta: { label: 'Proveedores pagados' },
      on: { 'dialog.close': { target: 'leaving', actions: 'closeDialog' } },
    },
    rejected: {
      meta: { label: 'Cotización rechazada' },
      on: { 'dialog.close': { target: 'leaving', actions: 'closeDialog' } },
    },
    leaving: {
      meta: { label: 'Volver a Pre-autorización' },
      entry: 'goToPreAuthorization',
    },
  },
});
