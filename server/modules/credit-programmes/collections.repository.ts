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
}

const COLUMNS = ['id', 'invoice_id', 'programme_id', 'amount', 'released', 'clave_rastreo', 'fecha'] as const;

export async function findCollectionByClave(db: Db, claveRastreo: string): Promise<CollectionRow | null> {
  return (
    (await db
      .selectFrom('collections')
      .select(COLUMNS)
      .where('clave_rastreo', '=', claveRastreo)
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
    claveRastreo: string;
    fecha: string;
    recordedBy: number;
  },
): Promise<CollectionRow | null> {
  return (
    (await trx
      .insertInto('collections')
      .values({
        invoice_id: collection.invoiceId,
        programme_id: collection.programmeId,
        amount: collection.amount,
        clave_rastreo: collection.claveRastreo,
        fecha: collection.fecha,
        recorded_by: collection.recordedBy,
      })
      .onConflict((oc) => oc.column('clave_rastreo').doNothing())
      .returning(COLUMNS)
      .executeTakeFirst()) ?? null
  );
}

export async function setCollectionReleased(trx: Db, collectionId: number, released: string): Promise<void> {
  await trx.updateTable('collections').set({ released }).where('id', '=', collectionId).execute();
}

/** The invoice a payment is for, with its corporate's programme (one statement; null when no such invoice). */
export async function findInvoiceForCollection(db: Db, invoiceId: number) {
  return (
    (await db
      .selectFrom('invoices as i')
      .leftJoin('credit_programmes as p', 'p.corporate_id', 'i.receiver_company_id')
      .select(['i.id', 'i.status', 'i.serie', 'i.folio', 'i.cfdi_uuid', 'p.id as programme_id'])
      .where('i.id', '=', invoiceId)
      .executeTakeFirst()) ?? null
  );
}
