import {
  type Centavos,
  formatCurrency,
  isWithinBound,
  moneyTooLargeMessage,
  parseMoney,
} from '../../domain/money';
import { advanceQuote, daysUntil, displayedAnnualRate, RATE_LABEL } from '../../domain/quote';

// What the public calculator shows, worked out only through src/domain/quote.ts (no second formula).

/**
 * Illustrative stored annual rates (IVA included, spec §3 max_rate), shown as 12 % to 20 % + IVA.
 * A supplier's real rate comes from the alliance with its customer.
 */
export const CALCULATOR_RATES = [
  '13.92',
  '15.08',
  '16.24',
  '17.40',
  '18.56',
  '19.72',
  '20.88',
  '22.04',
  '23.20',
] as const;
export const DEFAULT_CALCULATOR_RATE = '17.40';
/** Spec §1: payment dates up to 90 days. */
export const MAX_CALCULATOR_DAYS = 90;
export const MAX_CALCULATOR_AMOUNT = '100000000.00';

export function rateLabel(maxRate: string): string {
  return `${displayedAnnualRate(maxRate)} % ${RATE_LABEL}`;
}

export interface CalculatorFigures {
  invoice: string;
  days: number;
  rate: string;
  costFinancing: string;
  costConsultancy: string;
  total: string;
}

export type CalculatorResult =
  | { ok: true; figures: CalculatorFigures }
  | { ok: false; field: 'amount' | 'days'; message: string };

const AMOUNT_MESSAGE = 'Escribe el monto de la factura en pesos, por ejemplo 150000.00';
/** Issue 33: an amount above the calculator's range is told so, with the range, not the generic text. */
export const AMOUNT_TOO_LARGE_MESSAGE = moneyTooLargeMessage(parseMoney(MAX_CALCULATOR_AMOUNT), 'MXN');

/** The amount as people type it, without its separators and sign: '$150,000.50' → '150000.50'. */
function bareAmount(text: string): string {
  return text.replace(/[\s,$]/g, '');
}

/** Whether the text is an amount, however many digits, above the calculator's range ('$1,000,000,000'). */
export function isAboveCalculatorRange(text: string): boolean {
  const bare = bareAmount(text);
  return /^\d+(\.\d+)?$/.test(bare) && !isWithinBound(bare, parseMoney(MAX_CALCULATOR_AMOUNT));
}
const DAYS_MESSAGE = `Elige un plazo de 1 a ${MAX_CALCULATOR_DAYS} días`;
const DATE_MESSAGE = `Elige una fecha de pago de mañana a ${MAX_CALCULATOR_DAYS} días`;

/** Reads an amount as people type it ('$150,000.50'); null when it is not a positive amount in range. */
export function parseAmountInput(text: string): Centavos | null {
  try {
    const amount = parseMoney(bareAmount(text));
    return amount > 0 && amount <= parseMoney(MAX_CALCULATOR_AMOUNT) ? amount : null;
  } catch {
    return null;
  }
}

export type TermInput = { kind: 'days'; days: string } | { kind: 'date'; paymentDate: string; today: string };

function termDays(term: TermInput): number | null {
  if (term.kind === 'days') return /^\d+$/.test(term.days.trim()) ? Number(term.days.trim()) : null;
  if (!term.paymentDate) return null;
  try {
    return daysUntil(term.paymentDate, term.today);
  } catch {
    return null;
  }
}

export function calculatorResult(input: {
  amount: string;
  maxRate: string;
  term: TermInput;
}): CalculatorResult {
  const invoice = parseAmountInput(input.amount);
  if (invoice === null) {
    const message = isAboveCalculatorRange(input.amount) ? AMOUNT_TOO_LARGE_MESSAGE : AMOUNT_MESSAGE;
    return { ok: false, field: 'amount', message };
  }
  const days = termDays(input.term);
  if (days === null || days < 1 || days > MAX_CALCULATOR_DAYS) {
    return { ok: false, field: 'days', message: input.term.kind === 'days' ? DAYS_MESSAGE : DATE_MESSAGE };
  }
  const quote = advanceQuote({ amount: invoice, maxRate: input.maxRate, days });
  return {
    ok: true,
    figures: {
      invoice: formatCurrency(invoice, 'MXN'),
      days,
      rate: rateLabel(input.maxRate),
      costFinancing: formatCurrency(quote.costFinancing, 'MXN'),
      costConsultancy: formatCurrency(quote.costConsultancy, 'MXN'),
      total: formatCurrency(quote.total, 'MXN'),
    },
  };
}
