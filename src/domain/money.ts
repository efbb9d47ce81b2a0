/**
 * The one money module. Amounts are integer centavos so sums never drift; every
 * multiplication by a rate is done on exact fractions (BigInt) and rounded once,
 * half-up, by `roundHalfUp`.
 */

/** An amount in centavos (1/100 of the currency unit); always a safe integer. */
export type Centavos = number;

/** Currencies the app displays; CFDI may carry others, converted to MXN on import. */
export type DisplayCurrency = 'USD' | 'MXN';

/** NOTE: CFDI t_Importe allows up to 6 decimals (SAT cfdv40.xsd); the DB keeps numeric(18,2). */
export const MAX_INPUT_DECIMALS = 6;
export const DAY_COUNT_BASIS = 360;

const CENTAVOS_PER_UNIT = 100n;
const PERCENT = 100n;
const MONEY_TEXT = /^(-?)(\d{1,18})(?:\.(\d{1,6}))?$/;
const DECIMAL_TEXT = /^(-?)(\d+)(?:\.(\d+))?$/;

/** An exact rational number; rates and factors are turned into these before multiplying. */
type Fraction = { numerator: bigint; denominator: bigint };

/**
 * Divides and rounds to the nearest integer, ties away from zero (Java's HALF_UP):
 * 2.5 → 3, 2.4 → 2, −2.5 → −3. The only rounding rule in Flujo.
 */
export function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new Error('roundHalfUp: division by zero');
  const sign = numerator < 0n !== denominator < 0n ? -1n : 1n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  return sign * ((2n * n + d) / (2n * d));
}

/** True for values usable as Centavos. */
export function isCentavos(value: unknown): value is Centavos {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

function assertCentavos(value: number): Centavos {
  if (!Number.isSafeInteger(value)) throw new Error(`Not a safe integer amount of centavos: ${value}`);
  return value;
}

function toCentavos(value: bigint): Centavos {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new Error(`Amount out of range: ${value} centavos`);
  }
  return Number(value);
}

/** Exact fraction of a decimal written as text ('17.4') or a JS number (17.4 → 174/10, not its binary value). */
function toFraction(value: number | string): Fraction {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`Not a finite number: ${value}`);
    // String() gives the shortest decimal that round-trips, i.e. what the author typed.
    text = String(value);
    if (text.includes('e')) {
      if (Math.abs(value) >= 1e21) throw new Error(`Number too large for money math: ${value}`);
      text = value.toFixed(20);
    }
  } else {
    text = value.trim();
  }
  const match = DECIMAL_TEXT.exec(text);
  if (!match) throw new Error(`Not a decimal number: "${value}"`);
  const [, sign = '', whole = '0', fraction = ''] = match;
  return {
    numerator: BigInt(`${sign}${whole}${fraction}`),
    denominator: 10n ** BigInt(fraction.length),
  };
}

/**
 * Parses a decimal amount ('1234.5', '1234.56', '0.005', up to 6 decimals as CFDI allows)
 * into centavos, rounding half-up once. Throws on anything else ('1,234.00', '1e3', '', '.5').
 * Example: parseMoney('0.005') === 1; parseMoney('1234.5') === 123450.
 */
export function parseMoney(text: string): Centavos {
  const match = MONEY_TEXT.exec(text.trim());
  if (!match) throw new Error(`Invalid money amount: "${text}"`);
  const [, sign = '', whole = '0', fraction = ''] = match;
  const micros = BigInt(`${sign}${whole}${fraction.padEnd(MAX_INPUT_DECIMALS, '0')}`);
  return toCentavos(roundHalfUp(micros, 10n ** BigInt(MAX_INPUT_DECIMALS - 2)));
}

/**
 * The largest invoice amount Flujo accepts, 999,999,999,999.99: inside numeric(18,2) and exact centavo
 * math, and far above any real invoice. A CFDI above it is refused at import with a reason, not a crash.
 */
export const MAX_INVOICE_AMOUNT: Centavos = 99_999_999_999_999;

/**
 * The largest amount a request may carry (a programme limit, a collection, a fee, an alliance's cap): the
 * invoice bound, so every amount a caller sends fits numeric(18,2) and exact centavo math with room for sums.
 */
export const MAX_MONEY_INPUT: Centavos = MAX_INVOICE_AMOUNT;

const NON_NEGATIVE_DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * Whether a non-negative decimal text ('1234.5', '0012.30') is at most `max` centavos, exactly and however
 * many digits it has; false for anything else. Example: isWithinBound('100000000.00', 10_000_000_000) === true,
 * isWithinBound('100000000.01', 10_000_000_000) === false.
 */
export function isWithinBound(text: string, max: Centavos): boolean {
  const match = NON_NEGATIVE_DECIMAL.exec(text.trim());
  if (!match) return false;
  const [, digits = '0', fraction = ''] = match;
  const whole = digits.replace(/^0+/, '');
  // A whole part longer than the bound's centavos (leading zeros aside) is above it without parsing it.
  if (whole.length > String(max).length) return false;
  const decimals = Math.max(2, fraction.length);
  const scaled = BigInt(`${whole}${fraction.padEnd(decimals, '0')}`);
  return scaled <= BigInt(assertCentavos(max)) * 10n ** BigInt(decimals - 2);
}

/**
 * Whether a non-negative decimal text is at most MAX_MONEY_INPUT; false for anything else.
 * Example: isWithinMoneyBound('999999999999.99') === true, isWithinMoneyBound('1000000000000') === false.
 */
export function isWithinMoneyBound(text: string): boolean {
  return isWithinBound(text, MAX_MONEY_INPUT);
}

/** parseMoney for untrusted text: null when malformed, negative or above MAX_INVOICE_AMOUNT. */
export function parseInvoiceAmount(text: string): Centavos | null {
  const match = MONEY_TEXT.exec(text.trim());
  if (!match || match[1] === '-') return null;
  const [, , whole = '0', fraction = ''] = match;
  const micros = BigInt(`${whole}${fraction.padEnd(MAX_INPUT_DECIMALS, '0')}`);
  const centavos = roundHalfUp(micros, 10n ** BigInt(MAX_INPUT_DECIMALS - 2));
  return centavos > BigInt(MAX_INVOICE_AMOUNT) ? null : Number(centavos);
}

/** convertToMxn for an untrusted exchange rate: null when the peso amount would exceed MAX_INVOICE_AMOUNT. */
export function convertInvoiceAmountToMxn(amount: Centavos, exchangeRate: string): Centavos | null {
  const rate = toFraction(exchangeRate);
  const mxn = roundHalfUp(BigInt(assertCentavos(amount)) * rate.numerator, rate.denominator);
  return mxn > BigInt(MAX_INVOICE_AMOUNT) ? null : Number(mxn);
}

/** Formats centavos as the API/DB decimal string: 123456 → '1234.56', −5 → '-0.05'. */
export function formatMoneyAmount(amount: Centavos): string {
  assertCentavos(amount);
  const abs = BigInt(Math.abs(amount));
  const cents = (abs % CENTAVOS_PER_UNIT).toString().padStart(2, '0');
  return `${amount < 0 ? '-' : ''}${abs / CENTAVOS_PER_UNIT}.${cents}`;
}

/** Thousands separators in a run of digits: '1234567' → '1,234,567'. */
const THOUSANDS = /\B(?=(\d{3})+(?!\d))/g;

/**
 * Dollar-style display (spec §9): formatCurrency(123456) === '$1,234.56', for USD and MXN alike (the narrow
 * symbol: MXN shows '$', not 'MX$'). Written from the centavos' digits, as en-US's Intl.NumberFormat writes
 * them (money.test.ts holds it to that): creating that formatter loads locale data on first use, a long
 * task in the middle of a list's first render.
 */
export function formatCurrency(amount: Centavos, _currency: DisplayCurrency = 'USD'): string {
  const decimal = formatMoneyAmount(amount);
  const negative = decimal.startsWith('-');
  const [units = '0', cents = '00'] = (negative ? decimal.slice(1) : decimal).split('.');
  return `${negative ? '-' : ''}$${units.replace(THOUSANDS, ',')}.${cents}`;
}

/**
 * The one wording of an amount above a bound, with the bound (and its currency when the field has one):
 * moneyTooLargeMessage(10_000_000_000, 'MXN') === 'El monto no puede ser mayor a $100,000,000.00 MXN.'.
 */
export function moneyTooLargeMessage(max: Centavos, currency?: DisplayCurrency): string {
  return `El monto no puede ser mayor a ${currency ? formatMoney(max, currency) : formatCurrency(max)}.`;
}

/** What a request's money field answers past MAX_MONEY_INPUT (one message for every such field). */
export const MONEY_MESSAGES = {
  tooLarge: moneyTooLargeMessage(MAX_MONEY_INPUT),
} as const;

/**
 * An amount with its currency, as every list, card, drawer, dialog, statement and back-office table writes it
 * (issue 33): formatMoney(609000, 'USD') === '$6,090.00 USD'. The spec's dollar-style figure, then the code: a
 * treasurer must never read a USD invoice as pesos.
 */
export function formatMoney(amount: Centavos, currency: DisplayCurrency): string {
  return `${formatCurrency(amount, currency)} ${currency}`;
}

/** An amount in pesos as the statements and the back office write it: formatMxn(123456) === '$1,234.56 MXN'. */
export function formatMxn(amount: Centavos): string {
  return formatMoney(amount, 'MXN');
}

/**
 * A peso amount converted from another currency says so with its rate:
 * formatConvertedMxn(10228097, '16.7948') === '$102,280.97 MXN al tipo de cambio 16.7948'.
 */
export function formatConvertedMxn(amountMxn: Centavos, exchangeRate: string): string {
  return `${formatMxn(amountMxn)} al tipo de cambio ${exchangeRate}`;
}

/**
 * Multiplies an amount by exact decimal factors and rounds once, half-up.
 * Example: multiplyMoney(10_000_000, '0.01', '1.16') === 116_000 (1% + IVA of 100,000.00).
 */
export function multiplyMoney(amount: Centavos, ...factors: Array<number | string>): Centavos {
  let numerator = BigInt(assertCentavos(amount));
  let denominator = 1n;
  for (const factor of factors) {
    const f = toFraction(factor);
    numerator *= f.numerator;
    denominator *= f.denominator;
  }
  return toCentavos(roundHalfUp(numerator, denominator));
}

/** `ratePercent` % of an amount, rounded half-up: percentOf(10_000_000, 1) === 100_000. */
export function percentOf(amount: Centavos, ratePercent: number | string): Centavos {
  const rate = toFraction(ratePercent);
  return toCentavos(roundHalfUp(BigInt(assertCentavos(amount)) * rate.numerator, rate.denominator * PERCENT));
}

/**
 * Simple interest: amount × ratePercent/100 × days / basis, rounded half-up once.
 * Example: multiplyRate(10_000_000, 17.4, 45) === 217_500 (2,175.00 on 100,000.00).
 */
export function multiplyRate(
  amount: Centavos,
  ratePercent: number | string,
  days: number,
  basis: number = DAY_COUNT_BASIS,
): Centavos {
  if (!Number.isSafeInteger(days)) throw new Error(`Days must be an integer: ${days}`);
  if (!Number.isSafeInteger(basis) || basis <= 0)
    throw new Error(`Day basis must be a positive integer: ${basis}`);
  const rate = toFraction(ratePercent);
  const numerator = BigInt(assertCentavos(amount)) * rate.numerator * BigInt(days);
  return toCentavos(roundHalfUp(numerator, rate.denominator * PERCENT * BigInt(basis)));
}

/**
 * Amount plus simple interest, divided into `parts`, rounded half-up once from the exact value:
 * (amount × ratePercent/100 × days/basis + amount) / parts. With parts = 1 it is the total to repay.
 * Example: withInterestPerPart(100_007, 18.5, 60, 360, 2) === 51_545 (1,030.905491… / 2 = 515.4527… → 515.45).
 */
export function withInterestPerPart(
  amount: Centavos,
  ratePercent: number | string,
  days: number,
  basis: number = DAY_COUNT_BASIS,
  parts = 1,
): Centavos {
  if (!Number.isSafeInteger(days)) throw new Error(`Days must be an integer: ${days}`);
  if (!Number.isSafeInteger(basis) || basis <= 0)
    throw new Error(`Day basis must be a positive integer: ${basis}`);
  if (!Number.isSafeInteger(parts) || parts < 1)
    throw new Error(`Parts must be a positive integer: ${parts}`);
  const rate = toFraction(ratePercent);
  const principal = BigInt(assertCentavos(amount));
  const denominator = rate.denominator * PERCENT * BigInt(basis);
  // amount × (1 + rate/100 × days/basis) as one fraction, so nothing is rounded before the division.
  const numerator = principal * (denominator + rate.numerator * BigInt(days));
  return toCentavos(roundHalfUp(numerator, denominator * BigInt(parts)));
}

/**
 * Converts a foreign-currency amount to MXN with the CFDI TipoCambio (up to 6 decimals), rounding once.
 * Example: convertToMxn(100_000, '17.123456') === 1_712_346.
 */
export function convertToMxn(amount: Centavos, exchangeRate: number | string): Centavos {
  return multiplyMoney(amount, exchangeRate);
}

/**
 * Exact decimal division rounded half-up to `decimals` places, as text.
 * Example: divideDecimal(17.4, '1.16', 2) === '15.00'; divideDecimal(20, '1.16', 2) === '17.24'.
 */
export function divideDecimal(dividend: number | string, divisor: number | string, decimals: number): string {
  if (!Number.isSafeInteger(decimals) || decimals < 0) throw new Error(`Bad decimals: ${decimals}`);
  const a = toFraction(dividend);
  const b = toFraction(divisor);
  if (b.numerator === 0n) throw new Error('divideDecimal: division by zero');
  const scale = 10n ** BigInt(decimals);
  const scaled = roundHalfUp(a.numerator * b.denominator * scale, a.denominator * b.numerator);
  const abs = scaled < 0n ? -scaled : scaled;
  const whole = (abs / scale).toString();
  const fraction = decimals > 0 ? `.${(abs % scale).toString().padStart(decimals, '0')}` : '';
  return `${scaled < 0n ? '-' : ''}${whole}${fraction}`;
}

/**
 * Exact decimal product rounded half-up to `decimals` places, as text.
 * Example: multiplyDecimal('15', '1.16', 4) === '17.4000'; multiplyDecimal('12.35', '1.16', 4) === '14.3260'.
 */
export function multiplyDecimal(a: number | string, b: number | string, decimals: number): string {
  if (!Number.isSafeInteger(decimals) || decimals < 0) throw new Error(`Bad decimals: ${decimals}`);
  const x = toFraction(a);
  const y = toFraction(b);
  const scale = 10n ** BigInt(decimals);
  const scaled = roundHalfUp(x.numerator * y.numerator * scale, x.denominator * y.denominator);
  const abs = scaled < 0n ? -scaled : scaled;
  const fraction = decimals > 0 ? `.${(abs % scale).toString().padStart(decimals, '0')}` : '';
  return `${scaled < 0n ? '-' : ''}${(abs / scale).toString()}${fraction}`;
}

/** Sum of amounts; throws if the result leaves the safe-integer range. */
export function addMoney(...amounts: Centavos[]): Centavos {
  return sumMoney(amounts);
}

/** a − b. */
export function subtractMoney(a: Centavos, b: Centavos): Centavos {
  return toCentavos(BigInt(assertCentavos(a)) - BigInt(assertCentavos(b)));
}

/** Sum of a list of amounts (0 for an empty list). */
export function sumMoney(amounts: readonly Centavos[]): Centavos {
  let total = 0n;
  for (const amount of amounts) total += BigInt(assertCentavos(amount));
  return toCentavos(total);
}

/**
 * Splits a total into `parts` amounts that add up exactly to it: each part is the total / parts
 * rounded half-up, and the last part absorbs the difference (it may be a few centavos more or less).
 * Example: splitMoney(100, 3) → [33, 33, 34]; splitMoney(200, 3) → [67, 67, 66].
 */
export function splitMoney(total: Centavos, parts: number): Centavos[] {
  if (!Number.isSafeInteger(parts) || parts < 1)
    throw new Error(`Parts must be a positive integer: ${parts}`);
  const each = toCentavos(roundHalfUp(BigInt(assertCentavos(total)), BigInt(parts)));
  const amounts = Array.from({ length: parts }, () => each);
  amounts[parts - 1] = subtractMoney(total, each * (parts - 1));
  return amounts;
}
