import { array, enums, type Infer, integer, nullable, number, string, type } from 'superstruct';
import { MAX_FACTORING_INSTALMENTS, MIN_FACTORING_INSTALMENTS } from '../factoring-terms';
import { isoDate, moneyAmount } from './common';
import { integerBetween, payload, quotedMoney } from './fields';

// Factoring calls (spec §3, §7; issue 15; docs/decisions/0036). Money '1234.56' strings in MXN (a USD
// invoice is factored at its CFDI exchange rate), rates annual percent.

/** One of the four instalment choices (spec §9: 1-4 monthly instalments, 30/60/90/120 days). */
export const FactoringOption = type({
  installments: integer(),
  days: integer(),
  installment_payment: moneyAmount,
  total_payment: moneyAmount,
});
export type FactoringOption = Infer<typeof FactoringOption>;

/**
 * GET factoring-calculations/{id}/. The spec's quote fields (max_rate = the line's annual rate, days 30,
 * cost_financing and total for one instalment... see below) plus what the side panel shows: every option,
 * the advisory fee and the amount transferred today.
 * - max_rate: the line's annual percent; days: 30 (one instalment);
 * - cost_financing: interest of the one-instalment option; cost_consultancy: the advisory fee (IVA incl.);
 * - total: amount to transfer (amount − advisory fee); now: the date of the quote.
 */
export const FactoringQuote = type({
  max_rate: number(),
  days: integer(),
  cost_financing: moneyAmount,
  cost_consultancy: moneyAmount,
  total: moneyAmount,
  now: isoDate,
  invoice_id: integer(),
  fiscal_folio: string(),
  /** The invoice's amount in MXN: what the transfer holds on the line. */
  amount: moneyAmount,
  rate: number(),
  advisory_fee: moneyAmount,
  amount_to_transfer: moneyAmount,
  available_credit: moneyAmount,
  options: array(FactoringOption),
});
export type FactoringQuote = Infer<typeof FactoringQuote>;

/**
 * POST factoring/ (spec §3 'Factoring request payload'). The server recomputes every figure with
 * factoringPlan and refuses (409) when the client's differ: the quote it saw is no longer true.
 */
export const FactoringRequest = payload({
  invoice_id: integer(),
  rate: number(),
  installments: integerBetween(MIN_FACTORING_INSTALMENTS, MAX_FACTORING_INSTALMENTS),
  factoringConsultingFee: quotedMoney(),
  installmentPayment: quotedMoney(),
  totalPayment: quotedMoney(),
  invoiceFolio: string(),
});
export type FactoringRequest = Infer<typeof FactoringRequest>;

/** POST factoring/ answered: the dialog's message (success) and the record that now holds the invoice. */
export const FactoringTransferResponse = type({
  message: string(),
  message_type: enums(['success', 'error', 'info', 'warning']),
  factoring_request_id: integer(),
});
export type FactoringTransferResponse = Infer<typeof FactoringTransferResponse>;

/** One instalment of a factoring record's schedule. */
export const FactoringInstalment = type({
  number: integer(),
  due_date: isoDate,
  amount: moneyAmount,
  paid_at: nullable(string()),
});
export type FactoringInstalment = Infer<typeof FactoringInstalment>;

/** GET factoring-request/{id}/: a factoring record with its schedule. */
export const FactoringRecord = type({
  id: integer(),
  invoice_id: integer(),
  fiscal_folio: string(),
  receiver_name: string(),
  rate: number(),
  installments: integer(),
  installment_payment: moneyAmount,
  total_payment: moneyAmount,
  advisory_fee: moneyAmount,
  amount_to_transfer: moneyAmount,
  line_amount: moneyAmount,
  status: enums(['active', 'settled']),
  created_at: string(),
  schedule: array(FactoringInstalment),
});
export type FactoringRecord = Infer<typeof FactoringRecord>;
