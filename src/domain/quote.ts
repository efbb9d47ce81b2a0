import { type AdvisoryFeeRule, advisoryFee, DEFAULT_ADVISORY_FEE_RULE, IVA_FACTOR } from './advisory-fee';
import { daysBetween, type IsoDate } from './calendar-date';
import {
  type Centavos,
  DAY_COUNT_BASIS,
  divideDecimal,
  formatMoneyAmount,
  multiplyRate,
  subtractMoney,
} from './money';
import type { ForwardPaymentQuote } from './schemas/invoices';

/** Label shown next to the displayed annual rate (spec §9). */
export const RATE_LABEL = 'tasa + IVA';
/** Decimals of the displayed annual rate (spec §3). */
export const DISPLAYED_RATE_DECIMALS = 2;

/** Inputs of an early-payment (pronto pago) quote. */
export type AdvanceQuoteInput = {
  /** Invoice amount. */
  amount: Centavos;
  /** Annual rate in percent, IVA-inclusive as stored (17.4 or '17.40' means 15% + IVA). */
  maxRate: number | string;
  /** Calendar days from today to the payment date. */
  days: number;
  /** Defaults to 1% + IVA, the same rule as factoring (decision 0002). */
  advisoryFeeRule?: AdvisoryFeeRule;
};

/** An early-payment quote in centavos; `total` is what the provider receives. */
export type AdvanceQuote = {
  maxRate: number;
  days: number;
  costFinancing: Centavos;
  costConsultancy: Centavos;
  total: Centavos;
};

/**
 * The annual rate shown to users: max_rate / 1.16, two decimals, half-up.
 * Example: displayedAnnualRate(17.4) === '15.00'; displayedAnnualRate(20) === '17.24'.
 */
export function displayedAnnualRate(maxRate: number | string): string {
  return divideDecimal(maxRate, IVA_FACTOR, DISPLAYED_RATE_DECIMALS);
}

/** A displayed annual rate (displayedAnnualRate's text) as a percentage: ratePercent('15.00') === '15.00%'. */
export function ratePercent(displayedRate: string): string {
  return `${displayedRate}%`;
}

/**
 * The displayed annual rates of several lines as one figure (issue 33): the rate when they all agree, else
 * the lowest and the highest, each as ratePercent writes a line's; '' for no lines.
 * Example: rateRange(['15.00', '12.93', '15.00']) === '12.93% – 15.00%'; rateRange(['15.00']) === '15.00%'.
 */
export function rateRange(displayedRates: readonly string[]): string {
  const sorted = [...displayedRates].sort((a, b) => Number(a) - Number(b));
  const lowest = sorted[0];
  const highest = sorted.at(-1);
  if (lowest === undefined || highest === undefined) return '';
  return Number(lowest) === Number(highest)
    ? ratePercent(lowest)
    : `${ratePercent(lowest)} – ${ratePercent(highest)}`;
}

/**
 * Calendar days from `today` to `paymentDate` (both 'YYYY-MM-DD'); negative if already past.
 * Example: daysUntil('2026-03-02', '2026-01-16') === 45.
 */
export function daysUntil(paymentDate: IsoDate, today: IsoDate): number {
  return daysBetween(today, paymentDate);
}

/**
 * Early-payment quote, simple interest actual/360, each figure rounded half-up once:
 * cost_financing = amount × max_rate/100 × days/360; cost_consultancy = amount × 1% × 1.16;
 * total = amount − cost_financing − cost_consultancy.
 * Example: 100,000.00 at 17.40 for 45 days → 2,175.00 + 1,160.00, total 96,665.00.
 */
export function advanceQuote(input: AdvanceQuoteInput): AdvanceQuote {
  const { amount, maxRate, days, advisoryFeeRule = DEFAULT_ADVISORY_FEE_RULE } = input;
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new Error(`Quote amount must be positive: ${amount}`);
  const rate = Number(maxRate);
  if (!Number.isFinite(rate) || rate < 0) throw new Error(`Quote rate must not be negative: ${maxRate}`);
  if (!Number.isSafeInteger(days) || days < 0)
    throw new Error(`Quote days must be a whole number ≥ 0: ${days}`);
  const costFinancing = multiplyRate(amount, maxRate, days, DAY_COUNT_BASIS);
  const costConsultancy = advisoryFee(amount, advisoryFeeRule);
  const total = subtractMoney(subtractMoney(amount, costFinancing), costConsultancy);
  if (total < 0) throw new Error('Quote costs exceed the invoice amount');
  return { maxRate: rate, days, costFinancing, costConsultancy, total };
}

/**
 * True when an advance can be quoted at all: a positive amount whose costs do not exceed it. Bad data
 * (a zero invoice, an extreme rate or term) is refused with a message rather than a failed quote.
 */
export function isQuotable(input: AdvanceQuoteInput): boolean {
  const { amount, maxRate, days, advisoryFeeRule = DEFAULT_ADVISORY_FEE_RULE } = input;
  if (!Number.isSafeInteger(amount) || amount <= 0) return false;
  const costs = multiplyRate(amount, maxRate, days, DAY_COUNT_BASIS) + advisoryFee(amount, advisoryFeeRule);
  return costs <= amount;
}

/** The API shape of a quote (spec §3): money as '1234.56' strings, `now` the quote date. */
export function toQuoteResponse(quote: AdvanceQuote, now: IsoDate): ForwardPaymentQuote {
  return {
    max_rate: quote.maxRate,
    days: quote.days,
    cost_financing: formatMoneyAmount(quote.costFinancing),
    cost_consultancy: formatMoneyAmount(quote.costConsultancy),
    total: formatMoneyAmount(quote.total),
    now,
  };
}

/**
 * Computes an early-payment quote for a payment date and returns the API response.
 * Example: 100,000.00, 17.4, today 2026-01-16, payment 2026-03-02 → { days: 45, total: '96665.00', … }.
 */
export function advanceQuoteResponse(
  input: Omit<AdvanceQuoteInput, 'days'> & { paymentDate: IsoDate; today: IsoDate },
): ForwardPaymentQuote {
  const { paymentDate, today, ...rest } = input;
  return toQuoteResponse(advanceQuote({ ...rest, days: daysUntil(paymentDate, today) }), today);
}
