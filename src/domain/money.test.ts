import { describe, expect, it } from 'vitest';
import {
  addMoney,
  convertInvoiceAmountToMxn,
  convertToMxn,
  divideDecimal,
  formatConvertedMxn,
  formatCurrency,
  formatMoney,
  formatMoneyAmount,
  isCentavos,
  isWithinBound,
  isWithinMoneyBound,
  MAX_MONEY_INPUT,
  MONEY_MESSAGES,
  moneyTooLargeMessage,
  multiplyMoney,
  multiplyRate,
  parseInvoiceAmount,
  parseMoney,
  percentOf,
  roundHalfUp,
  splitMoney,
  subtractMoney,
  sumMoney,
  withInterestPerPart,
} from './money';

describe('roundHalfUp', () => {
  it('rounds ties away from zero and everything else to nearest', () => {
    expect(roundHalfUp(5n, 2n)).toBe(3n); // 2.5
    expect(roundHalfUp(49n, 20n)).toBe(2n); // 2.45
    expect(roundHalfUp(-5n, 2n)).toBe(-3n); // -2.5
    expect(roundHalfUp(7n, -2n)).toBe(-4n); // -3.5
    expect(roundHalfUp(0n, 7n)).toBe(0n);
    expect(() => roundHalfUp(1n, 0n)).toThrow();
  });
});

describe('isCentavos', () => {
  it('accepts safe integers only', () => {
    expect(isCentavos(123_456)).toBe(true); // 1,234.56
    expect(isCentavos(0)).toBe(true);
    expect(isCentavos(-5)).toBe(true); // −0.05, a difference
    expect(isCentavos(Number.MAX_SAFE_INTEGER)).toBe(true);
    expect(isCentavos(Number.MAX_SAFE_INTEGER + 1)).toBe(false);
    expect(isCentavos(1234.5)).toBe(false); // pesos with a fraction, not centavos
    expect(isCentavos(Number.NaN)).toBe(false);
    expect(isCentavos(Number.POSITIVE_INFINITY)).toBe(false);
    expect(isCentavos('123456')).toBe(false);
    expect(isCentavos(123_456n)).toBe(false);
    expect(isCentavos(null)).toBe(false);
  });
});

describe('parseMoney', () => {
  it('reads decimal strings into centavos, rounding half-up at the cent', () => {
    expect(parseMoney('1234.5')).toBe(123_450);
    expect(parseMoney('1234.56')).toBe(123_456);
    expect(parseMoney('1234')).toBe(123_400);
    expect(parseMoney('0.005')).toBe(1);
    expect(parseMoney('0.004999')).toBe(0);
    expect(parseMoney('116000.125000')).toBe(11_600_013);
    expect(parseMoney(' 10.10 ')).toBe(1010);
    expect(parseMoney('-0.005')).toBe(-1);
  });

  it('rejects anything that is not a plain decimal with up to 6 decimals', () => {
    for (const bad of ['', ' ', '1,234.00', '1e3', '.5', '5.', '1.1234567', 'abc', '+1', '12 34', 'NaN']) {
      expect(() => parseMoney(bad), bad).toThrow();
    }
  });

  it('rejects amounts beyond safe integers', () => {
    expect(() => parseMoney('999999999999999999')).toThrow();
  });
});

describe('formatMoneyAmount / formatCurrency', () => {
  it('formats for the API and DB', () => {
    expect(formatMoneyAmount(123_456)).toBe('1234.56');
    expect(formatMoneyAmount(5)).toBe('0.05');
    expect(formatMoneyAmount(0)).toBe('0.00');
    expect(formatMoneyAmount(-5)).toBe('-0.05');
    expect(formatMoneyAmount(10_000_000)).toBe('100000.00');
    expect(() => formatMoneyAmount(1.5)).toThrow();
  });

  it('round-trips with parseMoney', () => {
    for (const c of [0, 1, 99, 100, 123_456, 9_007_199_254_740_991]) {
      expect(parseMoney(formatMoneyAmount(c))).toBe(c);
    }
  });

  it('displays dollar-style', () => {
    expect(formatCurrency(123_456)).toBe('$1,234.56');
    expect(formatCurrency(123_456, 'MXN')).toBe('$1,234.56');
    expect(formatCurrency(-5)).toBe('-$0.05');
    expect(formatCurrency(10_000_000_000)).toBe('$100,000,000.00');
    expect(formatMoney(609_000, 'USD')).toBe('$6,090.00 USD');
    expect(formatMoney(-5, 'MXN')).toBe('-$0.05 MXN');
    expect(formatConvertedMxn(10_228_097, '16.7948')).toBe('$102,280.97 MXN al tipo de cambio 16.7948');
  });

  it('writes what en-US Intl.NumberFormat writes with the narrow symbol, in both currencies', () => {
    const amounts = [0, 1, -1, 99, 100, 999_99, 1_000_00, -123_456_78, 9_007_199_254_740_991];
    for (let seed = 1; seed <= 200; seed++) amounts.push(((seed * 2_654_435_761) % 4_294_967_296) * seed);
    for (const currency of ['USD', 'MXN'] as const) {
      const intl = new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency,
        currencyDisplay: 'narrowSymbol',
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      });
      for (const amount of amounts) {
        const exact = BigInt(amount);
        // Intl rounds a double; compare where the double holds the exact decimal (up to 2^53 centavos / 100).
        if (Math.abs(amount) < 2 ** 50)
          expect(formatCurrency(amount, currency)).toBe(intl.format(amount / 100));
        expect(formatCurrency(amount, currency).replace(/[$,]/g, '')).toBe(
          `${exact < 0n ? '-' : ''}${(exact < 0n ? -exact : exact) / 100n}.${((exact < 0n ? -exact : exact) % 100n).toString().padStart(2, '0')}`,
        );
      }
    }
  });
});

describe('rate arithmetic without float drift', () => {
  it('simple interest actual/360: 100,000.00 × 17.4% × 45/360 = 2,175.00', () => {
    expect(multiplyRate(10_000_000, 17.4, 45)).toBe(217_500);
    expect(multiplyRate(10_000_000, '17.40', 45)).toBe(217_500);
  });

  it('rounds once: 123,456.78 × 18.5% × 90/360 = 5,709.876075 → 5,709.88', () => {
    expect(multiplyRate(12_345_678, 18.5, 90)).toBe(570_988);
  });

  it('uses the decimal the author wrote, not its binary float', () => {
    // 0.1 + 0.2 in floats is 0.30000000000000004; 1.005 × 100 in floats is 100.49999…
    expect(multiplyMoney(100, 1.005)).toBe(101); // 100.5 → 101
    expect(percentOf(1_000_000, 1)).toBe(10_000);
    expect(multiplyMoney(10_000_000, '0.01', '1.16')).toBe(116_000);
  });

  it('adds interest and divides before rounding once', () => {
    // (1,000.07 × 18.5% × 60/360 + 1,000.07) / 2 = 515.452745… → 515.45
    expect(withInterestPerPart(100_007, 18.5, 60, 360, 2)).toBe(51_545);
    // total alone: 1,030.905491… → 1,030.91
    expect(withInterestPerPart(100_007, 18.5, 60)).toBe(103_091);
    // 100,000.00 × 17.4% × 45/360 = 2,175.00 → 102,175.00
    expect(withInterestPerPart(10_000_000, '17.4', 45)).toBe(10_217_500);
    expect(() => withInterestPerPart(100, 1, 30, 360, 0)).toThrow();
    expect(() => withInterestPerPart(100, 1, 1.5)).toThrow();
  });

  it('supports a 365 basis', () => {
    expect(multiplyRate(10_000_000, 10, 365, 365)).toBe(1_000_000);
  });

  it('converts foreign currency with the CFDI exchange rate', () => {
    expect(convertToMxn(100_000, '17.123456')).toBe(1_712_346); // 1,000.00 USD → 17,123.456 → 17,123.46
  });

  it('divides decimals exactly', () => {
    expect(divideDecimal(17.4, '1.16', 2)).toBe('15.00');
    expect(divideDecimal(20, '1.16', 2)).toBe('17.24');
    expect(divideDecimal('0.125', 1, 2)).toBe('0.13');
    expect(divideDecimal(-1, 8, 2)).toBe('-0.13');
  });
});

describe('adding, subtracting, splitting', () => {
  it('adds and subtracts', () => {
    expect(addMoney(1, 2, 3)).toBe(6);
    expect(sumMoney([])).toBe(0);
    expect(subtractMoney(10_000_000, 333_500)).toBe(9_666_500);
    expect(() => addMoney(Number.MAX_SAFE_INTEGER, 1)).toThrow();
  });

  it('splits a total so the parts add up exactly, remainder on the last', () => {
    expect(splitMoney(100, 3)).toEqual([33, 33, 34]);
    expect(splitMoney(200, 3)).toEqual([67, 67, 66]);
    expect(splitMoney(12_916_666, 3)).toEqual([4_305_555, 4_305_555, 4_305_556]);
    expect(splitMoney(7, 1)).toEqual([7]);
    expect(() => splitMoney(100, 0)).toThrow();
  });
});

describe('invoice amounts from untrusted CFDI text', () => {
  it('parses up to 999,999,999,999.99 and answers null beyond it, for negatives and for malformed text', () => {
    expect(parseInvoiceAmount('999999999999.99')).toBe(99_999_999_999_999);
    expect(parseInvoiceAmount('11600.005')).toBe(1_160_001);
    expect(parseInvoiceAmount('0.00')).toBe(0);
    expect(parseInvoiceAmount('1000000000000.00')).toBeNull();
    expect(parseInvoiceAmount('999999999999999999')).toBeNull();
    expect(parseInvoiceAmount('-1.00')).toBeNull();
    expect(parseInvoiceAmount('1,000.00')).toBeNull();
  });

  it('converts to pesos at the exchange rate, or null when the pesos exceed the maximum', () => {
    expect(convertInvoiceAmountToMxn(116_000, '17.5000')).toBe(2_030_000);
    expect(convertInvoiceAmountToMxn(90_000_000_000_000, '20.00')).toBeNull();
  });
});

describe('the bound of a request amount', () => {
  it('holds exactly at MAX_MONEY_INPUT, whatever the digits, and refuses anything else', () => {
    expect(MAX_MONEY_INPUT).toBeLessThan(Number.MAX_SAFE_INTEGER);
    expect(isWithinMoneyBound('999999999999.99')).toBe(true);
    expect(isWithinMoneyBound('0000999999999999.99')).toBe(true);
    expect(isWithinMoneyBound('0')).toBe(true);
    expect(isWithinMoneyBound('999999999999.991')).toBe(false);
    expect(isWithinMoneyBound('1000000000000')).toBe(false);
    expect(isWithinMoneyBound('90071992547409.92')).toBe(false);
    expect(isWithinMoneyBound('9'.repeat(5_000))).toBe(false);
    expect(isWithinMoneyBound('-1')).toBe(false);
    expect(isWithinMoneyBound('1e3')).toBe(false);
    expect(MONEY_MESSAGES.tooLarge).toBe('El monto no puede ser mayor a $999,999,999,999.99.');
  });

  it('compares with any bound the same way, and words it once (issue 33)', () => {
    expect(isWithinBound('100000000.00', 10_000_000_000)).toBe(true);
    expect(isWithinBound('100000000.001', 10_000_000_000)).toBe(false);
    expect(isWithinBound('0100000000', 10_000_000_000)).toBe(true);
    expect(isWithinBound('1000000000', 10_000_000_000)).toBe(false);
    expect(moneyTooLargeMessage(10_000_000_000, 'MXN')).toBe(
      'El monto no puede ser mayor a $100,000,000.00 MXN.',
    );
    expect(moneyTooLargeMessage(MAX_MONEY_INPUT)).toBe(MONEY_MESSAGES.tooLarge);
  });
});
