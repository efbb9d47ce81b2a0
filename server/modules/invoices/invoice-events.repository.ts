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

/**
 * The audit trail of an invoice, oldest first, if the company issued or received it; null otherwise. One
 * statement (the invoice joined with its events) where a check and a read took two round trips.
 */
export async function listCompanyInvoiceEvents(
  db: Db,
  invoiceId: number,
  companyId: number,
): Promise<InvoiceEvent[] | null> {
  const rows = await db
    .selectFrom('invoices')
    .leftJoin('invoice_events', 'invoice_events.invoice_id', 'invoices.id')
    .select([
      'invoice_events.id as event_id',
      'invoice_events.event',
      'invoice_events.from_status',
      'invoice_events.to_status',
      'invoice_events.actor',
      'invoice_events.reason',
      'invoice_events.at',
    ])
    .where('invoices.id', '=', invoiceId)
    .where((eb) =>
      eb.or([
        eb('invoices.emitter_company_id', '=', companyId),
        eb('invoices.receiver_company_id', '=', companyId),
      ]),
    )
    .orderBy('invoice_events.id')
    .execute();
  if (rows.length === 0) return null;
  return rows.flatMap(({ event_id, event, from_status, to_status, actor, reason, at }) =>
    event_id === null || event === null || to_status === null || actor === null || at === null
      ? []
      : [{ event, from_status, to_status, actor, reason, at }],
  );
}
