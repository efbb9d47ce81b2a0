import { describe, expect, it } from 'vitest';
import { chartAmount, chartMonth } from './chart-format';

describe('chartMonth', () => {
  it('names the month in Spanish, then the year', () => {
    expect(chartMonth('2026-07')).toBe('jul 2026');
    expect(chartMonth('2025-01')).toBe('ene 2025');
    expect(chartMonth('2025-12')).toBe('dic 2025');
  });

  it('leaves anything that is not a month as it is', () => {
    expect(chartMonth('2026-13')).toBe('2026-13');
    expect(chartMonth('julio')).toBe('julio');
  });
});

describe('chartAmount', () => {
  it('writes units, thousands as «mil» and millions as «M»', () => {
    expect(chartAmount(0)).toBe('$0');
    expect(chartAmount(950)).toBe('$950');
    expect(chartAmount(2_500)).toBe('$2.5 mil');
    expect(chartAmount(300_000)).toBe('$300 mil');
    expect(chartAmount(1_200_000)).toBe('$1.2 M');
    expect(chartAmount(25_000_000)).toBe('$25 M');
    expect(chartAmount(1_500_000_000)).toBe('$1,500 M');
  });

  it('carries a rounding up to the next unit', () => {
    expect(chartAmount(999.6)).toBe('$1 mil');
    expect(chartAmount(999_960)).toBe('$1 M');
  });

  it('puts the sign before the dollar sign', () => {
    expect(chartAmount(-35_000)).toBe('-$35 mil');
    expect(chartAmount(-0.2)).toBe('$0');
  });
});
