import { describe, expect, it } from 'vitest';
import { cappedCount, EXACT_COUNT_LIMIT, invoiceCountText } from './list-count';

describe('a list count capped at the exact limit (decision 0074)', () => {
  it('is exact up to the limit and a lower bound past it', () => {
    expect(cappedCount(0)).toEqual({ count: 0, isEstimate: false });
    expect(cappedCount(EXACT_COUNT_LIMIT)).toEqual({ count: EXACT_COUNT_LIMIT, isEstimate: false });
    expect(cappedCount(EXACT_COUNT_LIMIT + 1)).toEqual({ count: EXACT_COUNT_LIMIT, isEstimate: true });
    expect(cappedCount(4, 3)).toEqual({ count: 3, isEstimate: true });
  });

  it("reads as the figure, or 'más de 5,000' when it is a lower bound", () => {
    expect(invoiceCountText(6133, false)).toBe('6,133');
    expect(invoiceCountText(EXACT_COUNT_LIMIT, true)).toBe('más de 5,000');
  });
});
