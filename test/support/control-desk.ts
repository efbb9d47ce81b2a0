import dayjs from 'dayjs';
import type { Db } from '../../server/db/database';
import { businessDate } from '../../server/http/business-date';
import { DEMO_CORPORATE, DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { clabeCheckDigit } from '../../src/domain/clabe';
import { advanceTo, importInvoice, requestAdvance } from './pronto-pago';

// The control desk's world (decision 0054): what its checks read (the buyer's credit programme, the provider's
// deposit CLABE) and advances in process on it, for the desk's and the SPEI batches' screen and model tests.

/** A valid deposit CLABE (BBVA) for the first demo provider. */
export const DESK_PROVIDER_CLABE = `01218000123456789${clabeCheckDigit('01218000123456789')}`;

/** The demo corporate's programme active with room to spare, and the first demo provider's deposit CLABE. */
export async function deskWorld(db: Db): Promise<void> {
  const corporate = await db
    .selectFrom('companies')
    .select('id')
    .where('rfc', '=', DEMO_CORPORATE.rfc)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('credit_programmes')
    .values({ corporate_id: corporate.id, limit_amount: '900000000.00', state: 'activo' })
    .onConflict((oc) =>
      oc.column('corporate_id').doUpdateSet({ state: 'activo', limit_amount: '900000000.00' }),
    )
    .execute();
  await db
    .updateTable('companies')
    .set({ disbursement_clabe: DESK_PROVIDER_CLABE })
    .where('rfc', '=', DEMO_PROVIDERS[0].rfc)
    .execute();
}

export interface DeskAdvance {
  invoiceId: number;
  /** serie-folio, as the desk names it ('Aprobar <label>'). */
  label: string;
}

/** A new invoice of the first demo provider, authorized 30 days ahead and advanced: on the desk, queued. */
export async function queuedAdvance(db: Db): Promise<DeskAdvance> {
  const today = businessDate(new Date());
  const invoiceId = await importInvoice(db, { today });
  await advanceTo(db, invoiceId, 'approved', dayjs(today).add(30, 'day').format('YYYY-MM-DD'));
  await requestAdvance(db, invoiceId);
  const { serie, folio } = await db
    .selectFrom('invoices')
    .select(['serie', 'folio'])
    .where('id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  return { invoiceId, label: `${serie}-${folio}` };
}
