import { beyondMaxDaysMessage } from './alliance-terms';
import type { IsoDate } from './calendar-date';
import { providerQuote } from './corporate-quote';
import { formatMoneyAmount, parseMoney } from './money';
import { type AdvanceQuote, daysUntil, isQuotable } from './quote';

/** Why a provider's 'Adelantar pago' cannot be quoted, in the words the provider reads (409). */
export const FORWARD_PAYMENT_REFUSALS = {
  noAlliance:
    'Tu cliente no tiene una alianza de pronto pago activa contigo; no es posible adelantar esta factura.',
  paymentDatePassed: 'La fecha de pago de esta factura ya llegó; no es posible adelantarla.',
  notQuotable:
    'No es posible cotizar el adelanto de esta factura: sus costos superarían su importe. Escríbenos para revisarla.',
} as const;

/** What pricing an advance reads of the invoice and of its alliance's active terms (null: no active alliance). */
export interface ForwardPaymentFacts {
  /** The invoice's MXN amount (amount_with_exchange_rate): SPEI pays in pesos. */
  amountMxn: string;
  paymentDate: IsoDate | null;
  buyerFundsAdvance: boolean;
  terms: { maxRate: string; maxDays: number | null } | null;
}

/** The figures of an advance's quote as the invoice stores them. */
export interface StoredQuoteFigures {
  cost_financing: string;
  cost_consultancy: string;
  factoring_rate: string;
  factoring_date: IsoDate;
}

export type ForwardPaymentPricing =
  | { ok: true; maxRate: string; quote: AdvanceQuote; figures: StoredQuoteFigures }
  | { ok: false; refusal: string };

/**
 * The one rule of a forward payment's price: an active alliance, a payment date still ahead and within the
 * alliance's max_days (decision 0053), costs below the amount; the buyer who absorbs the cost (decision 0028)
 * leaves the provider its whole amount. Example: no terms → { ok: false, refusal: noAlliance }.
 */
export function priceForwardPayment(facts: ForwardPaymentFacts, today: IsoDate): ForwardPaymentPricing {
  const { terms } = facts;
  if (terms === null) return { ok: false, refusal: FORWARD_PAYMENT_REFUSALS.noAlliance };
  // An APPROVED invoice always has the payment date its corporate set (the machine's authorize event carries it).
  const days = facts.paymentDate === null ? 0 : daysUntil(facts.paymentDate, today);
  if (days <= 0) return { ok: false, refusal: FORWARD_PAYMENT_REFUSALS.paymentDatePassed };
  if (terms.maxDays !== null && days > terms.maxDays)
    return { ok: false, refusal: beyondMaxDaysMessage(terms.maxDays) };
  const input = { amount: parseMoney(facts.amountMxn), maxRate: terms.maxRate, days };
  if (!facts.buyerFundsAdvance && !isQuotable(input))
    return { ok: false, refusal: FORWARD_PAYMENT_REFUSALS.notQuotable };
  const quote = providerQuote(input, facts.buyerFundsAdvance);
  return {
    ok: true,
    maxRate: terms.maxRate,
    quote,
    figures: {
      cost_financing: formatMoneyAmount(quote.costFinancing),
      cost_consultancy: formatMoneyAmount(quote.costConsultancy),
      factoring_rate: terms.maxRate,
      factoring_date: today,
    },
  };
}
