import { displayDate, type IsoDate } from './calendar-date';
import { type Centavos, formatMxn } from './money';

// A corporate's payment of an advanced invoice (POST operator/collections/, decision 0059): when it may be
// dated and how much of it the invoice can take. The server reads the facts; the rule is here, once.

export const COLLECTION_MESSAGES = {
  fechaAfterToday: (today: IsoDate) =>
    `La fecha del pago no puede ser posterior a hoy (${displayDate(today)}).`,
  fechaBeforeDisbursement: (disbursedOn: IsoDate) =>
    `La fecha del pago no puede ser anterior al desembolso del adelanto (${displayDate(disbursedOn)}).`,
  amountAboveRemaining: (remaining: Centavos) =>
    `El monto excede lo que falta por cobrar de esta factura (${formatMxn(remaining)}). ` +
    'Si el corporativo pagó de más, márcalo como sobrepago.',
  notOverpayment: (remaining: Centavos) =>
    `No es un sobrepago: falta por cobrar ${formatMxn(remaining)} y el monto no lo excede.`,
} as const;

export interface CollectionFacts {
  /** The payment's date as the bank reports it. */
  fecha: IsoDate;
  /** Today's business date (Mexico City). */
  today: IsoDate;
  /** The business date the advance was disbursed; null when no disbursement is recorded. */
  disbursedOn: IsoDate | null;
  amount: Centavos;
  /** What remains to collect: the invoice's MXN amount less every earlier payment (never below 0). */
  remaining: Centavos;
  /** The caller says this payment is over what remains: recorded as its own case. */
  sobrepago: boolean;
}

export type CollectionVerdict =
  | { ok: true; overpaid: Centavos }
  | { ok: false; errors: Record<'fecha' | 'amount' | 'sobrepago', string[]> };

/**
 * A payment is dated between the disbursement and today, and takes at most what remains to collect; above it
 * only when the caller says sobrepago (the part above is recorded), never silently.
 * Example: judgeCollection({ amount: 700_000, remaining: 600_000, sobrepago: true, … }) → overpaid 100_000.
 */
export function judgeCollection(facts: CollectionFacts): CollectionVerdict {
  const errors: Record<'fecha' | 'amount' | 'sobrepago', string[]> = { fecha: [], amount: [], sobrepago: [] };
  if (facts.fecha > facts.today) errors.fecha.push(COLLECTION_MESSAGES.fechaAfterToday(facts.today));
  else if (facts.disbursedOn !== null && facts.fecha < facts.disbursedOn)
    errors.fecha.push(COLLECTION_MESSAGES.fechaBeforeDisbursement(facts.disbursedOn));
  const remaining = Math.max(0, facts.remaining);
  const over = facts.amount - remaining;
  if (over > 0 && !facts.sobrepago) errors.amount.push(COLLECTION_MESSAGES.amountAboveRemaining(remaining));
  if (over <= 0 && facts.sobrepago) errors.sobrepago.push(COLLECTION_MESSAGES.notOverpayment(remaining));
  const found = Object.fromEntries(Object.entries(errors).filter(([, list]) => list.length > 0));
  if (Object.keys(found).length > 0) return { ok: false, errors: found as typeof errors };
  return { ok: true, overpaid: Math.max(0, over) };
}
