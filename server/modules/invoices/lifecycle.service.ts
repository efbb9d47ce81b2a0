import type { SnapshotFrom } from 'xstate';
import { transition } from 'xstate';
import type { InvoiceStatusCode } from '../../../src/domain/invoice-status';
import {
  type InvoiceLifecycleEvent,
  invoiceLifecycleMachine,
  STATE_BY_STATUS,
  STATUS_BY_STATE,
} from '../../../src/machines/invoice-lifecycle.machine';
import type { Db } from '../../db/database';
import { inTransaction } from '../../db/transaction';
import { lockInvoiceForTransition, updateInvoiceStatus } from './invoice.repository';
import { insertInvoiceEvent } from './invoice-events.repository';

export class IllegalTransitionError extends Error {
  readonly statusCode = 409;
  constructor(
    readonly invoiceId: number,
    readonly from: InvoiceStatusCode,
    readonly eventType: string,
  ) {
    super('La factura no admite esta operación en su estado actual.');
  }
}

export class InvoiceNotFoundError extends Error {
  readonly statusCode = 404;
  constructor(readonly invoiceId: number) {
    super('Factura no encontrada.');
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

type LifecycleSnapshot = SnapshotFrom<typeof invoiceLifecycleMachine>;

/**
 * The only way an invoice changes status: lock the row, ask the lifecycle machine, write the new
 * status and its audit event in the same transaction. An event the machine refuses writes nothing.
 */
export async function applyInvoiceEvent(
  db: Db,
  invoiceId: number,
  event: InvoiceLifecycleEvent,
  actor: ActorRecord,
): Promise<AppliedTransition> {
  return inTransaction(db, async (trx) => {
    const row = await lockInvoiceForTransition(trx, invoiceId);
    if (!row) throw new InvoiceNotFoundError(invoiceId);

    const from = row.status as InvoiceStatusCode;
    const snapshot = invoiceLifecycleMachine.resolveState({
      value: STATE_BY_STATUS[from],
      context: {
        emitterCompanyId: row.emitter_company_id,
        receiverCompanyId: row.receiver_company_id,
        dateOfEmission: row.date_of_emission,
      },
    }) as LifecycleSnapshot;
    if (!snapshot.can(event)) throw new IllegalTransitionError(invoiceId, from, event.type);

    const [next] = transition(invoiceLifecycleMachine, snapshot, event);
    const to = STATUS_BY_STATE[String(next.value)];
    if (to === undefined) throw new Error(`Unmapped lifecycle state ${String(next.value)}`);

    await updateInvoiceStatus(trx, invoiceId, {
      status: to,
      paymentDate: 'paymentDate' in event ? event.paymentDate : undefined,
      satCancelled: event.type === 'invoice.cancelAtSat',
    });
    await insertInvoiceEvent(trx, {
      invoice_id: invoiceId,
      event: event.type,
      from_status: from,
      to_status: to,
      actor_user_id: actor.userId,
      actor: actor.label,
      reason: event.type === 'invoice.reject' ? (event.reason ?? null) : null,
    });
    return { invoiceId, from, to };
  });
}
