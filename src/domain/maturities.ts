import { onOrNextBusinessDay } from './business-calendar';
import { daysBetween, type IsoDate } from './calendar-date';
import { type Centavos, multiplyRate } from './money';

// After the money leaves (issue 34, decision 0066): when a disbursed advance falls due, how a buyer's payment is
// referenced, how late an invoice is, and the moratory interest it accrues. One home for each rule; the server's
// queries, jobs and screens read them from here.

/**
 * An advance falls due on the payment date the buyer committed (pre-authorization, quotation or the supplier's
 * request); on a day SPEI does not settle it moves to the next business day. An invoice disbursed without a
 * payment date falls due on the day it was disbursed (it is owed at once).
 * Example: dueOn('2026-11-16', '2026-10-01') === '2026-11-17' (16 November 2026 is the Revolution's Monday).
 */
export function dueOn(paymentDate: IsoDate | null, disbursedOn: IsoDate): IsoDate {
  return onOrNextBusinessDay(paymentDate ?? disbursedOn);
}

/**
 * The payment reference of a maturity batch (a buyer's invoices falling due on one day), as the buyer types it in
 * SPEI's 'referencia numérica' (at most 7 digits): the batch's number in 6 digits and a check digit, so a mistyped
 * reference is read as unidentified rather than as another buyer's batch.
 * Example: collectionReference(42) === '0000422'.
 */
export function collectionReference(batchId: number): string {
  if (!Number.isSafeInteger(batchId) || batchId < 1 || batchId > 999_999)
    throw new Error(`maturity batch ${batchId} has no 6-digit reference`);
  const body = String(batchId).padStart(6, '0');
  return `${body}${checkDigit(body)}`;
}

/** The batch a reference names, or null when it is not one of ours (wrong length or check digit). */
export function batchOfReference(reference: string): number | null {
  const text = reference.trim();
  if (!/^\d{7}$/.test(text)) return null;
  const body = text.slice(0, 6);
  if (checkDigit(body) !== text.slice(6)) return null;
  const id = Number(body);
  return id >= 1 ? id : null;
}

/** Luhn's check digit: catches every single mistyped digit and most swaps of two neighbours. */
function checkDigit(digits: string): string {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return String((10 - (sum % 10)) % 10);
}

/** The aging buckets (research §5 item 7), from the due date and what is still outstanding. */
export const AGING_BUCKETS = ['al_corriente', '1_30', '31_60', '61_90', 'mas_de_90'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];

export const AGING_BUCKET_LABELS: Readonly<Record<AgingBucket, string>> = {
  al_corriente: 'Al corriente',
  '1_30': '1–30 días',
  '31_60': '31–60 días',
  '61_90': '61–90 días',
  mas_de_90: 'Más de 90 días',
};

/** Calendar days an invoice is past due on `today` (0 on or before its due date). */
export function daysPastDue(due: IsoDate, today: IsoDate): number {
  return Math.max(0, daysBetween(due, today));
}

/** The bucket of an invoice with something outstanding; a fully collected one is not aged. */
export function agingBucket(due: IsoDate, today: IsoDate): AgingBucket {
  const late = daysPastDue(due, today);
  if (late === 0) return 'al_corriente';
  if (late <= 30) return '1_30';
  if (late <= 60) return '31_60';
  if (late <= 90) return '61_90';
  return 'mas_de_90';
}

/**
 * The day a programme freezes for an invoice still owing: the first day after its due date plus the programme's
 * grace days (calendar days).
 * Example: freezesOn('2026-11-17', 3) === '2026-11-21'.
 */
export function freezesOn(due: IsoDate, graceDays: number): IsoDate {
  const [year, month, day] = due.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day + graceDays + 1));
  return date.toISOString().slice(0, 10);
}

/**
 * Moratory interest on what is outstanding, simple, per day late at the programme's annual rate on a 360-day
 * year (the basis of every rate in Flujo): shown to operators, never charged automatically.
 * Example: moratoryInterest(1_000_000, '36', 10) === 10_000 (10 days of 36 % a year on $10,000.00).
 */
export function moratoryInterest(
  outstanding: Centavos,
  annualRatePercent: string,
  daysLate: number,
): Centavos {
  if (outstanding <= 0 || daysLate <= 0) return 0;
  return multiplyRate(outstanding, annualRatePercent, daysLate);
}
