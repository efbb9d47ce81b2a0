/** Spec §9: factoring is repaid in 1 to 4 monthly instalments. */
export const MIN_FACTORING_INSTALMENTS = 1;
export const MAX_FACTORING_INSTALMENTS = 4;
/** Spec §9: terms 30, 60, 90, 120 days, i.e. 30 days per instalment. */
export const FACTORING_DAYS_PER_INSTALMENT = 30;

/** True for a whole number of instalments in 1..4. */
export function isFactoringInstalments(value: unknown): value is number {
  return (
    typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= MIN_FACTORING_INSTALMENTS &&
    value <= MAX_FACTORING_INSTALMENTS
  );
}

/** Term in days for a number of instalments: 1 → 30 … 4 → 120. Throws outside 1..4. */
export function factoringTermDays(instalments: number): number {
  if (!isFactoringInstalments(instalments)) {
    throw new Error(
      `Instalments must be ${MIN_FACTORING_INSTALMENTS}..${MAX_FACTORING_INSTALMENTS}: ${instalments}`,
    );
  }
  return instalments * FACTORING_DAYS_PER_INSTALMENT;
}

/** Annual percent of a factoring line when `ops factoring:enable` is not given --rate (issue 15). */
export const DEFAULT_FACTORING_RATE = '18.5000';
