import { IVA_FACTOR } from './advisory-fee';
import { divideDecimal, multiplyDecimal } from './money';
import { MAX_PAYMENT_DAYS } from './payment-date';

// The price an operator sets on an alliance (corporate × supplier, issue 19, decision 0053): an annual rate
// before IVA on a 360-day year, the days it may finance and an optional cap per invoice.

/** Bounds of the annual rate before IVA, in percent; the top stops a typo (150 for 15.0), not a policy. */
export const ANNUAL_RATE_MIN = '0.01';
export const ANNUAL_RATE_MAX = '60.00';
/** The annual rate is typed with at most two decimals, so its IVA-inclusive rate fits max_rate's 4 exactly. */
export const ANNUAL_RATE_DECIMALS = 2;
/** Decimals of alliances.max_rate (numeric(7,4)). */
export const MAX_RATE_DECIMALS = 4;
/** An alliance finances at most the days a payment date may be after emission (spec §5). */
export const ALLIANCE_MAX_DAYS_MIN = 1;
export const ALLIANCE_MAX_DAYS_MAX = MAX_PAYMENT_DAYS;

/** An alliance is active, or waits for a supplier not yet in Flujo (or not yet SAT-authorized). */
export const ALLIANCE_STATES = ['activa', 'pendiente', 'inactiva'] as const;
export type AllianceState = (typeof ALLIANCE_STATES)[number];
export const ALLIANCE_STATE_LABELS: Record<AllianceState, string> = {
  activa: 'Activa',
  pendiente: 'Pendiente',
  inactiva: 'Inactiva',
};

export const ALLIANCE_MESSAGES = {
  rateRange: `La tasa anual debe estar entre ${ANNUAL_RATE_MIN} y ${ANNUAL_RATE_MAX} %.`,
  rateDecimals: `La tasa anual admite como máximo ${ANNUAL_RATE_DECIMALS} decimales.`,
  rateNumber: 'La tasa anual debe ser un número, por ejemplo 15 o 15.50.',
  daysRange: `Los días máximos deben ser un número entero entre ${ALLIANCE_MAX_DAYS_MIN} y ${ALLIANCE_MAX_DAYS_MAX}.`,
  amount: 'El monto máximo debe ser un importe positivo con hasta dos decimales, por ejemplo 250000.00.',
  corporateRequired: 'Elige un corporativo.',
  corporateUnknown: 'El corporativo no existe.',
  notCorporate: 'La empresa elegida no es un corporativo.',
  sameCompany: 'El proveedor no puede ser el mismo corporativo.',
  notFound: 'La alianza no existe.',
} as const;

const DECIMAL_TEXT = /^\d{1,3}(?:\.(\d+))?$/;

/**
 * Why an annual rate (number or text, percent before IVA) is refused, or null when it is fine.
 * Example: annualRateProblem('15') === null; annualRateProblem(0) === ALLIANCE_MESSAGES.rateRange.
 */
export function annualRateProblem(value: unknown): string | null {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string') return ALLIANCE_MESSAGES.rateNumber;
  const match = DECIMAL_TEXT.exec(text.trim());
  if (!match) return ALLIANCE_MESSAGES.rateNumber;
  if ((match[1]?.length ?? 0) > ANNUAL_RATE_DECIMALS) return ALLIANCE_MESSAGES.rateDecimals;
  // Compared as exact decimals: both sides rounded to the same places by the money module.
  const cents = Number(divideDecimal(text.trim(), 1, ANNUAL_RATE_DECIMALS).replace('.', ''));
  const min = Number(ANNUAL_RATE_MIN.replace('.', ''));
  const max = Number(ANNUAL_RATE_MAX.replace('.', ''));
  return cents < min || cents > max ? ALLIANCE_MESSAGES.rateRange : null;
}

/** The annual rate as stored and shown: two decimals. Example: annualRateText(15) === '15.00'. */
export function annualRateText(value: number | string): string {
  return divideDecimal(value, 1, ANNUAL_RATE_DECIMALS);
}

/**
 * The IVA-inclusive rate quotes read (alliances.max_rate) from the annual rate before IVA, exactly.
 * Example: maxRateFor('15') === '17.4000'; maxRateFor('12.35') === '14.3260'.
 */
export function maxRateFor(annualRate: number | string): string {
  return multiplyDecimal(annualRate, IVA_FACTOR, MAX_RATE_DECIMALS);
}

/** Why a max-days value is refused, or null. */
export function maxDaysProblem(value: unknown): string | null {
  return typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= ALLIANCE_MAX_DAYS_MIN &&
    value <= ALLIANCE_MAX_DAYS_MAX
    ? null
    : ALLIANCE_MESSAGES.daysRange;
}

/**
 * The provider's refusal when the days to the payment date exceed what the alliance finances (decision 0053).
 * Example: beyondMaxDaysMessage(90) → '… hasta 90 días …'.
 */
export function beyondMaxDaysMessage(maxDays: number): string {
  return `Tu alianza con este cliente financia hasta ${maxDays} días antes de la fecha de pago; esta factura los excede. Escríbenos para revisarla.`;
}
