import { daysBetween, ISO_DATE_FORMAT, type IsoDate, parseIsoDate, requireIsoDate } from './calendar-date';

/** Spec §5: a payment date may be at most 150 days after the invoice's emission date. */
export const MAX_PAYMENT_DAYS = 150;

/** NOTE: bounds of the bulk-authorization date picker (spec §5). */
export const BULK_DATE_MIN = '1900-01-01';
export const BULK_DATE_MAX = '2099-12-31';

export const PAYMENT_DATE_REQUIRED = 'Requerido';
export const PAYMENT_DATE_INVALID = 'Debe ser una fecha válida';
export const PAYMENT_DATE_TOO_FAR = `Excede ${MAX_PAYMENT_DAYS} días`;
export const PAYMENT_DATE_NOT_AFTER_TODAY = 'La fecha de pago debe ser posterior a hoy.';
/** Shown when an action is blocked because some selected invoices exceed the range (spec §5). */
export const PAYMENT_DATES_OUT_OF_RANGE_MESSAGE = `Algunas fechas de pago exceden el rango permitido de ${MAX_PAYMENT_DAYS} días desde la emisión.`;

export type PaymentDateError =
  | typeof PAYMENT_DATE_REQUIRED
  | typeof PAYMENT_DATE_INVALID
  | typeof PAYMENT_DATE_TOO_FAR;

/**
 * Validates a per-invoice payment date against the invoice's emission date (both 'YYYY-MM-DD').
 * Exactly 150 days after emission is allowed; 151 is 'Excede 150 días'. The spec sets no lower
 * bound, so a date before emission is not rejected here. A null emission date (a line loaded from a bulk
 * upload, whose 150 days the server already checked) is only checked for presence and validity.
 * Example: paymentDateError('2026-01-01', '2026-05-31') === null; (…, '2026-06-01') === 'Excede 150 días'.
 */
export function paymentDateError(
  emissionDate: IsoDate | null,
  paymentDate: string | null | undefined,
): PaymentDateError | null {
  if (paymentDate === null || paymentDate === undefined || paymentDate.trim() === '')
    return PAYMENT_DATE_REQUIRED;
  if (parseIsoDate(paymentDate) === null) return PAYMENT_DATE_INVALID;
  if (emissionDate === null) return null;
  // The emission date comes from our own records, so a bad one is a bug, not user input.
  requireIsoDate(emissionDate, 'emission date');
  return daysBetween(emissionDate, paymentDate) > MAX_PAYMENT_DAYS ? PAYMENT_DATE_TOO_FAR : null;
}

/** Validates the bulk-authorization date: required, real, within the picker bounds. */
export function bulkPaymentDateError(
  paymentDate: string | null | undefined,
): typeof PAYMENT_DATE_REQUIRED | typeof PAYMENT_DATE_INVALID | null {
  if (paymentDate === null || paymentDate === undefined || paymentDate.trim() === '')
    return PAYMENT_DATE_REQUIRED;
  if (parseIsoDate(paymentDate) === null) return PAYMENT_DATE_INVALID;
  return paymentDate < BULK_DATE_MIN || paymentDate > BULK_DATE_MAX ? PAYMENT_DATE_INVALID : null;
}

/** Latest allowed payment date for an emission date: latestPaymentDate('2026-01-01') === '2026-05-31'. */
export function latestPaymentDate(emissionDate: IsoDate): IsoDate {
  return requireIsoDate(emissionDate, 'emission date').add(MAX_PAYMENT_DAYS, 'day').format(ISO_DATE_FORMAT);
}

/**
 * The items whose payment date exceeds 150 days from emission; when non-empty the action is
 * blocked with PAYMENT_DATES_OUT_OF_RANGE_MESSAGE and those dates are cleared (spec §5).
 */
export function exceedingPaymentDates<
  T extends { emissionDate: IsoDate | null; paymentDate: string | null | undefined },
>(items: readonly T[]): T[] {
  return items.filter(
    (item) => paymentDateError(item.emissionDate, item.paymentDate) === PAYMENT_DATE_TOO_FAR,
  );
}

/**
 * A payment date must fall after `today` (Mexico City's business date, given by the caller): an advance is paid
 * ahead of it. Null when it does, else the Spanish refusal. The 150-day bound is paymentDateError's.
 * Example: paymentDateNotAfterToday('2026-03-01', '2026-03-01') === PAYMENT_DATE_NOT_AFTER_TODAY;
 * paymentDateNotAfterToday('2026-03-02', '2026-03-01') === null.
 */
export function paymentDateNotAfterToday(
  paymentDate: string,
  today: IsoDate,
): typeof PAYMENT_DATE_NOT_AFTER_TODAY | null {
  return paymentDate <= today ? PAYMENT_DATE_NOT_AFTER_TODAY : null;
}

/** What the pre-authorization field can say: paymentDateError's texts and the server's 'posterior a hoy'. */
export type PreAuthorizationDateError = PaymentDateError | typeof PAYMENT_DATE_NOT_AFTER_TODAY;

/**
 * The pre-authorization field's whole rule (issue 33: refused at the field, not by the next page's call):
 * paymentDateError's checks, then a date not after `today` (Mexico City's business date) with the very text
 * the server's quotation answers. Example, emission '2026-01-01' and today '2026-03-01':
 * preAuthorizationDateError(…, '2026-02-28', …) === PAYMENT_DATE_NOT_AFTER_TODAY; (…, '2026-03-02', …) === null.
 */
export function preAuthorizationDateError(
  emissionDate: IsoDate | null,
  paymentDate: string | null | undefined,
  today: IsoDate,
): PreAuthorizationDateError | null {
  return paymentDateError(emissionDate, paymentDate) ?? paymentDateNotAfterToday(paymentDate ?? '', today);
}

/** The same refusal naming the invoice, for a call that dates several: '… de la factura A-12 debe ser …'. */
export function paymentDateNotAfterTodayOf(label: string): string {
  return `La fecha de pago de la factura ${label} debe ser posterior a hoy.`;
}
