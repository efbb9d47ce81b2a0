import { array, enums, type Infer, literal, nullable, number, optional, string, type } from 'superstruct';
import { OperatorRole } from '../operator-roles';
import { isoDate, moneyAmount } from './common';
import { graceDays, moratoryRate } from './delinquency';
import {
  crossFieldRule,
  flag,
  integerBetween,
  MAX_SERIAL_ID,
  MESSAGES,
  pageNumber,
  pageSize,
  patternText,
  payload,
  positiveMoney,
  requiredDate,
  requiredText,
} from './fields';

// The operators' credit-programme calls (issue 19, decision 0052): propose a limit, approve it (four eyes),
// freeze and unfreeze, read the programmes with their ledger, record a corporate's payment.

export const PROGRAMME_MESSAGES = {
  limitInvalid: 'Escribe un monto mayor a cero en pesos, sin comas y con hasta dos decimales.',
  amountInvalid: 'Escribe un monto mayor a cero en pesos, sin comas y con hasta dos decimales.',
  dateInvalid: 'Debe ser una fecha válida',
  endsBeforeStart: 'La fecha de fin debe ser igual o posterior a la de inicio.',
  claveRastreoInvalid: 'La clave de rastreo tiene de 1 a 30 letras o números, sin espacios.',
} as const;

/** The programmes list's page size: 25 unless asked, up to 200 (the back office reads them all at once). */
export const PROGRAMMES_PAGE_SIZE = 25;
export const MAX_PROGRAMMES_PAGE_SIZE = 200;

/** GET /api/operator/programmes/: page and page_size. */
export const ProgrammeListQuery = payload({
  page: pageNumber(),
  page_size: pageSize(MAX_PROGRAMMES_PAGE_SIZE, PROGRAMMES_PAGE_SIZE),
});
export type ProgrammeListQuery = Infer<typeof ProgrammeListQuery>;

/** The longest reason an operator writes for a freeze or an unfreeze. */
export const MAX_PROGRAMME_REASON_LENGTH = 500;

// NOTE: Banxico's SPEI clave de rastreo is at most 30 alphanumeric characters.
const CLAVE_RASTREO = /^[A-Za-z0-9]{1,30}$/;

/** POST operator/programmes/: a new limit (or a raise) with the programme's dates, waiting for approval. */
export const ProposeProgrammeBody = crossFieldRule(
  payload({
    corporate_id: integerBetween(1, MAX_SERIAL_ID),
    limit: positiveMoney({ required: MESSAGES.required, invalid: PROGRAMME_MESSAGES.limitInvalid }),
    starts_on: requiredDate(MESSAGES.required, PROGRAMME_MESSAGES.dateInvalid),
    ends_on: requiredDate(MESSAGES.required, PROGRAMME_MESSAGES.dateInvalid),
    /** Calendar days after a due date before the programme freezes for morosidad (kept when not given). */
    grace_days: optional(graceDays()),
    /** The moratory annual rate in percent, shown on late invoices, never charged (kept when not given). */
    moratory_rate: optional(moratoryRate()),
  }),
  (value) =>
    value.ends_on < value.starts_on
      ? { field: 'ends_on', message: PROGRAMME_MESSAGES.endsBeforeStart }
      : null,
);
export type ProposeProgrammeBody = Infer<typeof ProposeProgrammeBody>;

/** POST operator/programmes/{id}/freeze/ and …/unfreeze/: why. */
export const ProgrammeReasonBody = payload({
  reason: requiredText({ maxLength: MAX_PROGRAMME_REASON_LENGTH }),
});
export type ProgrammeReasonBody = Infer<typeof ProgrammeReasonBody>;

/** POST operator/collections/: the corporate's payment of an advanced invoice, as the bank reports it. */
export const RecordCollectionBody = payload({
  invoice_id: integerBetween(1, MAX_SERIAL_ID),
  amount: positiveMoney({ required: MESSAGES.required, invalid: PROGRAMME_MESSAGES.amountInvalid }),
  clave_rastreo: patternText(CLAVE_RASTREO, {
    required: MESSAGES.required,
    invalid: PROGRAMME_MESSAGES.claveRastreoInvalid,
  }),
  fecha: requiredDate(MESSAGES.required, PROGRAMME_MESSAGES.dateInvalid),
  /** The corporate paid more than remains to collect on the invoice: recorded as an over-payment, never silently. */
  sobrepago: flag(),
});
export type RecordCollectionBody = Infer<typeof RecordCollectionBody>;

/** The machine's state of a programme ('pendiente': a first limit or a renewal waits for approval). */
export const ProgrammeStateName = enums(['borrador', 'pendiente', 'activo', 'congelado', 'vencido']);
export type ProgrammeStateName = Infer<typeof ProgrammeStateName>;

export const ProgrammeProposal = type({
  id: number(),
  limit: moneyAmount,
  starts_on: isoDate,
  ends_on: isoDate,
  status: enums(['pendiente', 'aprobada', 'rechazada']),
  proposed_by: number(),
  proposed_by_username: string(),
  proposed_at: string(),
  decided_by: nullable(number()),
  decided_by_username: nullable(string()),
  decided_at: nullable(string()),
  grace_days: number(),
  moratory_rate: string(),
});
export type ProgrammeProposal = Infer<typeof ProgrammeProposal>;

/** One programme as the list shows it. */
export const ProgrammeSummary = type({
  id: number(),
  corporate_id: number(),
  corporate_name: string(),
  corporate_rfc: nullable(string()),
  state: ProgrammeStateName,
  limit: moneyAmount,
  reserved: moneyAmount,
  used: moneyAmount,
  available: moneyAmount,
  /** used + reserved over the limit, 0-100 with two decimals; 0 without a limit. */
  utilisation_percentage: number(),
  starts_on: nullable(isoDate),
  ends_on: nullable(isoDate),
  pending_proposal: nullable(ProgrammeProposal),
  /** Calendar days after a due date before it freezes for morosidad (decision 0068). */
  grace_days: number(),
  /** Moratory annual rate in percent, shown on late invoices, never charged. */
  moratory_rate: string(),
  /** 'morosidad' while frozen for late payment: only an aprobador lifts it, once the overdue is collected. */
  frozen_for: nullable(literal('morosidad')),
});
export type ProgrammeSummary = Infer<typeof ProgrammeSummary>;

/** The operator who asks, so the screen can tell its own proposals (which it may not approve) apart. */
export const ProgrammeViewer = type({ id: number(), roles: array(OperatorRole) });
export type ProgrammeViewer = Infer<typeof ProgrammeViewer>;

export const ProgrammePage = type({
  count: number(),
  next: nullable(string()),
  previous: nullable(string()),
  results: array(ProgrammeSummary),
  viewer: ProgrammeViewer,
});
export type ProgrammePage = Infer<typeof ProgrammePage>;

export const ProgrammeLedgerEntry = type({
  id: number(),
  invoice_id: number(),
  invoice_label: string(),
  kind: enums(['reserve', 'use', 'cancel', 'release']),
  amount: moneyAmount,
  reference: nullable(string()),
  at: string(),
});
export type ProgrammeLedgerEntry = Infer<typeof ProgrammeLedgerEntry>;

export const ProgrammeStateChange = type({
  from_state: string(),
  to_state: string(),
  reason: nullable(string()),
  actor_username: nullable(string()),
  at: string(),
});
export type ProgrammeStateChange = Infer<typeof ProgrammeStateChange>;

/** An advanced invoice that still uses the programme: the corporate's payment for it is still to be recorded. */
export const CollectibleInvoice = type({
  invoice_id: number(),
  invoice_label: string(),
  provider_name: string(),
  /** What the invoice still uses (used − released): what a collection may release. */
  used: moneyAmount,
});
export type CollectibleInvoice = Infer<typeof CollectibleInvoice>;

export const ProgrammeDetail = type({
  programme: ProgrammeSummary,
  ledger: array(ProgrammeLedgerEntry),
  collectible: array(CollectibleInvoice),
  proposals: array(ProgrammeProposal),
  state_changes: array(ProgrammeStateChange),
});
export type ProgrammeDetail = Infer<typeof ProgrammeDetail>;

export const CollectionResponse = type({
  id: number(),
  invoice_id: number(),
  amount: moneyAmount,
  /** The part of the payment that left the programme's used (never more than the invoice used). */
  released: moneyAmount,
  clave_rastreo: string(),
  fecha: isoDate,
  /** The part above what remained to collect, when the caller said sobrepago; '0.00' otherwise. */
  overpaid: moneyAmount,
  message: string(),
});
export type CollectionResponse = Infer<typeof CollectionResponse>;
