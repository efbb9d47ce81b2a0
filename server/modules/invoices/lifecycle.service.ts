import { transition } from 'xstate';
import type { IsoDate } from '../../../src/domain/calendar-date';
import { INVOICE_NOT_FOUND, invoiceLabel } from '../../../src/domain/invoice-label';
import type { InvoiceStatusCode } from '../../../src/domain/invoice-status';
import {
  eventTypeRefusal,
  type InvoiceRefusal,
  invoiceEventRefusal,
  type LifecycleInvoice,
  resolveInvoiceSnapshot,
} from '../../../src/machines/invoice-actions';
import {
  type InvoiceLifecycleEvent,
  type InvoiceLifecycleEventType,
  invoiceLifecycleMachine,
  type LifecycleActor,
  STATUS_BY_STATE,
} from '../../../src/machines/invoice-lifecycle.machine';
import type { Db } from '../../db/database';
import { inTransaction } from '../../db/transaction';
import { businessDate } from '../../http/business-date';
import { lockInvoicesForTransition, type TransitionRow, updateInvoiceStatuses } from './invoice.repository';
import { insertInvoiceEvents } from './invoice-events.repository';

/**
 * The lifecycle machine refused an event (409); the message is the refusal table's
 * (src/machines/invoice-actions.ts) and `reason` says whether the state (or actor) or the payment date was
 * refused.
 */
export class IllegalTransitionError extends Error {
  readonly statusCode = 409;
  readonly reason: InvoiceRefusal['cause'];
  constructor(
    readonly invoiceId: number,
    readonly from: InvoiceStatusCode,
    readonly eventType: InvoiceLifecycleEventType,
    refusal: InvoiceRefusal,
  ) {
    super(refusal.message);
    this.reason = refusal.cause;
  }
}

export class InvoiceNotFoundError extends Error {
  readonly statusCode = 404;
  constructor(readonly invoiceId: number) {
    super(INVOICE_NOT_FOUND);
  }
}

export interface AppliedTransition {
  invoiceId: number;
  from: InvoiceStatusCode;
  to: InvoiceStatusCode;
}

export interface ActorRecord {
  userId: number | null;
  /** Human-readable actor for the audit trail, e.g. "proveedor.demo" or "operador". */
  label: string;
}

/** What a transition needs besides its events: the business date the credit programme is judged on. */
export interface TransitionOptions {
  /** Mexico City's date now unless the caller already took one for the call (its quote, its rules). */
  today?: IsoDate;
}

/** One invoice's move, as the lifecycle is about to write it: what a transition subscriber is told. */
export interface InvoiceMove {
  invoiceId: number;
  receiverCompanyId: number;
  /** The invoice's MXN amount (amount_with_exchange_rate), what an advance reserves. */
  amount: string;
  event: InvoiceLifecycleEventType;
  from: InvoiceStatusCode;
  to: InvoiceStatusCode;
}

/**
 * Told of every batch of moves inside the transition's transaction, before the statuses are written: what it
 * writes commits or fails with them, and a refusal it throws fails the whole batch (the credit programme's
 * ledger, decision 0052). Subscribed where the app's modules are wired (server/services/module-wiring.ts).
 */
export type TransitionSubscriber = (
  trx: Db,
  moves: readonly InvoiceMove[],
  actorUserId: number | null,
  today: IsoDate,
) => Promise<void>;

const transitionSubscribers = new Set<TransitionSubscriber>();

/** Publishes the lifecycle's transitions to `subscriber` (once, however often it subscribes). */
export function subscribeToInvoiceTransitions(subscriber: TransitionSubscriber): void {
  transitionSubscribers.add(subscriber);
}

/** One event of a batch, for one invoice. */
export interface InvoiceEventItem {
  invoiceId: number;
  event: InvoiceLifecycleEvent;
}

/** What the lifecycle machine reads of an invoice row. */
export function lifecycleInvoice(
  row: Pick<
    TransitionRow,
    'status' | 'emitter_company_id' | 'receiver_company_id' | 'date_of_emission' | 'buyer_funds_advance'
  >,
): LifecycleInvoice {
  return {
    status: row.status,
    emitterCompanyId: row.emitter_company_id,
    receiverCompanyId: row.receiver_company_id,
    dateOfEmission: row.date_of_emission,
    buyerFundsAdvance: row.buyer_funds_advance,
  };
}

/**
 * Asks the machine, before a call's other rules, whether it accepts this event type for this invoice from
 * this actor (with a valid date when the event carries one), and throws the table's refusal (409) if not.
 * For calls whose answer must name the state first (a quote has no transition; "no alliance" must not hide
 * "already requested"); the transition itself still decides, under the row lock.
 */
export function requireAcceptedEvent(
  row: TransitionRow,
  type: InvoiceLifecycleEventType,
  actor: LifecycleActor,
): void {
  const invoice = lifecycleInvoice(row);
  const refusal = eventTypeRefusal(invoice, type, actor, invoiceLabel(row));
  if (refusal !== null)
    throw new IllegalTransitionError(row.id, row.status, type, { cause: 'state', message: refusal });
}

/** Null when the machine accepts this event for this invoice now, else its refusal in the table's words. */
export function invoiceEventRefusalOf(
  row: TransitionRow,
  event: InvoiceLifecycleEvent,
): InvoiceRefusal | null {
  return invoiceEventRefusal(lifecycleInvoice(row), event, invoiceLabel(row));
}

/** The status the machine moves the invoice to and its context afterwards, or the table's refusal. */
function nextStatus(
  row: TransitionRow,
  event: InvoiceLifecycleEvent,
): { to: InvoiceStatusCode; buyerFundsAdvance: boolean } {
  const invoice = lifecycleInvoice(row);
  const refusal = invoiceEventRefusalOf(row, event);
  if (refusal) throw new IllegalTransitionError(row.id, row.status, event.type, refusal);
  const [next] = transition(invoiceLifecycleMachine, resolveInvoiceSnapshot(invoice), event);
  const to = STATUS_BY_STATE[String(next.value)];
  if (to === undefined) throw new Error(`Unmapped lifecycle state ${String(next.value)}`);
  return { to, buyerFundsAdvance: next.context.buyerFundsAdvance === true };
}

/**
 * The only way invoices change status, for one invoice or a batch: lock every row in one statement (id
 * order), ask the lifecycle machine for each item in the order given, then write every new status in one
 * UPDATE and every audit row in one INSERT, in the same transaction. All or nothing: the first refused item
 * throws its refusal (IllegalTransitionError) before anything is written; an unknown id throws
 * InvoiceNotFoundError. Three statements whatever the batch's size, plus what the transition's subscribers write
 * (the credit programme's ledger, decision 0052), whose refusal fails the whole batch too.
 */
export async function applyInvoiceEvents(
  db: Db,
  items: readonly InvoiceEventItem[],
  actor: ActorRecord,
  options: TransitionOptions = {},
): Promise<AppliedTransition[]> {
  if (items.length === 0) return [];
  // A transition nobody was told of would leave the credit ledger behind: every entry point wires the modules.
  if (transitionSubscribers.size === 0)
    throw new Error(
      'applyInvoiceEvents: no transition subscriber (wireModules in server/services/module-wiring.ts)',
    );
  const ids = items.map((item) => item.invoiceId);
  // One event per invoice: a second would be judged against the status before the first.
  if (new Set(ids).size !== ids.length) throw new Error('applyInvoiceEvents: an invoice appears twice');
  return inTransaction(db, async (trx) => {
    const rows = new Map((await lockInvoicesForTransition(trx, ids)).map((row) => [row.id, row]));
    const moves = items.map(({ invoiceId, event }) => {
      const row = rows.get(invoiceId);
      if (!row) throw new InvoiceNotFoundError(invoiceId);
      return { row, event, ...nextStatus(row, event) };
    });
    const published: InvoiceMove[] = moves.map(({ row, event, to }) => ({
      invoiceId: row.id,
      receiverCompanyId: row.receiver_company_id,
      amount: row.amount_with_exchange_rate,
      event: event.type,
      from: row.status,
      to,
    }));
    const today = options.today ?? businessDate(new Date());
    for (const subscriber of transitionSubscribers) await subscriber(trx, published, actor.userId, today);
    await updateInvoiceStatuses(
      trx,
      moves.map(({ row, event, to, buyerFundsAdvance }) => ({
        invoiceId: row.id,
        status: to,
        paymentDate: 'paymentDate' in event ? event.paymentDate : null,
        satCancelled: event.type === 'invoice.cancelAtSat',
        buyerFundsAdvance,
        quote: event.type === 'invoice.approveAdvance' ? (event.quote ?? null) : null,
      })),
    );
    await insertInvoiceEvents(
      trx,
      moves.map(({ row, event, to }) => ({
        invoice_id: row.id,
        event: event.type,
        from_status: row.status,
        to_status: to,
        actor_user_id: actor.userId,
        actor: actor.label,
        reason:
          event.type === 'invoice.reject' ||
          event.type === 'invoice.rejectQuotation' ||
          event.type === 'invoice.deskReject'
            ? (event.reason ?? null)
            : null,
      })),
    );
    return moves.map(({ row, to }) => ({ invoiceId: row.id, from: row.status, to }));
  });
}

/** applyInvoiceEvents for one invoice. */
export async function applyInvoiceEvent(
  db: Db,
  invoiceId: number,
  event: InvoiceLifecycleEvent,
  actor: ActorRecord,
  options: TransitionOptions = {},
): Promise<AppliedTransition> {
  const [applied] = await applyInvoiceEvents(db, [{ invoiceId, event }], actor, options);
  if (!applied) throw new Error('applyInvoiceEvents returned nothing for one item');
  return applied;
}
