import type { IsoDate } from '../../../src/domain/calendar-date';
import { InvoiceStatus } from '../../../src/domain/invoice-status';
import type { InvoiceLifecycleEventType } from '../../../src/machines/invoice-lifecycle.machine';
import type { Db } from '../../db/database';
import type { InvoiceMove, TransitionSubscriber } from '../invoices/lifecycle.service';
// Aliased: biome's hook rule reads any use… call as a React hook.
import {
  cancelReservation,
  useReservation as reservationToUsed,
  reserveForAdvance,
} from './programme-ledger.repository';

// The events that request an advance: the provider's 'Adelantar pago' and the buyer's 'Pagar a Proveedores'.
const ADVANCE_REQUESTS: ReadonlySet<InvoiceLifecycleEventType> = new Set([
  'invoice.approveAdvance',
  'invoice.fundAdvance',
]);

/**
 * The credit programme's side of invoice moves (decision 0052), subscribed to the lifecycle's transitions where
 * the modules are wired (server/services/module-wiring.ts): in the lifecycle's transaction so the
 * status and the ledger commit or fail together: an advance requested reserves the invoice's MXN amount (a
 * refusal, ProgrammeRefusalError 409, fails the whole call and the invoice stays Autorizada); the
 * disbursement turns the reservation into used; an advance that leaves En trámite any other way (the desk's
 * rejection, a SAT cancellation) gives its reservation back.
 */
export const applyProgrammeMoves: TransitionSubscriber = async (
  trx: Db,
  moves: readonly InvoiceMove[],
  actorUserId: number | null,
  today: IsoDate,
) => {
  for (const move of moves) {
    if (ADVANCE_REQUESTS.has(move.event)) {
      await reserveForAdvance(trx, {
        corporateId: move.receiverCompanyId,
        invoiceId: move.invoiceId,
        amount: move.amount,
        today,
        actorUserId,
      });
    } else if (move.from === InvoiceStatus.PROCESS && move.to === InvoiceStatus.PAID) {
      await reservationToUsed(trx, move.invoiceId, actorUserId);
    } else if (move.from === InvoiceStatus.PROCESS) {
      await cancelReservation(trx, move.invoiceId, actorUserId);
    }
  }
};
