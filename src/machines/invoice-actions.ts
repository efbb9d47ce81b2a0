import type { SnapshotFrom } from 'xstate';
import { displayDate, ISO_DATE_FORMAT, type IsoDate, requireIsoDate } from '../domain/calendar-date';
import { type InvoiceStatusCode, PROVIDER_STATUS_LABELS } from '../domain/invoice-status';
import { MAX_PAYMENT_DAYS } from '../domain/payment-date';
import {
  type InvoiceLifecycleContext,
  type InvoiceLifecycleEvent,
  type InvoiceLifecycleEventType,
  invoiceLifecycleMachine,
  type LifecycleActor,
  type LifecycleStateName,
  STATE_BY_STATUS,
} from './invoice-lifecycle.machine';

// "What may be done to this invoice" has one home: the lifecycle machine. This module asks it, for the
// server (inside the transaction that locked the row) and for the browser (to choose a row's buttons), and
// holds the only table of Spanish refusal messages (docs/decisions/0016-one-home-for-invoice-rules.md).

export type InvoiceLifecycleSnapshot = SnapshotFrom<typeof invoiceLifecycleMachine>;

/** What the lifecycle machine needs of an invoice: its stored status and its context. */
export interface LifecycleInvoice extends InvoiceLifecycleContext {
  status: InvoiceStatusCode;
}

/** Every event type of the lifecycle, as the machine itself lists them. */
export const INVOICE_EVENT_TYPES = invoiceLifecycleMachine.events as readonly InvoiceLifecycleEventType[];

/** The events by which a corporate sets an invoice's payment date: pre-authorizing it or answering a request. */
const PAYMENT_DATE_EVENTS: readonly InvoiceLifecycleEventType[] = [
  'invoice.preAuthorize',
  'invoice.authorize',
];

/**
 * The statuses whose state takes a corporate's payment date (spec §2 /pre-autorizacion/), read from the machine's
 * transitions: Por Autorizar, Solicitado and Rechazada today. A query narrows by them; the machine decides each row.
 */
export const PRE_AUTHORIZABLE_STATUSES: readonly InvoiceStatusCode[] = (
  Object.entries(STATE_BY_STATUS) as [string, LifecycleStateName][]
)
  .filter(([, state]) =>
    PAYMENT_DATE_EVENTS.some((type) => invoiceLifecycleMachine.states[state]?.ownEvents.includes(type)),
  )
  .map(([code]) => Number(code) as InvoiceStatusCode);

/**
 * The machine's snapshot for a stored invoice: its status resolved into the state of the same name, with
 * the invoice's companies and emission date as context. Nothing runs; ask `can()` or take `transition()`.
 * Example: resolveInvoiceSnapshot({ status: 40, … }).value === 'pending'.
 */
export function resolveInvoiceSnapshot(invoice: LifecycleInvoice): InvoiceLifecycleSnapshot {
  return invoiceLifecycleMachine.resolveState({
    value: STATE_BY_STATUS[invoice.status],
    context: {
      emitterCompanyId: invoice.emitterCompanyId,
      receiverCompanyId: invoice.receiverCompanyId,
      dateOfEmission: invoice.dateOfEmission,
      // Only present when set, so an invoice whose provider pays has the context it always had.
      ...(invoice.buyerFundsAdvance === true ? { buyerFundsAdvance: true } : {}),
    },
  }) as InvoiceLifecycleSnapshot;
}

/** A payment date the 150-day guard accepts for this emission date: the next day. */
function acceptablePaymentDate(dateOfEmission: IsoDate): IsoDate {
  return requireIsoDate(dateOfEmission, 'emission date').add(1, 'day').format(ISO_DATE_FORMAT);
}

/** The event of this type the actor would send, with a payment date the guard accepts when it carries one. */
function probeEvent(
  type: InvoiceLifecycleEventType,
  actor: LifecycleActor,
  dateOfEmission: IsoDate,
): InvoiceLifecycleEvent {
  switch (type) {
    case 'invoice.authorize':
    case 'invoice.preAuthorize':
      return { type, actor, paymentDate: acceptablePaymentDate(dateOfEmission) };
    case 'invoice.deskReject':
      return { type, actor, reason: 'motivo' };
    default:
      return { type, actor };
  }
}

/**
 * The event types the machine accepts now for this invoice from this actor. An event that carries a payment
 * date counts as accepted when it is accepted with a valid date (the day after emission); the date the
 * caller picks is judged when the event is sent.
 * Example: an AVAILABLE invoice and its emitter with an authorized SAT link →
 * {'invoice.requestAuthorization', 'invoice.transferToFactoring'}.
 */
export function acceptedInvoiceEvents(
  invoice: LifecycleInvoice,
  actor: LifecycleActor,
): ReadonlySet<InvoiceLifecycleEventType> {
  const snapshot = resolveInvoiceSnapshot(invoice);
  return new Set(
    INVOICE_EVENT_TYPES.filter((type) => snapshot.can(probeEvent(type, actor, invoice.dateOfEmission))),
  );
}

/** Which side of its list rows a dashboard viewer is on. */
export type InvoiceViewerRole = 'provider' | 'corporate';

// The viewer's own company and the other side of the row; the numbers only need to differ.
const VIEWER_COMPANY = 1;
const COUNTERPART_COMPANY = 2;

/**
 * The event types the viewer may send for one of their list rows, evaluated by the same machine as the
 * server. A provider's rows are invoices it issued, a corporate's invoices it received, and the dashboard
 * is only reachable with an authorized SAT link, so the actor is built from that.
 * Example: viewerInvoiceEvents({ status: 60, date_of_emission: '2026-01-01' }, 'provider')
 * .has('invoice.requestAuthorization') === true.
 */
export function viewerInvoiceEvents(
  row: { status: InvoiceStatusCode; date_of_emission: IsoDate },
  role: InvoiceViewerRole,
): ReadonlySet<InvoiceLifecycleEventType> {
  const provider = role === 'provider';
  return acceptedInvoiceEvents(
    {
      status: row.status,
      emitterCompanyId: provider ? VIEWER_COMPANY : COUNTERPART_COMPANY,
      receiverCompanyId: provider ? COUNTERPART_COMPANY : VIEWER_COMPANY,
      dateOfEmission: row.date_of_emission,
    },
    { kind: role, companyId: VIEWER_COMPANY, satAuthorized: true },
  );
}

/**
 * Spec §4: 'Solicitar Factoraje' shows only for invoices not in PAID, FACTORING or PROCESS. The lifecycle machine
 * is asked, as the server will ask it: it also keeps out Cancelada (a CFDI cancelled at SAT cannot be factored).
 * Example: canRequestFactoring({ status: 30, date_of_emission: '2026-01-01' }) === true; status 50 → false.
 */
export function canRequestFactoring(row: { status: InvoiceStatusCode; date_of_emission: IsoDate }): boolean {
  return viewerInvoiceEvents(row, 'provider').has('invoice.transferToFactoring');
}

// --- Refusals ---

/** What a refusal message may name: the invoice's Serie-Folio, its status label and emission date. */
export interface RefusalFacts {
  /** Serie-Folio or folio fiscal; absent when the caller has only the status. */
  label?: string;
  status: string;
  dateOfEmission?: IsoDate;
}

type RefusalText = string | ((facts: RefusalFacts) => string);

/**
 * An event's refusals: one per machine state that needs its own words, `default` for every other state,
 * and `paymentDate` when the state has the event but the 150-day guard refused the date.
 */
export type EventRefusals = Partial<Record<LifecycleStateName, RefusalText>> & {
  default: RefusalText;
  paymentDate?: RefusalText;
};

const theInvoice = (facts: RefusalFacts) => (facts.label ? `La factura ${facts.label}` : 'La factura');

const notPending: RefusalText = (facts) =>
  `${theInvoice(facts)} no tiene una solicitud pendiente: su estado es «${facts.status}».`;

const paymentDateTooFar: RefusalText = (facts) =>
  `La fecha de pago de la factura${facts.label ? ` ${facts.label}` : ''} excede el rango permitido de ${MAX_PAYMENT_DAYS} días desde su emisión${facts.dateOfEmission ? ` (${displayDate(facts.dateOfEmission)})` : ''}.`;

/** The one table of Spanish refusal messages of the invoice lifecycle, by event type and machine state. */
export const INVOICE_REFUSALS = {
  'invoice.requestAuthorization': {
    pending:
      'Ya solicitaste la autorización de esta factura. Tu cliente responderá en un plazo máximo de 24 horas.',
    default: (facts) =>
      `No puedes solicitar la autorización de esta factura: su estado es «${facts.status}». Solo las facturas Por Autorizar pueden solicitarse.`,
  },
  'invoice.approveAdvance': {
    process: 'El adelanto de esta factura ya está en trámite.',
    default: (facts) =>
      `No puedes adelantar esta factura: su estado es «${facts.status}». Solo las facturas Autorizadas por tu cliente pueden adelantarse.`,
  },
  'invoice.authorize': { default: notPending, paymentDate: paymentDateTooFar },
  'invoice.reject': { default: notPending },
  'invoice.preAuthorize': {
    default: (facts) => `${theInvoice(facts)} no puede autorizarse: su estado es «${facts.status}».`,
    paymentDate: paymentDateTooFar,
  },
  'invoice.rejectQuotation': {
    default: (facts) => `${theInvoice(facts)} no puede rechazarse: su estado es «${facts.status}».`,
    approved: (facts) =>
      `${theInvoice(facts)} está «${facts.status}» y su adelanto no lo paga tu empresa; no puede rechazarse.`,
  },
  'invoice.fundAdvance': {
    default: (facts) =>
      `${theInvoice(facts)} no puede pagarse a tu proveedor: su estado es «${facts.status}». Solo las facturas Autorizadas con costo a cargo de tu empresa pueden pagarse.`,
    approved: (facts) =>
      `${theInvoice(facts)} está «${facts.status}» con el costo a cargo de tu proveedor; acepta una cotización absorbiendo el costo antes de pagarla.`,
  },
  'invoice.transferToFactoring': {
    default: (facts) => `No puedes enviar esta factura a factoraje: su estado es «${facts.status}».`,
  },
  'invoice.disburse': {
    default: (facts) => `${theInvoice(facts)} no está En trámite (estado: ${facts.status}); no se dispersa.`,
  },
  'invoice.deskReject': {
    default: (facts) =>
      `${theInvoice(facts)} no está En trámite (estado: ${facts.status}); la mesa de control no puede rechazar su adelanto.`,
  },
  'invoice.cancelAtSat': {
    default: (facts) =>
      `${theInvoice(facts)} está «${facts.status}»: el ciclo de vida no permite invoice.cancelAtSat. No se cambió nada.`,
  },
} as const satisfies Record<InvoiceLifecycleEventType, EventRefusals>;

function refusalText(text: RefusalText, facts: RefusalFacts): string {
  return typeof text === 'string' ? text : text(facts);
}

/**
 * Why the machine refuses this event in the state of `fromStatus`: the table's words for that state, else
 * the event's default, naming the provider's status label.
 * Example: invoiceRefusal('invoice.approveAdvance', 50) === 'El adelanto de esta factura ya está en trámite.'
 */
export function invoiceRefusal(
  eventType: InvoiceLifecycleEventType,
  fromStatus: InvoiceStatusCode,
  invoiceLabel?: string,
): string {
  const refusals: EventRefusals = INVOICE_REFUSALS[eventType];
  const facts = { label: invoiceLabel, status: PROVIDER_STATUS_LABELS[fromStatus] };
  return refusalText(refusals[STATE_BY_STATUS[fromStatus]] ?? refusals.default, facts);
}

/**
 * Null when the machine accepts this event type for this invoice from this actor now (with a valid date when
 * the event carries one), else the refusal table's text for the invoice's status.
 */
export function eventTypeRefusal(
  invoice: LifecycleInvoice,
  eventType: InvoiceLifecycleEventType,
  actor: LifecycleActor,
  invoiceLabel?: string,
): string | null {
  if (acceptedInvoiceEvents(invoice, actor).has(eventType)) return null;
  return invoiceRefusal(eventType, invoice.status, invoiceLabel);
}

/** A refusal of the machine: of the invoice's state (or the actor), or of the payment date the event carries. */
export interface InvoiceRefusal {
  cause: 'state' | 'paymentDate';
  message: string;
}

/**
 * Asks the machine whether it accepts this event for this invoice; null when it does, else why not, in the
 * table's words. When the state has the event and the same event with a valid date would pass, the
 * 150-day guard refused the date.
 */
export function invoiceEventRefusal(
  invoice: LifecycleInvoice,
  event: InvoiceLifecycleEvent,
  invoiceLabel?: string,
): InvoiceRefusal | null {
  const snapshot = resolveInvoiceSnapshot(invoice);
  if (snapshot.can(event)) return null;
  const dateRefusal: EventRefusals = INVOICE_REFUSALS[event.type];
  if (
    'paymentDate' in event &&
    dateRefusal.paymentDate !== undefined &&
    snapshot.can(probeEvent(event.type, event.actor, invoice.dateOfEmission))
  ) {
    return {
      cause: 'paymentDate',
      message: refusalText(dateRefusal.paymentDate, {
        label: invoiceLabel,
        status: PROVIDER_STATUS_LABELS[invoice.status],
        dateOfEmission: invoice.dateOfEmission,
      }),
    };
  }
  return { cause: 'state', message: invoiceRefusal(event.type, invoice.status, invoiceLabel) };
}
