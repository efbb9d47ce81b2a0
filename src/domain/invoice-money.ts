import {
  type Centavos,
  type DisplayCurrency,
  formatConvertedMxn,
  formatMoney,
  formatMxn,
  parseMoney,
} from './money';
import type { Invoice } from './schemas/invoices';

// An invoice's amount as a user reads it (issue 33): in its own currency with the code, and its peso value,
// which is what an advance or a factoring line pays and holds, with the CFDI TipoCambio when it was converted.

/** What an invoice's money needs of a list row (spec §3 'Invoice'). */
export type InvoiceAmounts = Pick<
  Invoice,
  'amount' | 'amount_with_exchange_rate' | 'amount_with_exchange_rate_usd' | 'exchange_rate'
>;

/** A row an action is for (an advance, a factoring): what a drawer names it by, its folio and its money. */
export type InvoiceSubject = Pick<Invoice, 'id' | 'fiscal_folio' | 'serie_folio'> & InvoiceAmounts;

export interface InvoiceMoney {
  /** The invoice's amount in `currency`. */
  amount: Centavos;
  currency: DisplayCurrency;
  /** Its value in pesos (amount_with_exchange_rate). */
  mxn: Centavos;
  /** The CFDI TipoCambio the peso value was converted at; null when the invoice is in pesos. */
  exchangeRate: string | null;
}

/** A TipoCambio that converts: present ('-' means none) and not 1 (a peso CFDI may state TipoCambio 1). */
function convertingRate(rate: string): string | null {
  if (rate === '-' || rate.trim() === '') return null;
  return /^0*1(?:\.0*)?$/.test(rate.trim()) ? null : rate;
}

/**
 * The invoice's money. A USD invoice (amount_with_exchange_rate_usd set) is in dollars; any other is shown by its
 * peso value: a peso invoice as it is, another currency (the CFDI allows EUR…) converted on import, so its
 * peso value carries the rate. Example: a 6,090.00 USD invoice at 16.7948 → { amount: 609000, currency: 'USD',
 * mxn: 10228033, exchangeRate: '16.7948' }.
 */
export function invoiceMoney(invoice: InvoiceAmounts): InvoiceMoney {
  const mxn = parseMoney(invoice.amount_with_exchange_rate ?? invoice.amount);
  const exchangeRate = convertingRate(invoice.exchange_rate);
  if (invoice.amount_with_exchange_rate_usd !== null) {
    return { amount: parseMoney(invoice.amount_with_exchange_rate_usd), currency: 'USD', mxn, exchangeRate };
  }
  return { amount: mxn, currency: 'MXN', mxn, exchangeRate };
}

/** The invoice's amount with its currency: '$6,090.00 USD', '$100,000.00 MXN'. */
export function formatInvoiceAmount(invoice: InvoiceAmounts): string {
  const money = invoiceMoney(invoice);
  return formatMoney(money.amount, money.currency);
}

/**
 * The invoice's peso value, with its rate when it was converted: '$102,280.33 MXN al tipo de cambio 16.7948' for
 * a USD invoice, '$100,000.00 MXN' for a peso one.
 */
export function formatInvoiceMxnValue(invoice: InvoiceAmounts): string {
  const money = invoiceMoney(invoice);
  return money.exchangeRate === null
    ? formatMxn(money.mxn)
    : formatConvertedMxn(money.mxn, money.exchangeRate);
}

/** True when the invoice's amount is not in pesos, so a peso figure derived from it is a conversion. */
export function isConverted(invoice: InvoiceAmounts): boolean {
  return invoiceMoney(invoice).exchangeRate !== null;
}
