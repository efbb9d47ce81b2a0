import { and, setup } from 'xstate';
import { InvoiceStatus, type InvoiceStatusCode } from '../domain/invoice-status';
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
}

export type InvoiceLifecycleEvent =
  | { type: 'invoice.requestAuthorization'; actor: LifecycleActor }
  | { type: 'invoice.authorize'; actor: LifecycleActor; paymentDate: string }
  | { type: 'invoice.preAuthorize'; actor: LifecycleActor; paymentDate: string }
  | { type: 'invoice.reject'; actor: LifecycleActor; reason?: string }
  | { type: 'invoice.approveAdvance'; actor: LifecycleActor }
  | { type: 'invoice.disburse'; actor: LifecycleActor }
  | { type: 'invoice.cancelAtSat'; actor: LifecycleActor }
  | { type: 'invoice.transferToFactoring'; actor: LifecycleActor };

export type InvoiceLifecycleEventType = InvoiceLifecycleEvent['type'];

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
    isOperator: ({ event }) => event.actor.kind === 'operator',
    isSat: ({ event }) => event.actor.kind === 'sat',
  },
}).createMachine({
  id: 'invoiceLifecycle',
  meta: { title: 'Ciclo de vida de la factura' },
  description:
    'Estados de una factura importada desde su CFDI: Por Autorizar, Solicitado, Autorizada, En trámite, Pagada, ' +
    'Factoraje, Cancelada y Rechazada. El servidor evalúa esta misma máquina en cada cambio de estado, dentro de ' +
    'una transacción que bloquea la factura y registra quién hizo el cambio; un evento no permitido se rechaza ' +
    'sin escribir nada. Las condiciones verifican que quien actúa sea el emisor o el receptor con su vinculación ' +
    'SAT autorizada y que la fecha de pago no exceda 150 días desde la emisión.',
  context: ({ input }) => input,
  initial: 'available',
  states: {
    available: {
      on: {
        'invoice.requestAuthorization': { target: 'pending', guard: 'isEmitterWithSatLink' },
        'invoice.preAuthorize': {
          target: 'approved',
          guard: and(['isReceiverWithSatLink', 'paymentDateWithin150Days']),
        },
        'invoice.transferToFactoring': { target: 'factoring', guard: 'isEmitterWithSatLink' },
        'invoice.cancelAtSat': { target: 'disabled', guard: 'isSat' },
      },
    },
    pending: {
      on: {
        'invoice.authorize': {
          target: 'approved',
          guard: and(['isReceiverWithSatLink', 'paymentDateWithin150Days']),
        },
        'invoice.reject': { target: 'rejected', guard: 'isReceiverWithSatLink' },
        'invoice.transferToFactoring': { target: 'factoring', guard: 'isEmitterWithSatLink' },
        'invoice.cancelAtSat': { target: 'disabled', guard: 'isSat' },
      },
    },
    approved: {
      on: {
        'invoice.approveAdvance': { target: 'process', guard: 'isEmitterWithSatLink' },
        'invoice.transferToFactoring': { target: 'factoring', guard: 'isEmitterWithSatLink' },
        'invoice.cancelAtSat': { target: 'disabled', guard: 'isSat' },
      },
    },
    // The advance was requested: money is about to move, so only the disbursement or a SAT cancellation.
    process: {
      on: {
        'invoice.disburse': { target: 'paid', guard: 'isOperator' },
        'invoice.cancelAtSat': { target: 'disabled', guard: 'isSat' },
      },
    },
    // Decision (docs/decisions/0003-invoice-lifecycle.md): a rejected invoice is not re-requested by the
    // provider; the corporate may still pre-authorize it, and the provider may factor it.
    rejected: {
      on: {
        'invoice.preAuthorize': {
          target: 'approved',
          guard: and(['isReceiverWithSatLink', 'paymentDateWithin150Days']),
        },
        'invoice.transferToFactoring': { target: 'factoring', guard: 'isEmitterWithSatLink' },
        'invoice.cancelAtSat': { target: 'disabled', guard: 'isSat' },
      },
    },
    // Paid, in factoring and cancelled are terminal: a SAT cancellation after payment is handled off-platform.
    paid: { type: 'final' },
    factoring: { type: 'final' },
    disabled: { type: 'final' },
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
