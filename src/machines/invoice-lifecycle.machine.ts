import { and, assign, setup } from 'xstate';
import type { StoredQuoteFigures } from '../domain/forward-payment';
import {
  InvoiceStatus,
  type InvoiceStatusCode,
  PROVIDER_STATUS_FILTER_OPTIONS,
} from '../domain/invoice-status';
import { paymentDateError } from '../domain/payment-date';

/**
 * The invoice status lifecycle: one definition for the browser and the server.
 * The server evaluates it as a pure function (resolveState + can/transition) inside the
 * transaction that locks the invoice row; nothing here performs I/O.
 */

export type ActorKind = 'provider' | 'corporate' | 'operator' | 'sat';

export interface LifecycleActor {
  kind: ActorKind;
  companyId: number | null;
  satAuthorized: boolean;
}

export interface InvoiceLifecycleContext {
  emitterCompanyId: number;
  receiverCompanyId: number;
  dateOfEmission: string;
  /**
   * The buyer absorbs the cost of this invoice's advance (it accepted a quotation as payer, decision 0028):
   * the provider is quoted no cost and the buyer may fund the advance itself. Absent means false.
   */
  buyerFundsAdvance?: boolean;
}

export type InvoiceLifecycleEvent =
  | { type: 'invoice.requestAuthorization'; actor: LifecycleActor }
  | { type: 'invoice.authorize'; actor: LifecycleActor; paymentDate: string; buyerFunds?: boolean }
  | { type: 'invoice.preAuthorize'; actor: LifecycleActor; paymentDate: string; buyerFunds?: boolean }
  | { type: 'invoice.reject'; actor: LifecycleActor; reason?: string }
  | { type: 'invoice.rejectQuotation'; actor: LifecycleActor; reason?: string }
  | { type: 'invoice.fundAdvance'; actor: LifecycleActor }
  /** `quote`: the figures the server stores with the move (the machine does not read them). */
  | { type: 'invoice.approveAdvance'; actor: LifecycleActor; quote?: StoredQuoteFigures }
  | { type: 'invoice.disburse'; actor: LifecycleActor }
  | { type: 'invoice.deskReject'; actor: LifecycleActor; reason: string }
  | { type: 'invoice.cancelAtSat'; actor: LifecycleActor }
  | { type: 'invoice.transferToFactoring'; actor: LifecycleActor };

export type InvoiceLifecycleEventType = InvoiceLifecycleEvent['type'];

/**
 * A state's Spanish label is its status's label as the provider's status filter names it: the provider label,
 * except factoring, which the filter calls 'Pagada (factoraje)' so it does not read like Pagada.
 */
function statusMeta(code: InvoiceStatusCode): { label: string } {
  const option = PROVIDER_STATUS_FILTER_OPTIONS.find((candidate) => candidate.value === code);
  return { label: option?.label ?? String(code) };
}

export const invoiceLifecycleMachine = setup({
  types: {
    context: {} as InvoiceLifecycleContext,
    events: {} as InvoiceLifecycleEvent,
    input: {} as InvoiceLifecycleContext,
  },
  guards: {
    isEmitterWithSatLink: ({ context, event }) =>
      event.actor.kind === 'provider' &&
      event.actor.companyId === context.emitterCompanyId &&
      event.actor.satAuthorized,
    isReceiverWithSatLink: ({ context, event }) =>
      event.actor.kind === 'corporate' &&
      event.actor.companyId === context.receiverCompanyId &&
      event.actor.satAuthorized,
    paymentDateWithin150Days: ({ context, event }) =>
      'paymentDate' in event && paymentDateError(context.dateOfEmission, event.paymentDate) === null,
    buyerFundsAdvance: ({ context }) => context.buyerFundsAdvance === true,
    buyerWillFund: ({ event }) => 'buyerFunds' in event && event.buyerFunds === true,
    isOperator: ({ event }) => event.actor.kind === 'operator',
    isSat: ({ event }) => event.actor.kind === 'sat',
  },
  actions: {
    // Who pays the advance's cost is decided when the buyer authorizes (decision 0028); an authorization
    // without buyerFunds leaves the context as it is (the provider pays, as always).
    recordBuyerFunds: assign({ buyerFundsAdvance: true }),
    clearBuyerFunds: assign({ buyerFundsAdvance: false }),
  },
}).createMachine({
  id: 'invoiceLifecycle',
  meta: {
    title: 'Ciclo de vida de la factura',
    events: {
      'invoice.requestAuthorization': '«Solicitar adelanto» (el proveedor pide la autorización)',
      'invoice.preAuthorize': 'El comprador pre-autoriza con fecha de pago',
      'invoice.transferToFactoring': '«Transferir» a factoraje',
      'invoice.cancelAtSat': 'El SAT cancela el CFDI',
      'invoice.authorize': '«Autorizar» la solicitud del proveedor',
      'invoice.reject': '«Rechazar» la solicitud del proveedor',
      'invoice.approveAdvance': '«Adelantar pago»',
      'invoice.fundAdvance': '«Pagar a Proveedores»',
      'invoice.rejectQuotation': '«Rechazar Cotización»',
      'invoice.disburse': 'El operador registra el desembolso',
      'invoice.deskReject': 'La mesa de control rechaza el adelanto, con un motivo',
    },
    guards: {
      isEmitterWithSatLink:
        'Quien actúa es el proveedor que emitió la factura y su vinculación SAT está autorizada.',
      isReceiverWithSatLink:
        'Quien actúa es el comprador que recibió la factura y su vinculación SAT está autorizada.',
      paymentDateWithin150Days:
        'La fecha de pago es válida y no excede 150 días desde la emisión de la factura.',
      buyerWillFund: 'El comprador indica que absorbe el costo del adelanto.',
      isSat: 'El aviso viene del SAT.',
      buyerFundsAdvance: 'El comprador aceptó la cotización absorbiendo el costo del adelanto.',
      isOperator: 'Quien actúa es un operador de Flujo.',
    },
  },
  description:
    'Estados de una factura importada desde su CFDI: Por Autorizar, Solicitado, Autorizada, En trámite, Pagada, ' +
    'Factoraje, Cancelada y Rechazada. El servidor evalúa esta misma máquina en cada cambio de estado, dentro de ' +
    'una transacción que bloquea la factura y registra quién hizo el cambio; un evento no permitido se rechaza ' +
    'sin escribir nada. Las condiciones verifican que quien actúa sea el emisor o el receptor con su vinculación ' +
    'SAT autorizada y que la fecha de pago no exceda 150 días desde la emisión. Cuando el comprador acepta una ' +
    'cotización absorbiendo el costo, él mismo puede pagar el adelanto (Pagar a Proveedores) o retirar la ' +
    'cotización mientras el proveedor no lo solicite. La mesa de control de Flujo puede rechazar un adelanto En ' +
    'trámite con un motivo: la factura vuelve a Autorizada.',
  context: ({ input }) => input,
  initial: 'available',
  states: {
    available: {
      meta: statusMeta(InvoiceStatus.AVAILABLE),
      on: {
        'invoice.requestAuthorization': { target: 'pending', guard: 'isEmitterWithSatLink' },
        'invoice.preAuthorize': [
          {
            target: 'approved',
            guard: and(['isReceiverWithSatLink', 'paymentDateWithin150Days', 'buyerWillFund']),
            actions: 'recordBuyerFunds',
          },
          { target: 'approved', guard: and(['isReceiverWithSatLink', 'paymentDateWithin150Days']) },
        ],
        'invoice.transferToFactoring': { target: 'factoring', guard: 'isEmitterWithSatLink' },
        'invoice.cancelAtSat': { target: 'disabled', guard: 'isSat' },
      },
    },
    pending: {
      meta: statusMeta(InvoiceStatus.PENDING),
      on: {
        'invoice.authorize': [
          {
            target: 'approved',
            guard: and(['isReceiverWithSatLink', 'paymentDateWithin150Days', 'buyerWillFund']),
            actions: 'recordBuyerFunds',
          },
          { target: 'approved', guard: and(['isReceiverWithSatLink', 'paymentDateWithin150Days']) },
        ],
        'invoice.reject': { target: 'rejected', guard: 'isReceiverWithSatLink' },
        'invoice.transferToFactoring': { target: 'factoring', guard: 'isEmitterWithSatLink' },
        'invoice.cancelAtSat': { target: 'disabled', guard: 'isSat' },
      },
    },
    approved: {
      meta: statusMeta(InvoiceStatus.APPROVED),
      on: {
        'invoice.approveAdvance': { target: 'process', guard: 'isEmitterWithSatLink' },
        // 'Pagar a Proveedores': the buyer that absorbs the cost funds the advance itself (decision 0028).
        'invoice.fundAdvance': {
          target: 'process',
          guard: and(['isReceiverWithSatLink', 'buyerFundsAdvance']),
        },
        // 'Rechazar Cotización': until the advance is requested, the buyer may withdraw the quotation it accepted
        // as payer; the invoice ends Rechazada, as when it does not authorize.
        'invoice.rejectQuotation': {
          target: 'rejected',
          guard: and(['isReceiverWithSatLink', 'buyerFundsAdvance']),
          actions: 'clearBuyerFunds',
        },
        'invoice.transferToFactoring': { target: 'factoring', guard: 'isEmitterWithSatLink' },
        'invoice.cancelAtSat': { target: 'disabled', guard: 'isSat' },
      },
    },
    // The advance was requested: money is about to move, so only the disbursement, the control desk's
    // rejection or a SAT cancellation.
    process: {
      meta: statusMeta(InvoiceStatus.PROCESS),
      on: {
        'invoice.disburse': { target: 'paid', guard: 'isOperator' },
        // The control desk's rejection (decision 0054): the advance goes back to Autorizada, with its reason.
        'invoice.deskReject': { target: 'approved', guard: 'isOperator' },
        'invoice.cancelAtSat': { target: 'disabled', guard: 'isSat' },
      },
    },
    // Decision (docs/decisions/0003-invoice-lifecycle.md): a rejected invoice is not re-requested by the
    // provider; the corporate may still pre-authorize it, and the provider may factor it.
    rejected: {
      meta: statusMeta(InvoiceStatus.REJECTED),
      on: {
        'invoice.preAuthorize': [
          {
            target: 'approved',
            guard: and(['isReceiverWithSatLink', 'paymentDateWithin150Days', 'buyerWillFund']),
            actions: 'recordBuyerFunds',
          },
          { target: 'approved', guard: and(['isReceiverWithSatLink', 'paymentDateWithin150Days']) },
        ],
        'invoice.transferToFactoring': { target: 'factoring', guard: 'isEmitterWithSatLink' },
        'invoice.cancelAtSat': { target: 'disabled', guard: 'isSat' },
      },
    },
    // Paid, in factoring and cancelled are terminal: a SAT cancellation after payment is handled off-platform.
    paid: { type: 'final', meta: statusMeta(InvoiceStatus.PAID) },
    factoring: { type: 'final', meta: statusMeta(InvoiceStatus.FACTORING) },
    disabled: { type: 'final', meta: statusMeta(InvoiceStatus.DISABLED) },
  },
});

/** State names of the machine, keyed by the spec's numeric status codes. */
export const STATE_BY_STATUS = {
  [InvoiceStatus.AVAILABLE]: 'available',
  [InvoiceStatus.PENDING]: 'pending',
  [InvoiceStatus.APPROVED]: 'approved',
  [InvoiceStatus.PROCESS]: 'process',
  [InvoiceStatus.PAID]: 'paid',
  [InvoiceStatus.FACTORING]: 'factoring',
  [InvoiceStatus.DISABLED]: 'disabled',
  [InvoiceStatus.REJECTED]: 'rejected',
} as const satisfies Record<InvoiceStatusCode, string>;

/** A state of the lifecycle machine: 'available', 'pending', … */
export type LifecycleStateName = (typeof STATE_BY_STATUS)[InvoiceStatusCode];

export const STATUS_BY_STATE: Record<string, InvoiceStatusCode> = Object.fromEntries(
  Object.entries(STATE_BY_STATUS).map(([code, state]) => [state, Number(code) as InvoiceStatusCode]),
);
