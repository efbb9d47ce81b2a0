import { displayDate, type IsoDate } from './calendar-date';

// Delinquency (issue 34, decision 0068): a buyer whose advanced invoice is still owing after its due date plus
// the programme's grace days has its programme frozen for 'morosidad'; only an aprobador unfreezes it, and only
// once the overdue invoices are fully collected. Moratory interest is shown, never charged. The words and
// defaults live here once; the server, the desk and the screens import them.

/** The programme_state_changes reason (and programme's frozen_for) of a freeze for late payment. */
export const DELINQUENCY_REASON = 'morosidad';

/** Calendar days after the due date before a programme freezes, when its approved limit did not say. */
export const DEFAULT_GRACE_DAYS = 5;
/** The most grace days a programme may give (a quarter). */
export const MAX_GRACE_DAYS = 90;

/**
 * The moratory annual rate (percent, before IVA) when the approved limit did not say: 1.5 times Flujo's usual
 * 24 % ordinary rate, the convention of Mexican credit contracts for late payment. Shown, never charged.
 */
export const DEFAULT_MORATORY_RATE = '36';
/** A moratory rate above 200 % a year is a typo. */
export const MAX_MORATORY_RATE = 200;
/** Up to three integer digits and four decimals, as numeric(7,4) stores it. */
export const MORATORY_RATE_TEXT = /^\d{1,3}(\.\d{1,4})?$/;

/** The actions an operator records in a buyer's collection log. */
export const COLLECTION_ACTIONS = ['llamada', 'correo', 'promesa_de_pago'] as const;
export type CollectionAction = (typeof COLLECTION_ACTIONS)[number];
export const COLLECTION_ACTION_LABELS: Readonly<Record<CollectionAction, string>> = {
  llamada: 'Llamada',
  correo: 'Correo',
  promesa_de_pago: 'Promesa de pago',
};
export const MAX_COLLECTION_NOTE_LENGTH = 1000;

/** The Spanish words of delinquency (their one home). */
export const DELINQUENCY_MESSAGES = {
  /** What the supplier reads in the quote drawer when the buyer's programme is frozen for late payment. */
  lendingRefused:
    'El comprador tiene pagos vencidos con Flujo y su programa de crédito está congelado por morosidad; por ahora no podemos adelantar este pago.',
  /** The desk's 'Programa de crédito' check of an advance in flight. */
  deskCheck:
    'El programa del comprador está congelado por morosidad (tiene facturas vencidas sin cobrar); el adelanto queda retenido.',
  /** An unfreeze asked while something is still overdue. */
  unfreezeOverdue: (count: number) =>
    `El programa está congelado por morosidad y el comprador aún debe ${count === 1 ? '1 factura vencida' : `${count} facturas vencidas`}: se descongela cuando estén cobradas por completo.`,
  /** The programme screen's banner. */
  frozenBanner: 'Congelado por morosidad: no acepta adelantos hasta que un aprobador lo descongele.',
  gracePositive: `Escribe un número entero de días de 0 a ${MAX_GRACE_DAYS}.`,
  moratoryRateInvalid: `Escribe una tasa anual de 0 a ${MAX_MORATORY_RATE} %, con hasta cuatro decimales.`,
  promisedOnRequired: 'Indica la fecha prometida de pago.',
  promisedOnOnlyForPromise: 'Solo una promesa de pago lleva fecha prometida.',
  futureDate: 'En producción la cobranza del día no corre con una fecha futura; usa hoy o un día pasado.',
  dateInvalid: '--date debe ser una fecha válida AAAA-MM-DD.',
  freezeMailSubject: (corporate: string) => `Programa congelado por morosidad: ${corporate}`,
  freezeMailText: (corporate: string, invoices: number, oldestDue: IsoDate, link: string) =>
    `El programa de crédito de ${corporate} se congeló por morosidad: ${invoices === 1 ? '1 factura adelantada sigue' : `${invoices} facturas adelantadas siguen`} sin cobrar después de su vencimiento y los días de gracia (la más antigua venció el ${displayDate(oldestDue)}).\n\nLos adelantos nuevos contra este comprador se rechazan y la mesa de control retiene los que están en trámite. Solo un aprobador lo descongela, cuando lo vencido esté cobrado:\n${link}\n`,
} as const;

/** Whether a moratory rate text is one Flujo stores (0–MAX_MORATORY_RATE, up to four decimals). */
export function moratoryRateProblem(value: unknown): string | null {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!MORATORY_RATE_TEXT.test(text) || Number(text) > MAX_MORATORY_RATE)
    return DELINQUENCY_MESSAGES.moratoryRateInvalid;
  return null;
}

/** Who writes on a buyer's collection log: every operator role but the auditor, who only reads. */
export const COLLECTION_LOG_ROLES = ['analista', 'aprobador', 'tesoreria'] as const;
