import { array, enums, type Infer, integer, nullable, optional, string, type } from 'superstruct';
import { ALLIANCE_MESSAGES, ALLIANCE_STATES, annualRateProblem, maxDaysProblem } from '../alliance-terms';
import { EfosStanding } from './cfdi-proof';
import { moneyAmount } from './common';
import {
  checkedField,
  companyRfc,
  MAX_SERIAL_ID,
  pageNumber,
  payload,
  positiveMoney,
  queryChoice,
  queryInteger,
} from './fields';
import { PagedList } from './invoices';

// The operator's alliances (issue 19, decision 0053) and the inbox of what providers and visitors sent.

/**
 * POST /api/operator/alliances/: the price a supplier pays on one corporate's invoices. annual_rate is the
 * rate before IVA in percent (15 or '15.50'); max_days bounds the days to the payment date; max_amount
 * optionally caps one invoice's amount in MXN.
 */
export const AllianceInput = payload({
  corporate_id: checkedField<number>(
    'corporateId',
    (value) =>
      (typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= MAX_SERIAL_ID) ||
      ALLIANCE_MESSAGES.corporateRequired,
  ),
  provider_rfc: companyRfc(),
  annual_rate: checkedField<number | string>('annualRate', (value) => annualRateProblem(value) ?? true),
  max_days: checkedField<number>('maxDays', (value) => maxDaysProblem(value) ?? true),
  max_amount: optional(
    nullable(positiveMoney({ required: ALLIANCE_MESSAGES.amount, invalid: ALLIANCE_MESSAGES.amount })),
  ),
});
export type AllianceInput = Infer<typeof AllianceInput>;

/** One price an alliance had, from effective_from on (newest first in a detail). */
export const AlliancePrice = type({
  annual_rate: string(),
  max_rate: string(),
  max_days: nullable(integer()),
  max_amount: nullable(moneyAmount),
  effective_from: string(),
  set_by: nullable(string()),
});
export type AlliancePrice = Infer<typeof AlliancePrice>;

/**
 * An alliance as the operator lists it. Rates travel as decimal strings ('15.00', '17.4000'): they are the
 * operator's figures, shown as typed. provider_id and provider_name are null while the RFC is not in Flujo.
 */
export const OperatorAlliance = type({
  id: integer(),
  corporate_id: integer(),
  corporate_name: string(),
  provider_id: nullable(integer()),
  provider_rfc: string(),
  provider_name: nullable(string()),
  annual_rate: nullable(string()),
  max_rate: string(),
  max_days: nullable(integer()),
  max_amount: nullable(moneyAmount),
  state: enums(ALLIANCE_STATES),
  created_at: string(),
  /** The provider on SAT's 69-B list (issue 30). */
  provider_efos: EfosStanding,
});
export type OperatorAlliance = Infer<typeof OperatorAlliance>;

export const OperatorAlliancePage = PagedList(OperatorAlliance);
export type OperatorAlliancePage = Infer<typeof OperatorAlliancePage>;

export const OperatorAllianceDetail = type({
  ...OperatorAlliance.schema,
  prices: array(AlliancePrice),
});
export type OperatorAllianceDetail = Infer<typeof OperatorAllianceDetail>;

/** What the inbox lists (GET /api/operator/inbox/?kind=). */
export const INBOX_KINDS = ['demo', 'referral', 'factoring', 'alliance', 'efos', 'conflict'] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];

/** What the alliance list and the inbox say of a filter they cannot read. */
export const ALLIANCE_FILTER_MESSAGES = {
  corporate: 'El corporativo debe ser un número entero positivo.',
  state: `El estado debe ser uno de: ${ALLIANCE_STATES.join(', ')}.`,
  kind: `El tipo debe ser uno de: ${INBOX_KINDS.join(', ')}.`,
} as const;

/** GET /api/operator/alliances/: one corporate's (when given), in one state (when given), a page. */
export const AllianceListQuery = payload({
  corporate: optional(queryInteger(1, MAX_SERIAL_ID, { message: ALLIANCE_FILTER_MESSAGES.corporate })),
  status: queryChoice(ALLIANCE_STATES, { message: ALLIANCE_FILTER_MESSAGES.state }),
  page: pageNumber(),
});
export type AllianceListQuery = Infer<typeof AllianceListQuery>;

/** GET /api/operator/inbox/: one kind (required) and a page. */
export const InboxQuery = payload({
  kind: queryChoice(INBOX_KINDS, { message: ALLIANCE_FILTER_MESSAGES.kind, required: true }),
  page: pageNumber(),
});
export type InboxQuery = Infer<typeof InboxQuery>;
export const INBOX_KIND_LABELS: Record<InboxKind, string> = {
  demo: 'Solicitudes de demo',
  referral: 'Clientes referidos',
  factoring: 'Alta en factoraje',
  alliance: 'Solicitudes de alianza',
  efos: 'Lista 69-B del SAT',
  conflict: 'CFDI en conflicto',
};

/**
 * One item of the inbox, whatever its kind: who sent it (company or person), the contact, what it asks and
 * its status ('requested' | 'allied' | 'declined' | 'enabled'; for 'efos' the 69-B situation, e.g. 'Presunto';
 * or null where the table keeps none).
 */
export const InboxItem = type({
  id: integer(),
  kind: enums(INBOX_KINDS),
  from_name: string(),
  from_company: string(),
  subject: string(),
  contact_email: nullable(string()),
  contact_phone: nullable(string()),
  status: nullable(string()),
  created_at: string(),
});
export type InboxItem = Infer<typeof InboxItem>;

export const InboxPage = PagedList(InboxItem);
export type InboxPage = Infer<typeof InboxPage>;

export const INBOX_STATUS_LABELS: Record<string, string> = {
  requested: 'Recibida',
  allied: 'Aliada',
  declined: 'Rechazada',
  enabled: 'Habilitada',
};
