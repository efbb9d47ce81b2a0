// How many invoices a list's search found, and when that number is only a lower bound (decision 0074; a one-word
// search is counted exactly at any size, decision 0075).

/**
 * The most matches of a search a list counts exactly. Past it the count stops there: the list answers
 * `count_is_estimate: true` with `count` equal to this number (there are more), and the sums of the matches
 * (total, total_usd, suppliers_customers) are left out rather than shown for part of them. Counting every match
 * of a word found in tens of thousands of invoices would recheck each one, which is what made such a search slow.
 */
export const EXACT_COUNT_LIMIT = 5_000;

/** A list's count as the counting query left it: capped at limit + 1 matches, so one more means "more than limit". */
export interface CappedCount {
  /** The count to answer: exact, or the limit itself when there are more. */
  count: number;
  /** True when there are more than `count` matches. */
  isEstimate: boolean;
}

/** The answer's count from a count taken up to `limit + 1` rows (the limit is injectable for tests). */
export function cappedCount(countedUpToLimitPlusOne: number, limit: number = EXACT_COUNT_LIMIT): CappedCount {
  return countedUpToLimitPlusOne > limit
    ? { count: limit, isEstimate: true }
    : { count: countedUpToLimitPlusOne, isEstimate: false };
}

/** A list's count as a person reads it: '6,133', or 'más de 5,000' when the count is a lower bound. */
export function invoiceCountText(count: number, isEstimate: boolean): string {
  const figure = count.toLocaleString('en-US');
  return isEstimate ? `más de ${figure}` : figure;
}

/** What a card shows instead of a sum the list left out because the count is a lower bound. */
export const SUM_LEFT_OUT_TEXT = 'Afina la búsqueda para ver el total';
