import type { Db } from '../../db/database';

/** Records the payment to the provider; disbursements.invoice_id is UNIQUE, so an invoice is paid once. */
export async function insertDisbursement(
  trx: Db,
  disbursement: { invoiceId: number; amount: string; reference: string },
): Promise<void> {
  await trx
    .insertInto('disbursements')
    .values({
      invoice_id: disbursement.invoiceId,
      amount: disbursement.amount,
      reference: disbursement.reference,
    })
    .execute();
}
