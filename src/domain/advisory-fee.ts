import { type Centavos, multiplyMoney } from './money';

/**
 * NOTE: IVA general rate 16% (LIVA art. 1). Fees and commissions bear it; interest charged by
 * financial-system entities on discounting receivables is exempt (LIVA 15-X-b). See
 * docs/decisions/0002-quote-and-iva.md.
 */
export const IVA_PERCENT = 16;
/** 1 + IVA, as an exact decimal string so no float enters the money math. */
export const IVA_FACTOR = '1.16';
/** Spec §9: advisory fee = amount × 0.01 × 1.16. */
export const ADVISORY_FEE_PERCENT = 1;

/** How the advisory (consultancy) fee is charged: a percent of the invoice amount, plus IVA. */
export type AdvisoryFeeRule = { feePercent: number; ivaPercent: number };

export const DEFAULT_ADVISORY_FEE_RULE: AdvisoryFeeRule = {
  feePercent: ADVISORY_FEE_PERCENT,
  ivaPercent: IVA_PERCENT,
};

/**
 * Advisory fee including IVA, rounded half-up once (not fee and IVA separately):
 * amount × feePercent/100 × (1 + ivaPercent/100).
 * Example: advisoryFee(10_000_000) === 116_000 (100,000.00 → 1,160.00).
 */
export function advisoryFee(amount: Centavos, rule: AdvisoryFeeRule = DEFAULT_ADVISORY_FEE_RULE): Centavos {
  if (rule.feePercent < 0 || rule.ivaPercent < 0)
    throw new Error('Advisory fee percents must not be negative');
  // (100 + iva) / 100 and fee / 100 as decimal factors; one rounding at the end.
  return multiplyMoney(amount, rule.feePercent, '0.01', 100 + rule.ivaPercent, '0.01');
}

/**
 * The IVA inside the advisory fee: advisoryFee with IVA minus the same fee without it, so fee + IVA add up
 * exactly to what advisoryFee charges. Example: advisoryFeeIva(10_000_000) === 16_000 (of 1,160.00).
 */
export function advisoryFeeIva(
  amount: Centavos,
  rule: AdvisoryFeeRule = DEFAULT_ADVISORY_FEE_RULE,
): Centavos {
  return advisoryFee(amount, rule) - advisoryFee(amount, { ...rule, ivaPercent: 0 });
}
