import dayjs from 'dayjs';
import { array, type Infer, integer, nullable, optional, string, type } from 'superstruct';
import { daysBetween, ISO_DATE_FORMAT, type IsoDate, isIsoDate } from '../calendar-date';
import { isoDate, moneyAmount } from './common';
import { crossFieldRule, MAX_SERIAL_ID, payload, queryInteger, queryText } from './fields';

// Maturities (issue 34, decision 0066): what falls due when, per business day and per buyer, for the back office
// (GET /api/operator/maturities/) and a corporate's own next due dates (GET /api/corporates/maturities/).

/** NOTE: our own bound on one report's range, so one call stays one short query (about four months). */
export const MAX_MATURITY_RANGE_DAYS = 120;

/** How far ahead the back office's screen looks by default (today..today+30). */
export const DEFAULT_MATURITY_WINDOW_DAYS = 30;

/** How many next due dates the corporate's 'Próximos vencimientos' lists. */
export const NEXT_MATURITIES_SHOWN = 5;

export const MATURITY_MESSAGES = {
  required: 'Indica la fecha (AAAA-MM-DD).',
  invalidDate: 'Escribe la fecha como AAAA-MM-DD.',
  rangeBackwards: 'La fecha final no puede ser anterior a la inicial.',
  rangeTooLong: `El rango admite como máximo ${MAX_MATURITY_RANGE_DAYS} días.`,
  corporate: 'Elige un corporativo válido.',
} as const;

const maturityDay = () => queryText((text) => isIsoDate(text) || MATURITY_MESSAGES.invalidDate);

/**
 * GET /api/operator/maturities/: desde and hasta (both required, inclusive, Mexico City's business dates) and an
 * optional buyer. A range that ends before it starts, or spans more than MAX_MATURITY_RANGE_DAYS, is refused on
 * `hasta`.
 */
export const MaturitiesQuery = crossFieldRule(
  payload({
    desde: maturityDay(),
    hasta: maturityDay(),
    corporate_id: optional(queryInteger(1, MAX_SERIAL_ID, { message: MATURITY_MESSAGES.corporate })),
  }),
  (value) => {
    if (value.desde === null) return { field: 'desde', message: MATURITY_MESSAGES.required };
    if (value.hasta === null) return { field: 'hasta', message: MATURITY_MESSAGES.required };
    // A malformed day has its own message; the range is checked between two real days only.
    if (!isIsoDate(value.desde) || !isIsoDate(value.hasta)) return null;
    if (value.hasta < value.desde) return { field: 'hasta', message: MATURITY_MESSAGES.rangeBackwards };
    if (daysBetween(value.desde, value.hasta) + 1 > MAX_MATURITY_RANGE_DAYS)
      return { field: 'hasta', message: MATURITY_MESSAGES.rangeTooLong };
    return null;
  },
);
export type MaturitiesQuery = Infer<typeof MaturitiesQuery>;

/** The range as the screen's URL carries it. */
export interface MaturityFilters {
  desde?: string;
  hasta?: string;
}
export const MATURITY_FILTER_KEYS = ['desde', 'hasta'] as const;

/** The screen's range: the URL's days, else today (Mexico City's business date) to today + 30. */
export function maturityRange(filters: MaturityFilters, today: IsoDate): { desde: IsoDate; hasta: IsoDate } {
  return {
    desde: filters.desde ?? today,
    hasta: filters.hasta ?? dayjs(today).add(DEFAULT_MATURITY_WINDOW_DAYS, 'day').format(ISO_DATE_FORMAT),
  };
}

/** Advanced, collected and outstanding in pesos ('1234.56'). */
const Totals = {
  advanced: moneyAmount,
  collected: moneyAmount,
  /** The MXN value still to collect: amount_with_exchange_rate minus collected, never below 0. */
  outstanding: moneyAmount,
};

/** One advanced invoice falling due. */
export const MaturityInvoice = type({
  invoice_id: integer(),
  serie_folio: nullable(string()),
  cfdi_uuid: string(),
  supplier_name: string(),
  supplier_rfc: string(),
  /** The CFDI's currency ('MXN', 'USD', …); its own amount and rate when it is not pesos. */
  currency: string(),
  amount: moneyAmount,
  exchange_rate: nullable(string()),
  /** Its value in pesos (amount_with_exchange_rate). */
  amount_mxn: moneyAmount,
  ...Totals,
});
export type MaturityInvoice = Infer<typeof MaturityInvoice>;

/** A buyer's invoices falling due on one day: one maturity batch, paid with one reference. */
export const MaturityBuyer = type({
  corporate_id: integer(),
  corporate_name: string(),
  corporate_rfc: nullable(string()),
  batch_id: integer(),
  /** The SPEI 'referencia numérica' the buyer pays the batch with (src/domain/maturities.ts). */
  reference: string(),
  ...Totals,
  invoices: array(MaturityInvoice),
});
export type MaturityBuyer = Infer<typeof MaturityBuyer>;

export const MaturityDay = type({
  due_on: isoDate,
  ...Totals,
  buyers: array(MaturityBuyer),
});
export type MaturityDay = Infer<typeof MaturityDay>;

export const MaturitiesReport = type({
  desde: isoDate,
  hasta: isoDate,
  ...Totals,
  days: array(MaturityDay),
});
export type MaturitiesReport = Infer<typeof MaturitiesReport>;

/** One of a corporate's next due dates (its own batches with something outstanding). */
export const CorporateMaturity = type({
  due_on: isoDate,
  reference: string(),
  invoices: integer(),
  outstanding: moneyAmount,
});
export type CorporateMaturity = Infer<typeof CorporateMaturity>;

export const CorporateMaturities = type({
  results: array(CorporateMaturity),
  /** Flujo's collection CLABE the buyer pays to. */
  collection_clabe: string(),
});
export type CorporateMaturities = Infer<typeof CorporateMaturities>;
