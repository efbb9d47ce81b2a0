import dayjs from 'dayjs';
import { ISO_DATE_FORMAT, ISO_MONTH_FORMAT, type IsoDate, requireIsoDate } from './calendar-date';
import { type Centavos, sumMoney } from './money';
import type { StatementRole } from './statements';

// Monthly statements (issue 34, decision 0071): by day 10 of each month every supplier and every buyer with
// movements gets the statement of the month before (LIVA art. 1-C: the factor gives the cedente a monthly
// statement of the receivables it took and what it collected). The balances are computed here from the
// movements, never typed: opening = every balance effect before the month, closing = opening + the month's.

/** A statement's month as 'YYYY-MM'. */
export type StatementMonth = string;

const MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The day of the month by which the previous month's statements must exist (the job acts from day 1). */
export const MONTHLY_STATEMENT_DEADLINE_DAY = 10;

export function isStatementMonth(text: string): text is StatementMonth {
  return MONTH_PATTERN.test(text);
}

/** The month before the one `asOf` falls in: previousMonth('2026-12-03') === '2026-11'. */
export function previousMonth(asOf: IsoDate): StatementMonth {
  return requireIsoDate(asOf, 'as-of date').startOf('month').subtract(1, 'month').format(ISO_MONTH_FORMAT);
}

/** First and last calendar day of a month: monthBounds('2026-02') → 2026-02-01 … 2026-02-28. */
export function monthBounds(month: StatementMonth): { first: IsoDate; last: IsoDate } {
  if (!isStatementMonth(month)) throw new Error(`Invalid statement month, expected YYYY-MM: "${month}"`);
  const first = dayjs(`${month}-01`);
  return { first: first.format(ISO_DATE_FORMAT), last: first.endOf('month').format(ISO_DATE_FORMAT) };
}

const MONTH_NAMES = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
] as const;

/** 'noviembre de 2026' for '2026-11'. */
export function monthLabel(month: StatementMonth): string {
  const match = MONTH_PATTERN.exec(month);
  if (!match) throw new Error(`Invalid statement month, expected YYYY-MM: "${month}"`);
  return `${MONTH_NAMES[Number(match[2]) - 1]} de ${match[1]}`;
}

/**
 * What moved, per role (decision 0071):
 * - advance: the invoice's MXN value Flujo advanced. The buyer owes it to Flujo; for the supplier it is a
 *   receivable ceded to Flujo. Raises the balance.
 * - collection: what the buyer paid Flujo on that invoice (collections.amount). Lowers the balance (below zero:
 *   a saldo a favor).
 * - disbursement: what the supplier received on its account (the value less the commissions it pays).
 *   Informative: the balance follows the ceded value.
 * - commission: Flujo's financing and consultancy costs, charged to whoever pays them (the supplier, or the
 *   buyer when it funds the advance), with the CFDI Flujo issued for them. Informative: already netted from the
 *   deposit (supplier) or billed apart (buyer).
 */
export type MonthlyMovementKind = 'advance' | 'disbursement' | 'commission' | 'collection';

export const MONTHLY_MOVEMENT_KINDS: readonly MonthlyMovementKind[] = [
  'advance',
  'disbursement',
  'commission',
  'collection',
];

/** How a movement changes the statement's balance: +1 raises it, −1 lowers it, 0 is informative. */
export const BALANCE_EFFECT: Record<MonthlyMovementKind, 1 | 0 | -1> = {
  advance: 1,
  disbursement: 0,
  commission: 0,
  collection: -1,
};

export const MONTHLY_KIND_LABELS: Record<StatementRole, Record<MonthlyMovementKind, string>> = {
  provider: {
    advance: 'Factura cedida a Flujo',
    disbursement: 'Adelanto depositado',
    commission: 'Comisión de Flujo',
    collection: 'Cobro de factura cedida',
  },
  corporate: {
    advance: 'Pago anticipado a tu proveedor',
    disbursement: 'Depósito al proveedor',
    commission: 'Comisión de Flujo',
    collection: 'Pago recibido',
  },
};

/** What a statement's balance means to its holder. */
export const BALANCE_MEANINGS: Record<StatementRole, string> = {
  provider: 'Saldo de facturas cedidas a Flujo pendientes de cobro al cliente',
  corporate: 'Saldo por pagar a Flujo por facturas adelantadas (negativo: saldo a favor)',
};

/** Said in place of the UUID when Flujo has not issued the commission's CFDI yet. */
export const CFDI_PENDING_TEXT = 'CFDI pendiente';

export const MONTHLY_STATEMENTS_TITLE = 'Estados de cuenta mensuales';

export const MONTHLY_STATEMENT_MESSAGES = {
  notFound: 'No hay estado de cuenta de ese mes para tu empresa.',
} as const;

/** The role's name in file names and the PDF's header. */
export const MONTHLY_ROLE_LABELS: Record<StatementRole, string> = {
  provider: 'Proveedor',
  corporate: 'Comprador',
};

export type MonthlyStatementFormat = 'pdf' | 'xlsx';

/** One downloadable file: a month's statement in one format. */
export interface MonthlyStatementFile {
  month: StatementMonth;
  format: MonthlyStatementFormat;
}

/** 'estado-de-cuenta-2026-11.pdf': the download's name (the role is in the path it came from). */
export function monthlyStatementFileName(month: StatementMonth, format: MonthlyStatementFormat): string {
  return `estado-de-cuenta-${month}.${format}`;
}

/** A movement as the computation needs it: the business day, what it is and its MXN amount (≥ 0). */
export interface BalanceMovement {
  date: IsoDate;
  kind: MonthlyMovementKind;
  amount: Centavos;
}

export interface MonthlyBalances<M extends BalanceMovement> {
  opening: Centavos;
  closing: Centavos;
  /** The month's movements, oldest first (stable for same-day ones). */
  movements: M[];
  /** The balance after each of `movements`. */
  running: Centavos[];
  /** The month's total per kind. */
  totals: Record<MonthlyMovementKind, Centavos>;
}

/**
 * The month's statement from every movement up to its end: the opening balance sums the effects of all
 * movements before the month's first day, the closing adds the month's; movements after the month are ignored.
 */
export function monthlyBalances<M extends BalanceMovement>(
  all: readonly M[],
  month: StatementMonth,
): MonthlyBalances<M> {
  const { first, last } = monthBounds(month);
  const effect = (movement: BalanceMovement) => BALANCE_EFFECT[movement.kind] * movement.amount;
  const opening = sumMoney(all.filter((movement) => movement.date < first).map(effect));
  const movements = all
    .map((movement, index) => ({ movement, index }))
    .filter(({ movement }) => movement.date >= first && movement.date <= last)
    .sort((a, b) =>
      a.movement.date < b.movement.date ? -1 : a.movement.date > b.movement.date ? 1 : a.index - b.index,
    )
    .map(({ movement }) => movement);
  const running: Centavos[] = [];
  let balance = opening;
  for (const movement of movements) {
    balance += effect(movement);
    running.push(balance);
  }
  const totals = Object.fromEntries(
    MONTHLY_MOVEMENT_KINDS.map((kind) => [
      kind,
      sumMoney(movements.filter((movement) => movement.kind === kind).map((movement) => movement.amount)),
    ]),
  ) as Record<MonthlyMovementKind, Centavos>;
  return { opening, closing: balance, movements, running, totals };
}

/** Whether a company gets a statement for the month: something moved, or a balance carries over. */
export function needsStatement(balances: MonthlyBalances<BalanceMovement>): boolean {
  return balances.movements.length > 0 || balances.opening !== 0;
}
