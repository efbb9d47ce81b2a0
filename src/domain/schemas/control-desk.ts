import {
  array,
  boolean,
  enums,
  type Infer,
  integer,
  nullable,
  number,
  optional,
  size,
  string,
  type,
} from 'superstruct';
import { DESK_CHECK_IDS, DESK_STATES } from '../control-desk';
import { isoDate, moneyAmount } from './common';
import {
  batchOf,
  integerBetween,
  MAX_SERIAL_ID,
  pageNumber,
  payload,
  queryChoice,
  requiredText,
} from './fields';
import { RepStatus } from './payment-complements';
import { MAX_REASON_LENGTH } from './quotations';

// The control desk and SPEI batch calls under /api/operator/ (decision 0054).

/** NOTE: our own bound on a batch's size, so one call stays one short transaction. */
export const MAX_BATCH_ITEMS = 200;

export const DESK_BODY_MESSAGES = {
  batchEmpty: 'Selecciona al menos un adelanto aprobado.',
  batchTooMany: `Un lote lleva como máximo ${MAX_BATCH_ITEMS} adelantos.`,
  reasonRequired: 'Indica el motivo del rechazo.',
} as const;

/** POST desk/{id}/approve/: an optional note for the audit. */
/** GET /api/operator/desk/: the desk's state filter (every state when absent) and page. */
export const DeskQuery = payload({ state: queryChoice(DESK_STATES), page: pageNumber() });
export type DeskQuery = Infer<typeof DeskQuery>;

export const DeskApproveBody = payload({ reason: optional(size(string(), 0, MAX_REASON_LENGTH)) });
export type DeskApproveBody = Infer<typeof DeskApproveBody>;

/** POST desk/{id}/reject/: the reason the provider will read. */
export const DeskRejectBody = payload({
  reason: requiredText({ message: DESK_BODY_MESSAGES.reasonRequired, maxLength: MAX_REASON_LENGTH }),
});
export type DeskRejectBody = Infer<typeof DeskRejectBody>;

/** POST disbursements/: the approved advances to batch. */
export const CreateBatchBody = payload({
  invoice_ids: batchOf(integerBetween(1, MAX_SERIAL_ID), MAX_BATCH_ITEMS, {
    empty: DESK_BODY_MESSAGES.batchEmpty,
    tooMany: DESK_BODY_MESSAGES.batchTooMany,
  }),
});
export type CreateBatchBody = Infer<typeof CreateBatchBody>;

export const DeskCheckItem = type({
  id: enums(DESK_CHECK_IDS),
  label: string(),
  ok: boolean(),
  reason: string(),
});

export const DeskItem = type({
  invoice_id: integer(),
  label: string(),
  cfdi_uuid: string(),
  provider: type({ name: string(), rfc: string(), clabe: nullable(string()) }),
  corporate: type({ name: string(), rfc: string() }),
  /** The invoice's amount in MXN (converted at its exchange rate when it is in another currency). */
  amount: moneyAmount,
  /** The invoice's own amount when it is in dollars, null otherwise (as the invoice lists send it, spec §3). */
  amount_with_exchange_rate_usd: nullable(moneyAmount),
  /** The CFDI TipoCambio `amount` was converted at; '-' for a peso invoice. */
  exchange_rate: string(),
  /** What the provider receives (MXN), as the SPEI order would carry it today; null when it cannot be quoted. */
  payout: nullable(moneyAmount),
  payment_date: nullable(isoDate),
  state: enums(DESK_STATES),
  state_label: string(),
  reason: nullable(string()),
  decided_by: nullable(string()),
  forced_checks: array(string()),
  checks: array(DeskCheckItem),
  checks_pass: boolean(),
  /** Issue 34: a collected invoice's payment complement (REP) received or owed; null before any collection. */
  payment_complement: optional(nullable(RepStatus)),
});
export type DeskItem = Infer<typeof DeskItem>;

export const DeskPage = type({
  count: integer(),
  next: nullable(string()),
  previous: nullable(string()),
  results: array(DeskItem),
});
export type DeskPage = Infer<typeof DeskPage>;

export const SpeiOrder = type({
  id: integer(),
  invoice_id: integer(),
  clave_rastreo: string(),
  referencia_numerica: integer(),
  beneficiary_name: string(),
  beneficiary_clabe: nullable(string()),
  beneficiary_rfc: string(),
  amount: moneyAmount,
  concepto: string(),
  state: enums(['pendiente', 'liquidada', 'devuelta']),
  return_reason: nullable(string()),
  /** Who uploaded the bank's result for this order (an operator, or the automation account); null while pending. */
  confirmed_by: nullable(string()),
});

export const Batch = type({
  id: integer(),
  created_by: string(),
  created_at: string(),
  total: moneyAmount,
  orders: array(SpeiOrder),
});
export type Batch = Infer<typeof Batch>;

export const BatchSummary = type({
  id: integer(),
  created_by: string(),
  created_at: string(),
  orders: number(),
  total: moneyAmount,
  pending: number(),
  settled: number(),
  returned: number(),
});

export const BatchPage = type({
  count: integer(),
  next: nullable(string()),
  previous: nullable(string()),
  results: array(BatchSummary),
});
export type BatchPage = Infer<typeof BatchPage>;

export const ConfirmationResult = type({
  batch_id: integer(),
  applied: integer(),
  unchanged: integer(),
  results: array(
    type({
      line: integer(),
      clave_rastreo: string(),
      estado: enums(['liquidada', 'devuelta']),
      applied: boolean(),
      message: string(),
    }),
  ),
});
export type ConfirmationResult = Infer<typeof ConfirmationResult>;

/** A refusal with one message per failing check or bad line. */
export const DeskRefusal = type({ detail: string(), errors: optional(array(string())) });
