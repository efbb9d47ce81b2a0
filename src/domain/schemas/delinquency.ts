import {
  array,
  enums,
  type Infer,
  literal,
  nullable,
  number,
  optional,
  record,
  string,
  type,
} from 'superstruct';
import { isIsoDate } from '../calendar-date';
import {
  COLLECTION_ACTIONS,
  DELINQUENCY_MESSAGES,
  MAX_COLLECTION_NOTE_LENGTH,
  MAX_GRACE_DAYS,
  moratoryRateProblem,
} from '../delinquency';
import { AGING_BUCKETS } from '../maturities';
import { isoDate, moneyAmount } from './common';
import {
  checkedField,
  crossFieldRule,
  MAX_SERIAL_ID,
  MESSAGES,
  pageNumber,
  pageSize,
  payload,
  queryInteger,
  queryText,
  requiredDate,
  tooLongMessage,
} from './fields';

// Delinquency (issue 34, decision 0068): the aging report, a programme's grace days and moratory rate (proposed
// with its limit), and a buyer's collection log.

/** A programme's grace days as a proposal carries them: a whole number 0..MAX_GRACE_DAYS. */
export const graceDays = () =>
  checkedField<number>(
    'graceDays',
    (value) =>
      (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_GRACE_DAYS) ||
      DELINQUENCY_MESSAGES.gracePositive,
  );

/** A programme's moratory annual rate in percent, as text ('36' or '36.5'). */
export const moratoryRate = () =>
  checkedField<string>('moratoryRate', (value) => moratoryRateProblem(value) ?? true);

/** The invoices of the aging report per page. */
export const AGING_PAGE_SIZE = 50;
export const MAX_AGING_PAGE_SIZE = 500;

/** GET /api/operator/aging/: as of `fecha` (today by default), optionally one buyer or one programme. */
export const AgingQuery = payload({
  fecha: queryText((text) => isIsoDate(text) || 'Debe ser una fecha válida (AAAA-MM-DD).'),
  corporate_id: optional(queryInteger(1, MAX_SERIAL_ID)),
  programme_id: optional(queryInteger(1, MAX_SERIAL_ID)),
  page: pageNumber(),
  page_size: pageSize(MAX_AGING_PAGE_SIZE, AGING_PAGE_SIZE),
});
export type AgingQuery = Infer<typeof AgingQuery>;

export const AgingBucketName = enums(AGING_BUCKETS);

/** Outstanding per bucket, in MXN ('1234.56'). */
export const AgingBuckets = record(AgingBucketName, moneyAmount);
export type AgingBuckets = Infer<typeof AgingBuckets>;

const AgingTotals = type({
  buckets: AgingBuckets,
  outstanding: moneyAmount,
  moratory_interest: moneyAmount,
  invoices: number(),
});

/** One buyer's aging, with its programme (null when it has none). */
export const AgingBuyer = type({
  corporate_id: number(),
  corporate_name: string(),
  programme_id: nullable(number()),
  programme_state: nullable(string()),
  /** 'morosidad' when its programme is frozen for late payment. */
  frozen_for: nullable(literal('morosidad')),
  grace_days: nullable(number()),
  moratory_rate: nullable(string()),
  max_days_past_due: number(),
  totals: AgingTotals,
});
export type AgingBuyer = Infer<typeof AgingBuyer>;

/** One advanced invoice with something outstanding. */
export const AgingInvoice = type({
  invoice_id: number(),
  label: string(),
  corporate_id: number(),
  corporate_name: string(),
  provider_name: string(),
  programme_id: nullable(number()),
  due_on: isoDate,
  /** The first day its programme freezes if it is still owing (due + grace + 1). */
  freezes_on: isoDate,
  days_past_due: number(),
  bucket: AgingBucketName,
  value: moneyAmount,
  collected: moneyAmount,
  outstanding: moneyAmount,
  moratory_interest: moneyAmount,
});
export type AgingInvoice = Infer<typeof AgingInvoice>;

export const AgingReport = type({
  fecha: isoDate,
  totals: AgingTotals,
  buyers: array(AgingBuyer),
  programmes: array(
    type({ programme_id: number(), corporate_name: string(), state: string(), totals: AgingTotals }),
  ),
  invoices: type({
    count: number(),
    page: number(),
    page_size: number(),
    results: array(AgingInvoice),
  }),
});
export type AgingReport = Infer<typeof AgingReport>;

/** POST operator/corporates/{id}/collection-log/: what an operator did to collect. */
export const CollectionLogBody = crossFieldRule(
  payload({
    action: checkedField<(typeof COLLECTION_ACTIONS)[number]>(
      'collectionAction',
      (value) =>
        (typeof value === 'string' && (COLLECTION_ACTIONS as readonly string[]).includes(value)) ||
        MESSAGES.invalid,
    ),
    note: optional(
      checkedField<string>(
        'collectionNote',
        (value) =>
          (typeof value === 'string' && value.length <= MAX_COLLECTION_NOTE_LENGTH) ||
          tooLongMessage(MAX_COLLECTION_NOTE_LENGTH),
      ),
    ),
    promised_on: optional(
      nullable(
        requiredDate(DELINQUENCY_MESSAGES.promisedOnRequired, 'Debe ser una fecha válida (AAAA-MM-DD).'),
      ),
    ),
  }),
  (value) => {
    const promised = value.promised_on ?? null;
    if (value.action === 'promesa_de_pago' && promised === null)
      return { field: 'promised_on', message: DELINQUENCY_MESSAGES.promisedOnRequired };
    if (value.action !== 'promesa_de_pago' && promised !== null)
      return { field: 'promised_on', message: DELINQUENCY_MESSAGES.promisedOnOnlyForPromise };
    return null;
  },
);
export type CollectionLogBody = Infer<typeof CollectionLogBody>;

export const CollectionLogEntry = type({
  id: number(),
  corporate_id: number(),
  action: enums(COLLECTION_ACTIONS),
  note: string(),
  promised_on: nullable(isoDate),
  recorded_by_username: string(),
  recorded_at: string(),
});
export type CollectionLogEntry = Infer<typeof CollectionLogEntry>;

export const CollectionLog = type({ results: array(CollectionLogEntry) });
export type CollectionLog = Infer<typeof CollectionLog>;
