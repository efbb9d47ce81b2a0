import { sql } from 'kysely';
import type { Db } from '../../db/database';

// The corporate's payments of advanced invoices (migration 010): one row per clave de rastreo.

export interface CollectionRow {
  id: number;
  invoice_id: number;
  programme_id: number | null;
  amount: string;
  released: string;
  clave_rastreo: string;
  fecha: string;
  overpaid: string;
}

const COLUMNS = [
  'id',
  'invoice_id',
  'programme_id',
  'amount',
  'released',
  'clave_rastreo',
  'fecha',
  'overpaid',
] as const;

export async function findCollectionByClave(db: Db, trackingKey: string): Promise<CollectionRow | null> {
  return (
    (await db
      .selectFrom('collections')
      .select(COLUMNS)
      .where('clave_rastreo', '=', trackingKey)
      .executeTakeFirst()) ?? null
  );
}

/**
 * Records a payment unless its clave de rastreo is already recorded (then null: a replay, or a concurrent call
 * that won; the unique index decides, not a prior read).
 */
export async function insertCollection(
  trx: Db,
  collection: {
    invoiceId: number;
    programmeId: number | null;
    amount: string;
    trackingKey: string;
    fecha: string;
    recordedBy: number;
    overpaid: string;
  },
): Promise<CollectionRow | null> {
  return (
    (await trx
      .insertInto('collections')
      .values({
        invoice_id: collection.invoiceId,
        programme_id: collection.programmeId,
        amount: collection.amount,
        clave_rastreo: collection.trackingKey,
        fecha: collection.fecha,
        recorded_by: collection.recordedBy,
        overpaid: collection.overpaid,
      })
      .onConflict((oc) => oc.column('clave_rastreo').doNothing())
      .returning(COLUMNS)
      .executeTakeFirst()) ?? null
  );
}

export async function setCollectionReleased(trx: Db, collectionId: number, released: string): Promise<void> {
  await trx.updateTable('collections').set({ released }).where('id', '=', collectionId).execute();
}

/**
 * The invoice a payment is for, locked (two payments of one invoice serialize, so what remains is read once per
 * payment), with its corporate's programme, its MXN amount, when it was disbursed and what was collected so far.
 * Null when no such invoice.
 */
export async function findInvoiceForCollection(db: Db, invoiceId: number, options: { lock: boolean }) {
  const query = db
    .selectFrom('invoices as i')
    .leftJoin('credit_programmes as p', 'p.corporate_id', 'i.receiver_company_id')
    .select((eb) => [
      'i.id',
      'i.status',
      'i.serie',
      'i.folio',
      'i.cfdi_uuid',
      'i.amount_with_exchange_rate',
      'p.id as programme_id',
      'i.receiver_company_id as corporate_id',
      eb
        .selectFrom('disbursements as d')
        .select((inner) => inner.fn.max('d.at').as('at'))
        .whereRef('d.invoice_id', '=', 'i.id')
        .as('disbursed_at'),
      eb
        .selectFrom('collections as c')
        .select(sql<string>`coalesce(sum(c.amount), 0)::text`.as('total'))
        .whereRef('c.invoice_id', '=', 'i.id')
        .as('collected'),
    ])
    .where('i.id', '=', invoiceId);
  return (await (options.lock ? query.forUpdate('i') : query).executeTakeFirst()) ?? null;
}
