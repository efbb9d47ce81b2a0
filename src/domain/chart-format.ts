// The words on a chart's axes (issue 33, decision 0065): a month as a person says it and an amount short
// enough for an axis, in Spanish. The exact figures stay in the table beside the chart.

/** Spanish month abbreviations, January first (as es-MX writes them, without the period). */
const MONTHS = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sep', 'oct', 'nov', 'dic'] as const;

const MONTH_PATTERN = /^(\d{4})-(\d{2})$/;

/**
 * A 'YYYY-MM' month (as the API sends it, ISO_MONTH_FORMAT) on a chart's axis; any other text is left as is.
 * Example: chartMonth('2026-07') === 'jul 2026'.
 */
export function chartMonth(month: string): string {
  const match = MONTH_PATTERN.exec(month);
  const name = match ? MONTHS[Number(match[2]) - 1] : undefined;
  return match && name ? `${name} ${match[1]}` : month;
}

/** One decimal at most, none when it is zero: 1.25 → '1.3', 300 → '300'. */
function oneDecimal(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1);
}

/**
 * An amount (in units of its currency) as a chart's axis writes it: dollar-style (spec §9) and short, in
 * Spanish words: 'mil' for thousands, 'M' for millions; the sign before the '$'.
 * Examples: chartAmount(950) === '$950'; chartAmount(300_000) === '$300 mil';
 * chartAmount(2_500) === '$2.5 mil'; chartAmount(1_200_000) === '$1.2 M'; chartAmount(-35_000) === '-$35 mil'.
 */
export function chartAmount(value: number): string {
  const abs = Math.abs(value);
  const sign = value < 0 && abs >= 0.5 ? '-' : '';
  if (abs >= 999_950) return `${sign}$${oneDecimal(abs / 1_000_000).replace(/\B(?=(\d{3})+(?!\d))/g, ',')} M`;
  if (abs >= 999.5) return `${sign}$${oneDecimal(abs / 1_000)} mil`;
  return `${sign}$${Math.round(abs)}`;
}
