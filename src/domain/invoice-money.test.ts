import { describe, expect, it } from 'vitest';
import { formatInvoiceAmount, formatInvoiceMxnValue, invoiceMoney, isConverted } from './invoice-money';

const usd = {
  amount: '6090.00',
  amount_with_exchange_rate: '102280.33',
  amount_with_exchange_rate_usd: '6090.00',
  exchange_rate: '16.7948',
};
const mxn = {
  amount: '100000.00',
  amount_with_exchange_rate: '100000.00',
  amount_with_exchange_rate_usd: null,
  exchange_rate: '-',
};

describe('invoice money', () => {
  it('writes a USD invoice in dollars with its code, and its peso value with the rate', () => {
    expect(formatInvoiceAmount(usd)).toBe('$6,090.00 USD');
    expect(formatInvoiceMxnValue(usd)).toBe('$102,280.33 MXN al tipo de cambio 16.7948');
    expect(isConverted(usd)).toBe(true);
  });

  it('writes a peso invoice in pesos, without a rate', () => {
    expect(formatInvoiceAmount(mxn)).toBe('$100,000.00 MXN');
    expect(formatInvoiceMxnValue(mxn)).toBe('$100,000.00 MXN');
    expect(isConverted(mxn)).toBe(false);
    // A peso CFDI may state TipoCambio 1: nothing was converted.
    expect(formatInvoiceMxnValue({ ...mxn, exchange_rate: '1.00' })).toBe('$100,000.00 MXN');
  });

  it('shows another currency by its peso value, with the rate it was converted at', () => {
    const eur = {
      amount: '1000.00',
      amount_with_exchange_rate: '20150.00',
      amount_with_exchange_rate_usd: null,
      exchange_rate: '20.15',
    };
    expect(invoiceMoney(eur)).toEqual({
      amount: 2_015_000,
      currency: 'MXN',
      mxn: 2_015_000,
      exchangeRate: '20.15',
    });
    expect(formatInvoiceAmount(eur)).toBe('$20,150.00 MXN');
    expect(formatInvoiceMxnValue(eur)).toBe('$20,150.00 MXN al tipo de cambio 20.15');
  });

  it('falls back to the amount when the peso value is missing', () => {
    expect(formatInvoiceAmount({ ...mxn, amount_with_exchange_rate: null })).toBe('$100,000.00 MXN');
  });
});
