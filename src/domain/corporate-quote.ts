import { advisoryFeeIva } from './advisory-fee';
import type { IsoDate } from './calendar-date';
import { formatMoneyAmount, parseMoney, sumMoney } from './money';
import {
  type AdvanceQuote,
  type AdvanceQuoteInput,
  advanceQuote,
  daysUntil,
  displayedAnnualRate,
} from './quote';
import type {
  BuyerCostLine,
  BuyerCostResume,
  CorporateQuote,
  CorporateQuoteResume,
  QuoteCurrency,
} from './schemas/corporates';

// The corporate buyer's quotation (spec §2 'Cotización', §3 variants A and B): every figure comes from the
// early-payment quote of quote.ts, per invoice, in the invoice's own currency; totals are per currency.

/** What a quoted line needs of its invoice. */
export type QuotedInvoice = Pick<
  CorporateQuote,
  | 'id'
  | 'fiscal_folio'
  | 'serie_folio'
  | 'emitter_name'
  | 'emitter_rfc'
  | 'description'
  | 'currency'
  | 'amount'
>;

/**
 * One line of the corporate quote: the advance of `invoice` paid today and repaid on `paymentDate`, at the
 * alliance's IVA-inclusive `maxRate`. Throws like advanceQuote on a past date or costs above the amount.
 * Example: 100,000.00 MXN at 17.40 from 2026-01-16 to 2026-03-02 → 45 days, annual_rate '15.00',
 * cost_financing '2175.00', cost_consultancy '1160.00' (iva '160.00'), net_amount '96665.00'.
 */
export function corporateQuoteLine(
  invoice: QuotedInvoice,
  maxRate: number | string,
  paymentDate: IsoDate,
  today: IsoDate,
): CorporateQuote {
  const amount = parseMoney(invoice.amount);
  const quote = advanceQuote({ amount, maxRate, days: daysUntil(paymentDate, today) });
  return {
    ...invoice,
    payment_date: paymentDate,
    remaining_days: quote.days,
    max_rate: quote.maxRate,
    annual_rate: displayedAnnualRate(maxRate),
    cost_financing: formatMoneyAmount(quote.costFinancing),
    cost_consultancy: formatMoneyAmount(quote.costConsultancy),
    iva: formatMoneyAmount(advisoryFeeIva(amount)),
    net_amount: formatMoneyAmount(quote.total),
  };
}

function sumOf<T extends { currency: QuoteCurrency }>(
  lines: readonly T[],
  currency: QuoteCurrency,
  figure: (line: T) => string,
): string {
  return formatMoneyAmount(
    sumMoney(lines.filter((line) => line.currency === currency).map((line) => parseMoney(figure(line)))),
  );
}

/**
 * The totals of quoted lines, MXN and USD apart. Removing a line is quoteResume of the remaining ones, so
 * each total drops by exactly that line's figure and total_invoices by one.
 */
export function quoteResume(lines: readonly CorporateQuote[]): CorporateQuoteResume {
  const both = (figure: (line: CorporateQuote) => string) =>
    [sumOf(lines, 'MXN', figure), sumOf(lines, 'USD', figure)] as const;
  const [total_quote, total_quote_usd] = both((line) => line.amount);
  const [total_financing, total_financing_usd] = both((line) => line.cost_financing);
  const [total_consultancy, total_consultancy_usd] = both((line) => line.cost_consultancy);
  const [total_iva, total_iva_usd] = both((line) => line.iva);
  const [total_net, total_net_usd] = both((line) => line.net_amount);
  return {
    total_quote,
    total_quote_usd,
    total_invoices: lines.length,
    total_financing,
    total_financing_usd,
    total_consultancy,
    total_consultancy_usd,
    total_iva,
    total_iva_usd,
    total_net,
    total_net_usd,
  };
}

/** A quoted line as the buyer who absorbs its cost sees it (spec §3 variant B). */
export function buyerCostLine(line: CorporateQuote): BuyerCostLine {
  return {
    id: line.id,
    fiscal_folio: line.fiscal_folio,
    serie_folio: line.serie_folio,
    emitter_name: line.emitter_name,
    currency: line.currency,
    amount: line.amount,
    payment_date: line.payment_date,
    remaining_days: line.remaining_days,
    cost_financing: line.cost_financing,
    cost_consultancy: line.cost_consultancy,
  };
}

/**
 * The resume of a quotation whose cost the buyer absorbs: rate is the highest max_rate of the lines; total is
 * financing plus consultancy, what the buyer pays, MXN and USD apart.
 */
export function buyerCostResume(lines: readonly CorporateQuote[]): BuyerCostResume {
  const financing = (currency: QuoteCurrency) => sumOf(lines, currency, (line) => line.cost_financing);
  const consultancy = (currency: QuoteCurrency) => sumOf(lines, currency, (line) => line.cost_consultancy);
  const cost = (currency: QuoteCurrency) =>
    formatMoneyAmount(parseMoney(financing(currency)) + parseMoney(consultancy(currency)));
  return {
    rate: Math.max(0, ...lines.map((line) => line.max_rate)),
    total_invoices: lines.length,
    total_financing: financing('MXN'),
    total_consultancy: consultancy('MXN'),
    total: cost('MXN'),
    total_financing_usd: financing('USD'),
    total_consultancy_usd: consultancy('USD'),
    total_usd: cost('USD'),
  };
}

/**
 * The provider's quote for advancing an invoice: advanceQuote, or, when the buyer absorbs the cost (decision
 * 0028), no cost at all and the whole amount.
 * Example: providerQuote({ amount: 10_000_000, maxRate: 17.4, days: 45 }, true) → costs 0, total 10_000_000.
 */
export function providerQuote(input: AdvanceQuoteInput, buyerFundsAdvance: boolean): AdvanceQuote {
  if (!buyerFundsAdvance) return advanceQuote(input);
  return {
    maxRate: Number(input.maxRate),
    days: input.days,
    costFinancing: 0,
    costConsultancy: 0,
    total: input.amount,
  };
}
