import { define } from 'superstruct';
import { type IsoDate, isIsoDate } from '../calendar-date';
import { type InvoiceStatusCode, isInvoiceStatusCode } from '../invoice-status';
import { isSatStatusCode, type SatStatusCode } from '../sat-status';

// Wire conventions shared by every schema file: money travels as '1234.56' strings (numeric(18,2)),
// dates as 'YYYY-MM-DD', rates as JSON numbers in percent. Response structs use `type()` so a newer
// server may add fields without breaking older clients; request payloads use `payload()` (fields.ts).

const MONEY_AMOUNT = /^-?\d{1,16}\.\d{2}$/;

/** A money amount as the API sends it: '1234.56' (exactly two decimals). */
export const moneyAmount = define<string>(
  'MoneyAmount',
  (value) => typeof value === 'string' && MONEY_AMOUNT.test(value),
);

/** A calendar date 'YYYY-MM-DD'. */
export const isoDate = define<IsoDate>('IsoDate', isIsoDate);

export const invoiceStatusCode = define<InvoiceStatusCode>('InvoiceStatusCode', isInvoiceStatusCode);

export const satStatusCode = define<SatStatusCode>('SatStatusCode', isSatStatusCode);

/**
 * An invoice list's `count_is_estimate` (decision 0074): true when a search matched more than EXACT_COUNT_LIMIT
 * invoices, so `count` is that limit, a lower bound. A one-word search is counted exactly at any size (decision
 * 0075), so only a search the kept words cannot answer (two words, a folio, a status or period) says so.
 */
export const countIsEstimate = define<boolean>('CountIsEstimate', (value) => typeof value === 'boolean');
