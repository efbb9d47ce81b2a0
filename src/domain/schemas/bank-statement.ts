import { array, boolean, enums, type Infer, integer, nullable, string, type } from 'superstruct';
import { PAYMENT_KINDS } from '../bank-statement';
import { isoDate, moneyAmount } from './common';
import { PROGRAMME_MESSAGES } from './credit-programmes';
import { integerBetween, MAX_SERIAL_ID, MESSAGES, payload, positiveMoney, requiredText } from './fields';

// The cobranza calls (issue 34, decision 0067): the bank's statement, the unidentified-payment queue and the
// buyers' saldo a favor.

export const BankStatementCounts = type({
  exactas: integer(),
  parciales: integer(),
  sobrepagos: integer(),
  no_identificadas: integer(),
  repetidas: integer(),
});
export type BankStatementCounts = Infer<typeof BankStatementCounts>;

export const BankStatementLineResult = type({
  line: integer(),
  clave_rastreo: string(),
  monto: moneyAmount,
  kind: enums(PAYMENT_KINDS),
  corporate_id: nullable(integer()),
  invoice_ids: array(integer()),
  saldo_a_favor: moneyAmount,
  message: string(),
});
export type BankStatementLineResult = Infer<typeof BankStatementLineResult>;

export const BankStatementResult = type({
  counts: BankStatementCounts,
  applied: moneyAmount,
  saldo_a_favor: moneyAmount,
  message: string(),
  lines: array(BankStatementLineResult),
});
export type BankStatementResult = Infer<typeof BankStatementResult>;

export const UnidentifiedStateName = enums(['pendiente', 'propuesta', 'aplicada', 'devuelta']);

export const UnidentifiedPayment = type({
  id: integer(),
  clave_rastreo: string(),
  fecha: isoDate,
  amount: moneyAmount,
  rfc_ordenante: nullable(string()),
  nombre_ordenante: string(),
  referencia: string(),
  concepto: string(),
  state: UnidentifiedStateName,
  invoice_id: nullable(integer()),
  proposed_by: nullable(integer()),
  proposed_by_username: nullable(string()),
  decided_by_username: nullable(string()),
  reason: nullable(string()),
  /** Above the threshold: one operator proposes, a different aprobador approves. */
  needs_approval: boolean(),
});

export const UnidentifiedPage = type({ count: integer(), results: array(UnidentifiedPayment) });
export type UnidentifiedPage = Infer<typeof UnidentifiedPage>;
export type UnidentifiedPayment = Infer<typeof UnidentifiedPayment>;

/** POST operator/collections/unidentified/{id}/assign/: the invoice the payment is for. */
export const AssignUnidentifiedBody = payload({ invoice_id: integerBetween(1, MAX_SERIAL_ID) });
export type AssignUnidentifiedBody = Infer<typeof AssignUnidentifiedBody>;

export const MAX_COLLECTION_REASON_LENGTH = 500;
/** Rejecting a proposal or returning a payment: the reason. */
export const UnidentifiedReasonBody = payload({
  reason: requiredText({ maxLength: MAX_COLLECTION_REASON_LENGTH }),
});
export type UnidentifiedReasonBody = Infer<typeof UnidentifiedReasonBody>;

export const BuyerCredit = type({
  corporate_id: integer(),
  corporate_name: string(),
  rfc: nullable(string()),
  balance: moneyAmount,
});
export type BuyerCredit = Infer<typeof BuyerCredit>;
export const BuyerCreditList = type({ count: integer(), results: array(BuyerCredit) });
export type BuyerCreditList = Infer<typeof BuyerCreditList>;

/** POST operator/collections/credits/apply/: part of a buyer's saldo a favor applied to one of its invoices. */
export const ApplyCreditBody = payload({
  invoice_id: integerBetween(1, MAX_SERIAL_ID),
  amount: positiveMoney({ required: MESSAGES.required, invalid: PROGRAMME_MESSAGES.amountInvalid }),
});
export type ApplyCreditBody = Infer<typeof ApplyCreditBody>;

export const ApplyCreditResult = type({
  corporate_id: integer(),
  invoice_id: integer(),
  applied: moneyAmount,
  balance: moneyAmount,
  message: string(),
});
export type ApplyCreditResult = Infer<typeof ApplyCreditResult>;
