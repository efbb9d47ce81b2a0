import { dueOn } from '../../../src/domain/maturities';
import type { Db } from '../../db/database';
import { businessDate } from '../../http/business-date';

/**
 * Records the payment to the provider and the business day the advance falls due (its committed payment date,
 * moved off weekends and bank holidays); disbursements.invoice_id is UNIQUE, so an invoice is paid once.
 */
export async function insertDisbursement(
  trx: Db,
  disbursement: { invoiceId: number; amount: string; reference: string },
  now: Date = new Date(),
): Promise<void> {
  const invoice = await trx
    .selectFrom('invoices')
    .select('payment_date')
    .where('id', '=', disbursement.invoiceId)
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('disbursements')
    .values({
      invoice_id: disbursement.invoiceId,
      amount: disbursement.amount,
      reference: disbursement.reference,
      due_on: dueOn(invoice.payment_date, businessDate(now)),
    })
    .execute();
}
