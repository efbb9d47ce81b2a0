import { transition } from 'xstate';
import type { InvoiceStatusCode } from '../../src/domain/invoice-status';
import { INVOICE_EVENT_TYPES, resolveInvoiceSnapshot } from '../../src/machines/invoice-actions';
import {
  type ActorKind,
  type InvoiceLifecycleEvent,
  type InvoiceLifecycleEventType,
  invoiceLifecycleMachine,
  type LifecycleActor,
  STATUS_BY_STATE,
} from '../../src/machines/invoice-lifecycle.machine';

// The generated world's histories come from the lifecycle machine itself (not a second copy of its rules):
// every path here is a walk the machine accepts from AVAILABLE, so a generated audit trail is exactly what the
// server would have written had the events been sent one by one.

/** One transition of a path, as its invoice_events row records it. */
export interface LifecycleStep {
  event: InvoiceLifecycleEventType;
  from: InvoiceStatusCode;
  to: InvoiceStatusCode;
  actor: ActorKind;
  /** The event carries a payment date (authorize, preAuthorize). */
  dated: boolean;
  /** The event carries a reason (reject, rejectQuotation). */
  reasoned: boolean;
  /** The buyer absorbs the advance's cost (authorize/preAuthorize with buyerFunds). */
  buyerFunds: boolean;
}

/** A walk through the machine from AVAILABLE and where it leaves the invoice. */
export interface LifecyclePath {
  steps: LifecycleStep[];
  status: InvoiceStatusCode;
  /** The machine's context after the walk (invoices.buyer_funds_advance). */
  buyerFundsAdvance: boolean;
}

const EMITTER = 1;
const RECEIVER = 2;
// Any emission date: the only dated guard is "payment date within 150 days of emission", met by the next day.
const EMISSION = '2026-01-05';
const PAYMENT = '2026-02-05';
const ACTORS: Record<ActorKind, LifecycleActor> = {
  provider: { kind: 'provider', companyId: EMITTER, satAuthorized: true },
  corporate: { kind: 'corporate', companyId: RECEIVER, satAuthorized: true },
  operator: { kind: 'operator', companyId: null, satAuthorized: true },
  sat: { kind: 'sat', companyId: null, satAuthorized: true },
};

/** Every event the machine could be sent by anyone: each type from each actor, dated ones with and without buyerFunds. */
function candidateEvents(): { event: InvoiceLifecycleEvent; step: Omit<LifecycleStep, 'from' | 'to'> }[] {
  return INVOICE_EVENT_TYPES.flatMap((type) =>
    (Object.keys(ACTORS) as ActorKind[]).flatMap((kind) => {
      const actor = ACTORS[kind];
      const base = { event: type, actor: kind, dated: false, reasoned: false, buyerFunds: false };
      switch (type) {
        case 'invoice.authorize':
        case 'invoice.preAuthorize':
          return [false, true].map((buyerFunds) => ({
            event: { type, actor, paymentDate: PAYMENT, buyerFunds } as InvoiceLifecycleEvent,
            step: { ...base, dated: true, buyerFunds },
          }));
        case 'invoice.reject':
        case 'invoice.rejectQuotation':
          return [{ event: { type, actor, reason: 'x' }, step: { ...base, reasoned: true } }];
        default:
          return [{ event: { type, actor } as InvoiceLifecycleEvent, step: base }];
      }
    }),
  );
}

/**
 * Every simple walk (no state and context visited twice) of at most `maxSteps` events that the lifecycle
 * machine accepts from a fresh AVAILABLE invoice, the empty walk included, in a stable order.
 */
export function lifecyclePaths(maxSteps: number): LifecyclePath[] {
  const candidates = candidateEvents();
  const paths: LifecyclePath[] = [];
  const walk = (
    status: InvoiceStatusCode,
    buyerFunds: boolean,
    steps: LifecycleStep[],
    seen: Set<string>,
  ) => {
    paths.push({ steps, status, buyerFundsAdvance: buyerFunds });
    if (steps.length === maxSteps) return;
    const snapshot = resolveInvoiceSnapshot({
      status,
      emitterCompanyId: EMITTER,
      receiverCompanyId: RECEIVER,
      dateOfEmission: EMISSION,
      buyerFundsAdvance: buyerFunds,
    });
    for (const { event, step } of candidates) {
      if (!snapshot.can(event)) continue;
      const [next] = transition(invoiceLifecycleMachine, snapshot, event);
      const to = STATUS_BY_STATE[String(next.value)];
      if (to === undefined) throw new Error(`Unmapped lifecycle state ${String(next.value)}`);
      const nextFunds = next.context.buyerFundsAdvance === true;
      const key = `${to}:${nextFunds}`;
      if (seen.has(key)) continue;
      walk(to, nextFunds, [...steps, { ...step, from: status, to }], new Set([...seen, key]));
    }
  };
  const start = STATUS_BY_STATE[String(invoiceLifecycleMachine.config.initial)];
  if (start === undefined) throw new Error('The lifecycle machine has no initial status');
  walk(start, false, [], new Set([`${start}:false`]));
  return paths;
}
