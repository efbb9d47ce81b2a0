import { displayDateTime } from './calendar-date';

// SAT's 69-B list (EFOS, article 69-B of the CFF): where a taxpayer stands on it, and which standing blocks its
// invoices. Read by the importer, the control desk and the operator's views (decision 0057).

/** Where a taxpayer stands on the 69-B list. */
export type EfosSituation = 'Presunto' | 'Desvirtuado' | 'Definitivo' | 'Sentencia Favorable';

export const EFOS_SITUATIONS: readonly EfosSituation[] = [
  'Presunto',
  'Desvirtuado',
  'Definitivo',
  'Sentencia Favorable',
];

/**
 * Presunto (SAT presumes the operations are simulated; the rebuttal window is open) and Definitivo (it was not
 * rebutted) block an issuer's invoices; Desvirtuado (rebutted before SAT) and Sentencia Favorable (won in court)
 * have cleared it.
 */
export const EFOS_BLOCKING_SITUATIONS: readonly EfosSituation[] = ['Presunto', 'Definitivo'];

export function isBlockingSituation(situation: string | null): boolean {
  return situation !== null && (EFOS_BLOCKING_SITUATIONS as readonly string[]).includes(situation);
}

/** '(lista del 20/11/2026)': which list a standing comes from (the date it was imported, Mexico City). */
export function efosListText(listImportedAt: string): string {
  return `lista del ${displayDateTime(listImportedAt).slice(0, 10)}`;
}

/** A company's standing as the operator reads it: 'Presunto (lista del 20/11/2026)', 'No aparece (…)'. */
export function efosStandingText(standing: {
  list_imported_at: string | null;
  situation: string | null;
}): string {
  if (standing.list_imported_at === null) return 'Aún no se ha cargado la lista 69-B del SAT.';
  return `${standing.situation ?? 'No aparece'} (${efosListText(standing.list_imported_at)})`;
}
