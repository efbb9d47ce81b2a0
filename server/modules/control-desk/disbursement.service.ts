import type { IsoDate } from '../../../src/domain/calendar-date';
import { failingReasons } from '../../../src/domain/control-desk';
import { MAX_SERIAL_ID } from '../../../src/domain/schemas/fields';
import type { Db } from '../../db/database';
import { inTransaction } from '../../db/transaction';
import type { Mailer } from '../../mail/mailer';
import { PayoutError } from '../invoices/advance-payout';
import { lockInvoiceForDisbursement } from '../invoices/invoice.repository';
import { invoiceLabel } from '../invoices/invoice-access';
import { requireAcceptedEvent } from '../invoices/lifecycle.service';
import type { CfdiAuthenticity } from '../sat/cfdi-authenticity';
import { recheckAtSat } from '../sat/cfdi-proof.service';
import {
  approveDeskItem,
  createBatch,
  DeskError,
  getDeskItem,
  sendPaidNotices,
  settleBatch,
} from './control-desk.service';

/** Who the audit trail names for a disbursement made by automation (`ops disburse`). */
export const OPERATOR_LABEL = 'operador Flujo';
/** An automation account's name: an OS user or the FLUJO_OPS_ACCOUNT / --as given (decision 0059). */
export const OPS_ACCOUNT_PATTERN = /^[A-Za-z0-9._@-]{1,64}$/;

/** How the batch, the order and the desk record the automation account that acted: 'ops:<account>'. */
export function automationUsername(account: string): string {
  return `ops:${account}`;
}
/** NOTE: a SPEI tracking key (clave de rastreo) is up to 30 alphanumeric characters (Banxico SPEI rules). */
const REFERENCE_PATTERN = /^[A-Za-z0-9-]{1,30}$/;

export class DisbursementError extends Error {}

export interface DisbursementResult {
  invoiceId: number;
  label: string;
  /** What the provider receives: the MXN amount less financing and advisory costs. */
  amount: string;
  reference: string;
}

/**
 * `ops disburse`: automation pays an advance through the control desk's own path (decision 0054), in one
 * transaction: the desk approval recorded as the automation operator, a SPEI batch of one, and its
 * confirmation liquidada (PROCESS → PAID through the lifecycle, the disbursement row, the reservation used).
 * A failing desk check refuses it with the reasons unless `force`, which records the failing checks on the
 * desk item. `ref` is the invoice id or its folio fiscal (UUID); `reference` the order's clave de rastreo.
 */
/** The id an operator's reference (an invoice id or a folio fiscal) names, or null. */
async function findInvoiceRef(db: Db, ref: string): Promise<number | null> {
  const text = ref.trim();
  const byId = /^\d{1,10}$/.test(text) ? Number(text) : null;
  if (byId !== null && byId > MAX_SERIAL_ID) return null;
  const row = await db
    .selectFrom('invoices')
    .select('id')
    .where(byId !== null ? 'id' : 'cfdi_uuid', '=', byId ?? text.toUpperCase())
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function disburseInvoice(
  db: Db,
  ref: string,
  options: {
    today: IsoDate;
    /** SAT is asked again right before the batch of one is made (never inside the transaction). */
    authenticity: CfdiAuthenticity;
    /**
     * The automation account that runs this (who typed `ops disburse`, or the job's account): recorded as the
     * batch's creator and the order's confirmer. The lifecycle's audit keeps naming 'operador Flujo'.
     */
    account: string;
    reference?: string;
    mailer?: Mailer;
    force?: boolean;
  },
): Promise<DisbursementResult> {
  if (options.reference !== undefined && !REFERENCE_PATTERN.test(options.reference)) {
    throw new DisbursementError('La referencia debe tener de 1 a 30 letras, dígitos o guiones.');
  }
  if (!OPS_ACCOUNT_PATTERN.test(options.account)) {
    throw new DisbursementError(
      'La cuenta de automatización debe tener de 1 a 64 letras, dígitos, puntos, guiones o @.',
    );
  }
  // One recorded automation account acting by the standing instruction of decision 0059: it approves, batches
  // and confirms a payment the bank already made; the two-person rule is for people at the desk.
  const automation = {
    id: null,
    username: automationUsername(options.account),
    auditLabel: OPERATOR_LABEL,
  };
  const target = await findInvoiceRef(db, ref);
  if (target) await recheckAtSat(db, options.authenticity, [target]);
  try {
    const result = await inTransaction(db, async (trx) => {
      const byId = /^\d{1,10}$/.test(ref.trim()) ? Number(ref.trim()) : null;
      const invoice = await lockInvoiceForDisbursement(
        trx,
        byId !== null ? { id: byId > MAX_SERIAL_ID ? 0 : byId } : { uuid: ref.trim().toUpperCase() },
      );
      if (!invoice) throw new DisbursementError(`No hay ninguna factura ${ref}.`);
      const label = invoiceLabel(invoice);
      // The lifecycle decides first (operator only, PROCESS → PAID): its refusal names the status.
      requireAcceptedEvent(invoice, 'invoice.disburse', {
        kind: 'operator',
        companyId: null,
        satAuthorized: true,
      });
      const item = await getDeskItem(trx, invoice.id, options.today);
      if (item.state === 'queued' || item.state === 'returned') {
        if (!item.checks_pass && options.force !== true) {
          throw new DisbursementError(
            `La factura ${label} no pasa la mesa de control (usa --force para registrar las verificaciones que fallan): ${failingReasons(item.checks).join(' ')}`,
          );
        }
        await approveDeskItem(trx, invoice.id, automation, { today: options.today, force: true });
      } else if (item.state !== 'approved') {
        throw new DisbursementError(`La factura ${label} está «${item.state_label}» en la mesa de control.`);
      }
      const reference = options.reference ?? `FLUJO-${invoice.id}-${options.today.replaceAll('-', '')}`;
      const batch = await createBatch(trx, [invoice.id], automation, {
        today: options.today,
        claves: new Map([[invoice.id, reference]]),
      });
      const order = batch.orders[0];
      if (!order) throw new Error('a batch of one has no order');
      const { notices } = await settleBatch(
        trx,
        batch.id,
        [{ line: 1, trackingKey: reference, estado: 'liquidada', motivo: null }],
        automation,
      );
      return { paid: { invoiceId: invoice.id, label, amount: order.amount, reference }, notices };
    });
    if (options.mailer) await sendPaidNotices(options.mailer, result.notices);
    return result.paid;
  } catch (error) {
    if (error instanceof DeskError || error instanceof PayoutError)
      throw new DisbursementError(error.message);
    throw error;
  }
}
