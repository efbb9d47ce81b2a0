import type { Insertable } from 'kysely';
import type { InvoiceEvent } from '../../../src/domain/schemas/invoices';
import type { Db } from '../../db/database';
import type { InvoiceEventsTable } from '../../db/schema';

/** Appends one row to an invoice's audit trail; call in the transaction that changed the invoice. */
export async function insertInvoiceEvent(trx: Db, event: Insertable<InvoiceEventsTable>): Promise<void> {
  await trx.insertInto('invoice_events').values(event).execute();
}

/** Appends these rows to the audit trail in one multi-row INSERT; call in the transaction that changed them. */
export async function insertInvoiceEvents(
  trx: Db,
  events: readonly Insertable<InvoiceEventsTable>[],
): Promise<void> {
  if (events.length === 0) return;
  await trx
    .insertInto('invoice_events')
    .values([...events])
    .execute();
}

/** The audit trail of an invoice, oldest first. */
export function listInvoiceEvents(db: Db, invoiceId: number): Promise<InvoiceEvent[]> {
  return db
    .selectFrom('invoice_events')
    .select(['event', 'from_status', 'to_status', 'actor', 'reason', 'at'])
    .where('invoice_id', '=', invoiceId)
    .orderBy('id')
    .execute();
}
