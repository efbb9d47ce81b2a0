import type { Db } from '../../db/database';
import { inTransaction } from '../../db/transaction';
import { findInvoiceByUuid } from '../invoices/invoice.repository';
import { type AppliedTransition, applyInvoiceEvent } from '../invoices/lifecycle.service';
import { SatOperationError } from './sat-link.service';

/** Who the audit trail names for a cancellation reported by SAT. */
export const SAT_ACTOR_LABEL = 'SAT';

/**
 * A CFDI was cancelled at SAT: the invoice becomes DISABLED (70) through the lifecycle machine, which allows
 * it only before the advance is disbursed (docs/decisions/0003-invoice-lifecycle.md); afterwards it is an
 * operations matter and the machine refuses (IllegalTransitionError, nothing written).
 */
export async function cancelInvoiceAtSat(
  db: Db,
  uuid: string,
  options: { sandbox?: boolean } = {},
): Promise<AppliedTransition> {
  return inTransaction(db, async (trx) => {
    const invoice = await findInvoiceByUuid(trx, uuid.trim().toUpperCase());
    if (!invoice) throw new SatOperationError(`No hay ninguna factura con el folio fiscal ${uuid}.`);
    if (options.sandbox) {
      // The sandbox SAT answers Cancelado from now on (its status service reads this table).
      await trx
        .insertInto('sandbox_sat_cancellations')
        .values({ cfdi_uuid: uuid.trim().toUpperCase() })
        .onConflict((oc) => oc.column('cfdi_uuid').doNothing())
        .execute();
    }
    return applyInvoiceEvent(
      trx,
      invoice.id,
      { type: 'invoice.cancelAtSat', actor: { kind: 'sat', companyId: null, satAuthorized: true } },
      { userId: null, label: SAT_ACTOR_LABEL },
    );
  });
}
