import type { IsoDate } from '../../../src/domain/calendar-date';
import { formatCurrency, formatMoneyAmount, parseMoney, subtractMoney } from '../../../src/domain/money';
import { advanceQuote, daysUntil } from '../../../src/domain/quote';
import type { Db } from '../../db/database';
import { inTransaction } from '../../db/transaction';
import type { Mailer } from '../../mail/mailer';
import { findActiveAllianceRate } from './alliance.repository';
import { insertDisbursement } from './disbursement.repository';
import { lockInvoiceForDisbursement, saveAdvanceQuote } from './invoice.repository';
import { invoiceLabel, MAX_SERIAL } from './invoice-access';
import { companyRecipients, sendToAll } from './invoice-notifications';
import { applyInvoiceEvent } from './lifecycle.service';

/** Who the audit trail names for a disbursement. */
export const OPERATOR_LABEL = 'operador Flujo';
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
 * The financier paid the provider: PROCESS → PAID through the lifecycle machine (operator only), with the
 * disbursement row in the same transaction. disbursements.invoice_id is UNIQUE, so even a second PAID
 * could not record a second payment. `ref` is the invoice id or its folio fiscal (UUID).
 */
export async function disburseInvoice(
  db: Db,
  ref: string,
  options: { today: IsoDate; reference?: string; mailer?: Mailer },
): Promise<DisbursementResult> {
  if (options.reference !== undefined && !REFERENCE_PATTERN.test(options.reference)) {
    throw new DisbursementError('La referencia debe tener de 1 a 30 letras, dígitos o guiones.');
  }
  const { result, recipients } = await inTransaction(db, async (trx) => {
    const byId = /^\d{1,10}$/.test(ref.trim()) ? Number(ref.trim()) : null;
    const invoice = await lockInvoiceForDisbursement(
      trx,
      byId !== null ? { id: byId > MAX_SERIAL ? 0 : byId } : { uuid: ref.trim().toUpperCase() },
    );
    if (!invoice) throw new DisbursementError(`No hay ninguna factura ${ref}.`);
    const label = invoiceLabel(invoice);
    // The machine decides first (operator only, PROCESS → PAID); its refusal names the status. Anything
    // refused below rolls the transition back with the rest.
    await applyInvoiceEvent(
      trx,
      invoice.id,
      { type: 'invoice.disburse', actor: { kind: 'operator', companyId: null, satAuthorized: true } },
      { userId: null, label: OPERATOR_LABEL },
    );

    let costFinancing = invoice.cost_financing;
    let costConsultancy = invoice.cost_consultancy;
    if (costFinancing === null || costConsultancy === null) {
      // Invoices put in PROCESS without the advance call (demo data) are quoted now, at the alliance's rate.
      const maxRate = await findActiveAllianceRate(
        trx,
        invoice.receiver_company_id,
        invoice.emitter_company_id,
      );
      if (maxRate === null || invoice.payment_date === null) {
        throw new DisbursementError(
          `La factura ${label} no tiene cotización ni alianza; no se puede dispersar.`,
        );
      }
      const quote = advanceQuote({
        amount: parseMoney(invoice.amount_with_exchange_rate),
        maxRate,
        days: Math.max(0, daysUntil(invoice.payment_date, options.today)),
      });
      costFinancing = formatMoneyAmount(quote.costFinancing);
      costConsultancy = formatMoneyAmount(quote.costConsultancy);
      await saveAdvanceQuote(trx, invoice.id, {
        cost_financing: costFinancing,
        cost_consultancy: costConsultancy,
        factoring_rate: maxRate,
        factoring_date: options.today,
      });
    }
    const amount = subtractMoney(
      subtractMoney(parseMoney(invoice.amount_with_exchange_rate), parseMoney(costFinancing)),
      parseMoney(costConsultancy),
    );
    const reference = options.reference ?? `FLUJO-${invoice.id}-${options.today.replaceAll('-', '')}`;
    await insertDisbursement(trx, { invoiceId: invoice.id, amount: formatMoneyAmount(amount), reference });
    return {
      result: { invoiceId: invoice.id, label, amount: formatMoneyAmount(amount), reference },
      recipients: await companyRecipients(trx, invoice.emitter_company_id),
    };
  });
  if (options.mailer) {
    await sendToAll(options.mailer, recipients, {
      subject: `Pagamos el adelanto de tu factura ${result.label}`,
      text: `Depositamos ${formatCurrency(parseMoney(result.amount), 'MXN')} MXN por el adelanto de tu factura ${result.label} (referencia ${result.reference}).`,
    });
  }
  return result;
}
