import type { IsoDate } from './calendar-date';

// The audit trail export (issue 17, decision 0044): a company's invoice events over a date range as XLSX.

/**
 * The longest range one export covers, in days counted inclusively (from and to both included): a year and a
 * day, so any calendar year fits. NOTE: bounds the work of one request; a longer period is several downloads.
 */
export const MAX_AUDIT_RANGE_DAYS = 366;

/** Spanish messages of the export's query, per field. */
export const AUDIT_RANGE_MESSAGES = {
  fromRequired: 'Indica la fecha inicial.',
  toRequired: 'Indica la fecha final.',
  invalid: 'Debe ser una fecha válida (AAAA-MM-DD).',
  toBeforeFrom: 'La fecha final no puede ser anterior a la inicial.',
  tooLong: `El periodo no puede pasar de ${MAX_AUDIT_RANGE_DAYS} días; descárgalo en partes.`,
} as const;

/** The sheet's columns, in order (one row per event). The operator's export adds the two companies' columns. */
export const AUDIT_TRAIL_COLUMNS = [
  'Folio',
  'UUID',
  'De',
  'A',
  'Actor',
  'Empresa',
  'Motivo',
  'Fecha y hora',
  'Hash',
] as const;

/** Response header of the export: 'true' when the range holds no event (the file has the header row alone). */
export const AUDIT_TRAIL_EMPTY_HEADER = 'x-audit-trail-empty';

/** What the panel says when the range holds no event (nothing is downloaded). */
export function auditTrailEmptyMessage(from: IsoDate, to: IsoDate): string {
  return `No hay cambios de estado de tus facturas entre el ${from} y el ${to}; no se descargó ningún archivo.`;
}

/** 'bitacora-auditoria-2026-01-01-a-2026-03-31.xlsx' */
export function auditTrailFileName(from: IsoDate, to: IsoDate): string {
  return `bitacora-auditoria-${from}-a-${to}.xlsx`;
}
