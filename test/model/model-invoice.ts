/**
 * The symbolic invoice a drawer's model opens (its open event carries the row, issue 33); each path's executor
 * imports a real one and reads it for this.
 */
export const MODEL_INVOICE = {
  invoice: {
    id: 1,
    fiscal_folio: 'folio fiscal',
    serie_folio: 'A-1',
    amount: '100000.00',
    amount_with_exchange_rate: '100000.00',
    amount_with_exchange_rate_usd: null,
    exchange_rate: '-',
  },
} as const;
