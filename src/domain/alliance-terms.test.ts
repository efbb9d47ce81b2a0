import { describe, expect, it } from 'vitest';
import {
  ALLIANCE_MESSAGES,
  annualRateProblem,
  annualRateText,
  beyondMaxDaysMessage,
  maxDaysProblem,
  maxRateFor,
} from './alliance-terms';
import { multiplyDecimal } from './money';

describe('alliance terms', () => {
  it('derives the IVA-inclusive rate exactly from the annual rate before IVA', () => {
    expect(maxRateFor('15')).toBe('17.4000');
    expect(maxRateFor(15)).toBe('17.4000');
    expect(maxRateFor('12.35')).toBe('14.3260');
    expect(maxRateFor('0.01')).toBe('0.0116');
    expect(maxRateFor('60.00')).toBe('69.6000');
  });

  it('multiplies decimals exactly, rounding half-up once', () => {
    expect(multiplyDecimal('0.1', '0.2', 2)).toBe('0.02');
    expect(multiplyDecimal('1.005', '1', 2)).toBe('1.01');
    expect(multiplyDecimal('-2.5', '1', 0)).toBe('-3');
  });

  it('accepts rates within the range with at most two decimals', () => {
    expect(annualRateProblem('15')).toBeNull();
    expect(annualRateProblem(15.5)).toBeNull();
    expect(annualRateProblem('0.01')).toBeNull();
    expect(annualRateProblem('60')).toBeNull();
    expect(annualRateProblem('0')).toBe(ALLIANCE_MESSAGES.rateRange);
    expect(annualRateProblem('60.01')).toBe(ALLIANCE_MESSAGES.rateRange);
    expect(annualRateProblem('15.125')).toBe(ALLIANCE_MESSAGES.rateDecimals);
    expect(annualRateProblem('-1')).toBe(ALLIANCE_MESSAGES.rateNumber);
    expect(annualRateProblem('1e2')).toBe(ALLIANCE_MESSAGES.rateNumber);
    expect(annualRateProblem(null)).toBe(ALLIANCE_MESSAGES.rateNumber);
    expect(annualRateText(15)).toBe('15.00');
  });

  it('bounds the days an alliance finances', () => {
    expect(maxDaysProblem(1)).toBeNull();
    expect(maxDaysProblem(150)).toBeNull();
    expect(maxDaysProblem(0)).toBe(ALLIANCE_MESSAGES.daysRange);
    expect(maxDaysProblem(151)).toBe(ALLIANCE_MESSAGES.daysRange);
    expect(maxDaysProblem(30.5)).toBe(ALLIANCE_MESSAGES.daysRange);
    expect(maxDaysProblem('30')).toBe(ALLIANCE_MESSAGES.daysRange);
    expect(beyondMaxDaysMessage(90)).toContain('90 días');
  });
});
