import { displayDate, type IsoDate } from './calendar-date';
import { DELINQUENCY_MESSAGES } from './delinquency';
import { type Centavos, formatMxn } from './money';

// Whether a corporate's credit programme may lend, and the Spanish why not (issue 19, decision 0052): one pure
// rule read by the ledger (which reserves under the programme's lock), the control desk's check and the
// credit-programme machine's expiry.

/** The states a programme row stores (migration 008). */
export type StoredProgrammeState = 'borrador' | 'activo' | 'congelado' | 'vencido';

/**
 * Whether `today` is past the programme's last day (its end date still lends). Example:
 * isPastEnd('2026-06-30', '2026-06-30') === false; isPastEnd('2026-06-30', '2026-07-01') === true.
 */
export function isPastEnd(endsOn: IsoDate | null, today: IsoDate): boolean {
  return endsOn !== null && today > endsOn;
}

/**
 * The state a programme is in on `today`: an active or frozen one past its end date counts as vencido (the
 * stored state catches up when someone writes it).
 */
export function effectiveProgrammeState(
  programme: { state: StoredProgrammeState; endsOn: IsoDate | null },
  today: IsoDate,
): StoredProgrammeState {
  if (
    (programme.state === 'activo' || programme.state === 'congelado') &&
    isPastEnd(programme.endsOn, today)
  ) {
    return 'vencido';
  }
  return programme.state;
}

/** Why the buyer's programme refuses 'Adelantar pago', in the provider's words (409). */
export const PROGRAMME_REFUSALS = {
  none: 'El comprador de esta factura aún no tiene un programa de crédito activo con Flujo; por ahora no podemos adelantar su pago.',
  borrador:
    'El programa de crédito del comprador aún no está aprobado; por ahora no podemos adelantar este pago.',
  congelado: 'El programa de crédito del comprador está congelado; por ahora no podemos adelantar este pago.',
  /** Frozen for late payment by the day's collections run (decision 0068). */
  morosidad: DELINQUENCY_MESSAGES.lendingRefused,
  notStarted: (startsOn: IsoDate) =>
    `El programa de crédito del comprador inicia el ${displayDate(startsOn)}; por ahora no podemos adelantar este pago.`,
  expired: (endsOn: IsoDate) =>
    `El programa de crédito del comprador venció el ${displayDate(endsOn)}; por ahora no podemos adelantar este pago.`,
  noRoom: (available: Centavos, amount: Centavos) =>
    `El programa de crédito del comprador no tiene saldo suficiente para este adelanto: disponible ${formatMxn(available)}, la factura requiere ${formatMxn(amount)}.`,
} as const;

/** A programme as the lending rule reads it. */
export interface LendingProgramme {
  state: StoredProgrammeState;
  startsOn: IsoDate | null;
  endsOn: IsoDate | null;
  /** 'morosidad' when frozen for late payment (migration 024). */
  frozenFor?: 'morosidad' | null;
}

/**
 * Null when the programme may lend on `today` (active, started, not past its end), else the Spanish refusal;
 * a buyer without a programme (null) is refused too. Room for the amount is programmeRoomRefusal's question.
 */
export function programmeLendingRefusal(programme: LendingProgramme | null, today: IsoDate): string | null {
  if (programme === null) return PROGRAMME_REFUSALS.none;
  const state = effectiveProgrammeState(programme, today);
  if (state === 'vencido') return PROGRAMME_REFUSALS.expired(programme.endsOn ?? today);
  if (state === 'borrador') return PROGRAMME_REFUSALS.borrador;
  if (state === 'congelado')
    return programme.frozenFor === 'morosidad' ? PROGRAMME_REFUSALS.morosidad : PROGRAMME_REFUSALS.congelado;
  if (programme.startsOn !== null && today < programme.startsOn) {
    return PROGRAMME_REFUSALS.notStarted(programme.startsOn);
  }
  return null;
}

/** Null when `available` covers `amount`, else the Spanish refusal (what is available shown as at least 0). */
export function programmeRoomRefusal(available: Centavos, amount: Centavos): string | null {
  return amount > available ? PROGRAMME_REFUSALS.noRoom(Math.max(0, available), amount) : null;
}
