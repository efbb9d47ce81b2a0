import { type AdvisoryFeeRule, advisoryFee, DEFAULT_ADVISORY_FEE_RULE } from './advisory-fee';
import { FACTORING_DAYS_PER_INSTALMENT, factoringTermDays } from './factoring-terms';
import {
  type Centavos,
  DAY_COUNT_BASIS,
  formatMoneyAmount,
  subtractMoney,
  withInterestPerPart,
} from './money';
import type { FactoringOption, FactoringQuote, FactoringRequest } from './schemas/factoring';

export type FactoringInstalment = { number: number; dueInDays: number; amount: Centavos };

/** A factoring plan in centavos; `instalmentAmount` is the figure shown, the schedule is what is paid. */
export type FactoringPlan = {
  instalments: number;
  days: number;
  instalmentAmount: Centavos;
  totalPayment: Centavos;
  advisoryFee: Centavos;
  amountToTransfer: Centavos;
  schedule: FactoringInstalment[];
};

/**
 * Factoring plan exactly as spec §9, each figure computed from the exact value and rounded
 * half-up once (days = 30 × instalments):
 * instalmentAmount = (rate/100/360 × days × amount + amount) / instalments;
 * totalPayment = amount + amount × rate/100 × days/360; advisoryFee = amount × 0.01 × 1.16;
 * amountToTransfer = amount − advisoryFee.
 * The schedule repeats instalmentAmount and puts the rounding remainder on the last instalment,
 * so the schedule always sums to totalPayment (the last may differ by up to 2 centavos).
 * Examples: 123,456.78 at 18.5% in 3 → total 129,166.66; 43,055.55 + 43,055.55 + 43,055.56.
 * 1,000.07 at 18.5% in 2 → 515.45 each shown (exact 515.4527…); paid 515.45 + 515.46 = 1,030.91.
 */
export function factoringPlan(
  amountCentavos: Centavos,
  ratePercent: number | string,
  instalments: number,
  advisoryFeeRule: AdvisoryFeeRule = DEFAULT_ADVISORY_FEE_RULE,
): FactoringPlan {
  const days = factoringTermDays(instalments);
  if (!Number.isSafeInteger(amountCentavos) || amountCentavos <= 0) {
    throw new Error(`Factoring amount must be positive: ${amountCentavos}`);
  }
  if (!Number.isFinite(Number(ratePercent)) || Number(ratePercent) < 0) {
    throw new Error(`Factoring rate must not be negative: ${ratePercent}`);
  }
  const totalPayment = withInterestPerPart(amountCentavos, ratePercent, days, DAY_COUNT_BASIS);
  // Rounded from the exact value, not from the rounded total: spec §9 divides before rounding.
  const instalmentAmount = withInterestPerPart(
    amountCentavos,
    ratePercent,
    days,
    DAY_COUNT_BASIS,
    instalments,
  );
  const amounts = Array.from({ length: instalments }, () => instalmentAmount);
  amounts[instalments - 1] = subtractMoney(totalPayment, instalmentAmount * (instalments - 1));
  const fee = advisoryFee(amountCentavos, advisoryFeeRule);
  return {
    instalments,
    days,
    instalmentAmount,
    totalPayment,
    advisoryFee: fee,
    amountToTransfer: subtractMoney(amountCentavos, fee),
    schedule: amounts.map((amount, index) => ({
      number: index + 1,
      dueInDays: (index + 1) * FACTORING_DAYS_PER_INSTALMENT,
      amount,
    })),
  };
}

/** The spec §3 factoring request payload for a plan (money as '1234.56' strings). */
export function toFactoringRequest(
  plan: FactoringPlan,
  invoice: { id: number; fiscalFolio: string },
  ratePercent: number | string,
): FactoringRequest {
  return {
    invoice_id: invoice.id,
    rate: Number(ratePercent),
    installments: plan.instalments,
    factoringConsultingFee: formatMoneyAmount(plan.advisoryFee),
    installmentPayment: formatMoneyAmount(plan.instalmentAmount),
    totalPayment: formatMoneyAmount(plan.totalPayment),
    invoiceFolio: invoice.fiscalFolio,
  };
}

/** The quote's option for a number of instalments, or null when the quote has none (1-4, spec §9). */
export function factoringOption(quote: FactoringQuote, instalments: number): FactoringOption | null {
  return quote.options.find((option) => option.installments === instalments) ?? null;
}

/**
 * The request for the option the user chose, with the quote's own figures: what the side panel showed is what is
 * sent, so a server that now computes otherwise refuses (409, the quote changed) instead of charging other figures.
 * Throws when the quote has no such option (the machine only offers the quote's options).
 */
export function factoringRequestForOption(quote: FactoringQuote, instalments: number): FactoringRequest {
  const option = factoringOption(quote, instalments);
  if (!option) throw new Error(`The quote has no ${instalments}-instalment option`);
  return {
    invoice_id: quote.invoice_id,
    rate: quote.rate,
    installments: option.installments,
    factoringConsultingFee: quote.advisory_fee,
    installmentPayment: option.installment_payment,
    totalPayment: option.total_payment,
    invoiceFolio: quote.fiscal_folio,
  };
}
