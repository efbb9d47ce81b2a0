import type { IsoDate } from '../../../src/domain/calendar-date';
import { formatMoneyAmount, parseMoney, subtractMoney } from '../../../src/domain/money';
import { advanceQuote, daysUntil } from '../../../src/domain/quote';
import type { Db } from '../../db/database';
import { findActiveAllianceRate } from './alliance.repository';
import { type InvoiceRow, saveAdvanceQuote } from './invoice.repository';
import { invoiceLabel } from './invoice-access';

/** An advance cannot be paid out (no quote and no alliance to quote it with); the message is Spanish. */
export class PayoutError extends Error {}

/**
 * What the provider receives for an advance: the MXN amount less financing and advisory costs (the one home
 * of this computation; the control desk's SPEI orders and `ops disburse` both read it). Invoices put in
 * PROCESS without the advance call (demo data) are quoted now, at the alliance's rate, and the quote saved.
 */
export async function advancePayout(
  trx: Db,
  invoice: InvoiceRow & { cost_financing: string | null; cost_consultancy: string | null },
  today: IsoDate,
): Promise<string> {
  let costFinancing = invoice.cost_financing;
  let costConsultancy = invoice.cost_consultancy;
  if (costFinancing === null || costConsultancy === null) {
    const maxRate = await findActiveAllianceRate(
      trx,
      invoice.receiver_company_id,
      invoice.emitter_company_id,
    );
    if (maxRate === null || invoice.payment_date === null) {
      throw new PayoutError(
        `La factura ${invoiceLabel(invoice)} no tiene cotización ni alianza; no se puede dispersar.`,
      );
    }
    const quote = advanceQuote({
      amount: parseMoney(invoice.amount_with_exchange_rate),
      maxRate,
      days: Math.max(0, daysUntil(invoice.payment_date, today)),
    });
    costFinancing = formatMoneyAmount(quote.costFinancing);
    costConsultancy = formatMoneyAmount(quote.costConsultancy);
    await saveAdvanceQuote(trx, invoice.id, {
      cost_financing: costFinancing,
      cost_consultancy: costConsultancy,
      factoring_rate: maxRate,
      factoring_date: today,
    });
  }
  return formatMoneyAmount(
    subtractMoney(
      subtractMoney(parseMoney(invoice.amount_with_exchange_rate), parseMoney(costFinancing)),
      parseMoney(costConsultancy),
    ),
  );
}
