import { type Centavos, formatMxn } from './money';

// Concentration caps (issue 34, decision 0069): how much Flujo may hold on one buyer, one economic group or one
// supplier. Exposure is what is outstanding (advanced and disbursed, MXN value less collections) plus what the
// programme ledger holds reserved for advances not yet paid. A cap is an amount in MXN or a percentage of
// Flujo's total exposure; for a percentage, the advance counts in both the subject's exposure and the total:
//   (exposure + advance) / (total + advance) ≤ percent / 100.
// The server checks every applicable cap at 'Adelantar pago' (under a lock) and at the desk ('Concentración').

export const CAP_SCOPES = ['buyer', 'group', 'supplier'] as const;
export type CapScope = (typeof CAP_SCOPES)[number];
export const CAP_KINDS = ['percent', 'amount'] as const;
export type CapKind = (typeof CAP_KINDS)[number];

export const CAP_SCOPE_LABELS: Readonly<Record<CapScope, string>> = {
  buyer: 'Comprador',
  group: 'Grupo económico',
  supplier: 'Proveedor',
};

/** The scope as it reads inside a sentence: 'del comprador', 'del grupo económico', 'del proveedor'. */
const SCOPE_IN_SENTENCE: Readonly<Record<CapScope, string>> = {
  buyer: 'del comprador',
  group: 'del grupo económico',
  supplier: 'del proveedor',
};

export const CAP_KIND_LABELS: Readonly<Record<CapKind, string>> = {
  percent: 'Porcentaje de la exposición total',
  amount: 'Monto en MXN',
};

/**
 * A cap in force. `value`: for 'amount' the MXN centavos; for 'percent' hundredths of a percent (25.00 % →
 * 2500), which is what parseMoney reads from the stored numeric(18,2).
 */
export interface ConcentrationCap {
  scope: CapScope;
  /** The buyer's or supplier's name, or the group's name. */
  subject: string;
  kind: CapKind;
  value: number;
}

/** The figures one cap is weighed against, in centavos. */
export interface CapFigures {
  /** The subject's exposure now: outstanding plus reserved. */
  exposure: Centavos;
  /** Flujo's total exposure now: outstanding plus reserved, every buyer. */
  total: Centavos;
  /** What the advance adds (0 when it is already reserved and counted). */
  advance: Centavos;
}

/** '25.00 %' for 2500 hundredths. */
export function formatPercentHundredths(hundredths: number): string {
  return `${(hundredths / 100).toFixed(2)} %`;
}

/** The cap as an operator reads it: '$1,000,000.00 MXN' or '25.00 % de la exposición total'. */
export function capLimitText(cap: Pick<ConcentrationCap, 'kind' | 'value'>): string {
  return cap.kind === 'amount'
    ? formatMxn(cap.value)
    : `${formatPercentHundredths(cap.value)} de la exposición total`;
}

/** The subject's share of the total in hundredths of a percent, rounded down (0 when the total is 0). */
export function shareHundredths(exposure: Centavos, total: Centavos): number {
  if (total <= 0) return 0;
  return Number((BigInt(exposure) * 10_000n) / BigInt(total));
}

/** Whether the cap holds after the advance. Integer arithmetic: centavos × hundredths exceed 2^53. */
export function capHolds(cap: Pick<ConcentrationCap, 'kind' | 'value'>, figures: CapFigures): boolean {
  const after = BigInt(figures.exposure) + BigInt(figures.advance);
  if (cap.kind === 'amount') return after <= BigInt(cap.value);
  const totalAfter = BigInt(figures.total) + BigInt(figures.advance);
  if (totalAfter === 0n) return true;
  return after * 10_000n <= BigInt(cap.value) * totalAfter;
}

/**
 * The Spanish sentence of a cap the advance would exceed (the one home of the words, read at 'Adelantar pago'
 * and on the desk), or null when it holds.
 * Example: 'Se rebasaría el tope de concentración del comprador «Grupo Alfa» (máximo $1,000.00 MXN): su
 * exposición pasaría a $1,200.00 MXN.'
 */
export function capBreach(cap: ConcentrationCap, figures: CapFigures): string | null {
  if (capHolds(cap, figures)) return null;
  const after = figures.exposure + figures.advance;
  const reached =
    cap.kind === 'amount'
      ? formatMxn(after)
      : `${formatPercentHundredths(shareHundredths(after, figures.total + figures.advance))} del total (${formatMxn(after)})`;
  return (
    `Se rebasaría el tope de concentración ${SCOPE_IN_SENTENCE[cap.scope]} «${cap.subject}» ` +
    `(máximo ${capLimitText(cap)}): su exposición pasaría a ${reached}.`
  );
}

/** How much of the cap the subject uses now, in percent with two decimals (may pass 100 after a cap is lowered). */
export function capUtilisation(
  cap: Pick<ConcentrationCap, 'kind' | 'value'>,
  exposure: Centavos,
  total: Centavos,
): number {
  if (cap.value <= 0) return 0;
  if (cap.kind === 'amount') return Math.round((exposure * 10_000) / cap.value) / 100;
  return Math.round((shareHundredths(exposure, total) * 10_000) / cap.value) / 100;
}

/** The room left under the cap, in centavos (never below 0): the largest advance it would still accept. */
export function capRoom(
  cap: Pick<ConcentrationCap, 'kind' | 'value'>,
  exposure: Centavos,
  total: Centavos,
): Centavos {
  if (cap.kind === 'amount') return Math.max(0, cap.value - exposure);
  // (e + a) × 10000 ≤ p × (t + a)  ⇔  a × (10000 − p) ≤ p × t − 10000 × e.
  const p = BigInt(cap.value);
  if (p >= 10_000n) return Number.MAX_SAFE_INTEGER;
  const room = (p * BigInt(total) - 10_000n * BigInt(exposure)) / (10_000n - p);
  return room > 0n ? Number(room) : 0;
}

/** The maturity ladder's rungs: outstanding by days to its due date (disbursements.due_on). */
export const LADDER_BUCKETS = ['vencido', 'd7', 'd30', 'd60', 'd90', 'mas_de_90'] as const;
export type LadderBucket = (typeof LADDER_BUCKETS)[number];

export const LADDER_BUCKET_LABELS: Readonly<Record<LadderBucket, string>> = {
  vencido: 'Vencido',
  d7: 'Próximos 7 días',
  d30: '8 a 30 días',
  d60: '31 a 60 días',
  d90: '61 a 90 días',
  mas_de_90: 'Más de 90 días',
};

/** The rung of an outstanding due `daysToDue` days from today (negative: past due). */
export function ladderBucket(daysToDue: number): LadderBucket {
  if (daysToDue < 0) return 'vencido';
  if (daysToDue <= 7) return 'd7';
  if (daysToDue <= 30) return 'd30';
  if (daysToDue <= 60) return 'd60';
  if (daysToDue <= 90) return 'd90';
  return 'mas_de_90';
}
