import type { EventObject } from 'xstate';
import { TEST_DESK_REJECT_REASON } from '../../server/modules/test-support/test-support.service';
import { ISO_DATE_FORMAT, type IsoDate, requireIsoDate } from '../../src/domain/calendar-date';
import { latestPaymentDate } from '../../src/domain/payment-date';
import {
  type InvoiceLifecycleContext,
  type InvoiceLifecycleEvent,
  invoiceLifecycleMachine,
  type LifecycleActor,
} from '../../src/machines/invoice-lifecycle.machine';
import type { MachineModel } from './harness/model';

/**
 * The model's world. Company ids and dates are symbolic: the test maps them onto the invoice it imports for
 * each path (company 1 → the demo provider that issued it, 2 → the demo corporate that received it) and onto
 * its real emission date (a model date N days after MODEL_EMISSION → N days after the real emission), so the
 * model, its paths and its diagram never depend on today's date.
 */
export const MODEL_COMPANY = { emitter: 1, receiver: 2, otherProvider: 3, otherCorporate: 4 } as const;
export const MODEL_EMISSION: IsoDate = '2026-01-05';

/** The date `days` calendar days after `date`. */
export function plusDays(date: IsoDate, days: number): IsoDate {
  return requireIsoDate(date).add(days, 'day').format(ISO_DATE_FORMAT);
}

export const MODEL_INPUT: InvoiceLifecycleContext = {
  emitterCompanyId: MODEL_COMPANY.emitter,
  receiverCompanyId: MODEL_COMPANY.receiver,
  dateOfEmission: MODEL_EMISSION,
};

/** Who may act: the invoice's own parties (with an authorized SAT link), Flujo's operator, and SAT. */
export const ACTORS = {
  provider: { kind: 'provider', companyId: MODEL_COMPANY.emitter, satAuthorized: true },
  corporate: { kind: 'corporate', companyId: MODEL_COMPANY.receiver, satAuthorized: true },
  operator: { kind: 'operator', companyId: null, satAuthorized: true },
  sat: { kind: 'sat', companyId: null, satAuthorized: true },
} as const satisfies Record<string, LifecycleActor>;

/**
 * Actors the guards refuse. A path never sends them (the generator sends only what `can()` accepts), so the
 * test tries each of them at every state, on the machine and on the server, and expects both to refuse.
 */
export const REFUSED_ACTORS = {
  otherProvider: { kind: 'provider', companyId: MODEL_COMPANY.otherProvider, satAuthorized: true },
  otherCorporate: { kind: 'corporate', companyId: MODEL_COMPANY.otherCorporate, satAuthorized: true },
} as const satisfies Record<string, LifecycleActor>;

/** Payment dates the corporate may give: a usual one, the 150th day (the guard's edge), and one day past it. */
export const PAYMENT_DATES = {
  inAMonth: plusDays(MODEL_EMISSION, 33),
  lastAllowed: latestPaymentDate(MODEL_EMISSION),
  tooLate: plusDays(latestPaymentDate(MODEL_EMISSION), 1),
} as const;

export const REJECTION_REASON = 'Sin presupuesto este mes';

/** One partition per gesture an actor can make; `authorize` and `reject` have two that the server tells apart. */
export const LIFECYCLE_EVENTS = [
  { type: 'invoice.requestAuthorization', actor: ACTORS.provider },
  { type: 'invoice.authorize', actor: ACTORS.corporate, paymentDate: PAYMENT_DATES.inAMonth },
  { type: 'invoice.authorize', actor: ACTORS.corporate, paymentDate: PAYMENT_DATES.lastAllowed },
  { type: 'invoice.preAuthorize', actor: ACTORS.corporate, paymentDate: PAYMENT_DATES.inAMonth },
  // The buyer accepts the quotation absorbing the cost (decision 0028): from Solicitado and from Por Autorizar.
  {
    type: 'invoice.authorize',
    actor: ACTORS.corporate,
    paymentDate: PAYMENT_DATES.inAMonth,
    buyerFunds: true,
  },
  {
    type: 'invoice.preAuthorize',
    actor: ACTORS.corporate,
    paymentDate: PAYMENT_DATES.inAMonth,
    buyerFunds: true,
  },
  { type: 'invoice.fundAdvance', actor: ACTORS.corporate },
  { type: 'invoice.rejectQuotation', actor: ACTORS.corporate },
  { type: 'invoice.reject', actor: ACTORS.corporate, reason: REJECTION_REASON },
  // A blank reason (the corporate typed nothing) is not stored: the trail shows none.
  { type: 'invoice.reject', actor: ACTORS.corporate, reason: '' },
  { type: 'invoice.approveAdvance', actor: ACTORS.provider },
  { type: 'invoice.disburse', actor: ACTORS.operator },
  // The control desk rejects the advance (decision 0054): the reason the test operator gives.
  { type: 'invoice.deskReject', actor: ACTORS.operator, reason: TEST_DESK_REJECT_REASON },
  { type: 'invoice.cancelAtSat', actor: ACTORS.sat },
  { type: 'invoice.transferToFactoring', actor: ACTORS.provider },
] as const satisfies readonly InvoiceLifecycleEvent[];

/** The guard-failing partitions the test probes at every state (see REFUSED_ACTORS). */
export const REFUSED_EVENTS = [
  { type: 'invoice.requestAuthorization', actor: REFUSED_ACTORS.otherProvider },
  { type: 'invoice.authorize', actor: REFUSED_ACTORS.otherCorporate, paymentDate: PAYMENT_DATES.inAMonth },
  { type: 'invoice.authorize', actor: ACTORS.corporate, paymentDate: PAYMENT_DATES.tooLate },
  { type: 'invoice.preAuthorize', actor: REFUSED_ACTORS.otherCorporate, paymentDate: PAYMENT_DATES.inAMonth },
  { type: 'invoice.preAuthorize', actor: ACTORS.corporate, paymentDate: PAYMENT_DATES.tooLate },
  { type: 'invoice.reject', actor: REFUSED_ACTORS.otherCorporate },
  { type: 'invoice.fundAdvance', actor: REFUSED_ACTORS.otherCorporate },
  { type: 'invoice.rejectQuotation', actor: REFUSED_ACTORS.otherCorporate },
  { type: 'invoice.approveAdvance', actor: REFUSED_ACTORS.otherProvider },
  { type: 'invoice.transferToFactoring', actor: REFUSED_ACTORS.otherProvider },
  // Only Flujo's operator disburses and only SAT cancels: the invoice's own provider cannot do either.
  { type: 'invoice.disburse', actor: ACTORS.provider },
  { type: 'invoice.cancelAtSat', actor: ACTORS.provider },
  // Only Flujo's operator rejects at the control desk.
  { type: 'invoice.deskReject', actor: ACTORS.provider, reason: TEST_DESK_REJECT_REASON },
] as const satisfies readonly InvoiceLifecycleEvent[];

export const invoiceLifecycleModel: MachineModel = {
  id: 'invoice-lifecycle',
  machine: invoiceLifecycleMachine,
  input: MODEL_INPUT,
  // The context is the invoice's parties and emission date, which no transition changes, and who absorbs the
  // advance's cost, which the authorizations set: the state value and that flag make the vertex.
  abstract: (snapshot) => ({
    value: snapshot.value,
    buyerFundsAdvance: (snapshot.context as InvoiceLifecycleContext).buyerFundsAdvance === true,
  }),
  events: LIFECYCLE_EVENTS as readonly EventObject[],
};
