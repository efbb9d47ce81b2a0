import { describe, expect, it } from 'vitest';
import { advisoryFee } from './advisory-fee';

describe('advisoryFee', () => {
  it('is amount × 1% × 1.16, rounded once', () => {
    expect(advisoryFee(10_000_000)).toBe(116_000); // 100,000.00 → 1,160.00
    expect(advisoryFee(12_345_678)).toBe(143_210); // 1,432.098648 → 1,432.10
    expect(advisoryFee(4_310)).toBe(50); // 43.10 → 0.49996 → 0.50
    expect(advisoryFee(1)).toBe(0);
  });

  it('takes another rule', () => {
    expect(advisoryFee(10_000_000, { feePercent: 1.5, ivaPercent: 0 })).toBe(150_000);
    expect(() => advisoryFee(100, { feePercent: -1, ivaPercent: 16 })).toThrow();
  });
});
