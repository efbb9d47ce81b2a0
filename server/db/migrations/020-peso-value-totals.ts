// Issue 33 (decision 0065): the corporate summary's 'Monto Total' shows one line per currency. Its MXN line
// summed the own amount of every invoice not in USD, so a EUR invoice added euros to the pesos; it now sums
// the peso value (amount_with_exchange_rate, the CFDI's TipoCambio applied on import), which for a peso
// invoice is its amount.
import { fillTotals, totalsFunction } from './005-scale-indexes';

/** What an invoice adds to invoice_totals.amount_own_mxn: the peso value of every invoice not in USD. */
export const OWN_MXN_PESO_VALUE = `case when currency = 'USD' then 0 else amount_with_exchange_rate end`;

export const pesoValueTotals: readonly string[] = [
  totalsFunction('CREATE OR REPLACE', OWN_MXN_PESO_VALUE),
  // The totals again from the invoices, in this migration's transaction (the triggers see no change meanwhile).
  'DELETE FROM invoice_totals',
  fillTotals(OWN_MXN_PESO_VALUE),
];
