import { ISO_DATE_FORMAT, type IsoDate, requireIsoDate } from './calendar-date';
import { type FactoringPlan, factoringPlan, toFactoringRequest } from './factoring';
import { MAX_FACTORING_INSTALMENTS, MIN_FACTORING_INSTALMENTS } from './factoring-terms';
import { type Centavos, formatMoneyAmount, parseMoney, splitMoney, subtractMoney } from './money';
import type { FactoringOption, FactoringQuote, FactoringRequest } from './schemas/factoring';

// What the server answers and stores around a factoring plan (issue 15, docs/decisions/0036): the quote, the
// check of the client's figures and the instalment schedule. Every amount comes from factoringPlan.

/** What is left of a factoring line: granted − used, never negative (a line lowered below its use). */
export function availableLine(creditLine: Centavos, creditUsed: Centavos): Centavos {
  return Math.max(0, subtractMoney(creditLine, creditUsed));
}

/** The invoice a quote is for: its id, folio fiscal and MXN amount in centavos. */
export interface FactoredInvoice {
  id: number;
  fiscalFolio: string;
  amount: Centavos;
}

/** Interest a plan charges: what is repaid minus what the invoice is worth. */
export function financingCost(plan: FactoringPlan, amount: Centavos): Centavos {
  return subtractMoney(plan.totalPayment, amount);
}

/**
 * GET factoring-calculations/{id}/: the spec's quote fields for the one-instalment plan (days 30) plus every
 * option 1..4, the advisory fee and the amount transferred today.
 * Example: 100,000.00 at 18.5 → cost_financing '1541.67', cost_consultancy '1160.00', total '98840.00'.
 */
export function factoringQuote(input: {
  invoice: FactoredInvoice;
  ratePercent: string;
  today: IsoDate;
  availableCredit: Centavos;
}): FactoringQuote {
  const { invoice, ratePercent } = input;
  const plans = Array.from({ length: MAX_FACTORING_INSTALMENTS - MIN_FACTORING_INSTALMENTS + 1 }, (_, i) =>
    factoringPlan(invoice.amount, ratePercent, MIN_FACTORING_INSTALMENTS + i),
  );
  const first = plans[0] as FactoringPlan;
  const options: FactoringOption[] = plans.map((plan) => ({
    installments: plan.instalments,
    days: plan.days,
    installment_payment: formatMoneyAmount(plan.instalmentAmount),
    total_payment: formatMoneyAmount(plan.totalPayment),
  }));
  return {
    max_rate: Number(ratePercent),
    days: first.days,
    cost_financing: formatMoneyAmount(financingCost(first, invoice.amount)),
    cost_consultancy: formatMoneyAmount(first.advisoryFee),
    total: formatMoneyAmount(first.amountToTransfer),
    now: input.today,
    invoice_id: invoice.id,
    fiscal_folio: invoice.fiscalFolio,
    amount: formatMoneyAmount(invoice.amount),
    rate: Number(ratePercent),
    advisory_fee: formatMoneyAmount(first.advisoryFee),
    amount_to_transfer: formatMoneyAmount(first.amountToTransfer),
    available_credit: formatMoneyAmount(input.availableCredit),
    options,
  };
}

/**
 * True when the client's figures are not the plan's (the rate or any amount differs): the quote it showed
 * is no longer true. Amounts are compared in centavos, so '1160.0' style spellings cannot pass by accident.
 * The folio is a label for people; the invoice id decides which invoice is factored.
 */
export function factoringFiguresDiffer(sent: FactoringRequest, expected: FactoringRequest): boolean {
  const money = ['factoringConsultingFee', 'installmentPayment', 'totalPayment'] as const;
  return (
    sent.rate !== expected.rate ||
    sent.installments !== expected.installments ||
    money.some((field) => parseMoney(sent[field]) !== parseMoney(expected[field]))
  );
}

/** The figures the server expects for this invoice, rate and number of instalments. */
export function expectedFactoringRequest(
  invoice: FactoredInvoice,
  ratePercent: string,
  instalments: number,
): { plan: FactoringPlan; request: FactoringRequest } {
  const plan = factoringPlan(invoice.amount, ratePercent, instalments);
  return { plan, request: toFactoringRequest(plan, invoice, ratePercent) };
}

/** One stored instalment: due date, amount to pay and the part of the line its payment frees. */
export interface ScheduledInstalment {
  number: number;
  dueDate: IsoDate;
  amount: Centavos;
  lineRelease: Centavos;
}

/**
 * The schedule of a transfer made on `today`: due every 30 days, amounts from the plan, and the line amount
 * split evenly (remainder on the last), so paying every instalment frees exactly what the transfer held.
 */
export function instalmentSchedule(
  plan: FactoringPlan,
  lineAmount: Centavos,
  today: IsoDate,
): ScheduledInstalment[] {
  const releases = splitMoney(lineAmount, plan.instalments);
  const start = requireIsoDate(today, 'transfer date');
  return plan.schedule.map((instalment, index) => ({
    number: instalment.number,
    dueDate: start.add(instalment.dueInDays, 'day').format(ISO_DATE_FORMAT),
    amount: instalment.amount,
    lineRelease: releases[index] as Centavos,
  }));
}
