import type { IsoDate } from './calendar-date';
import { InvoiceStatus, type InvoiceStatusCode, PROVIDER_STATUS_LABELS } from './invoice-status';

// The account statement (estado de cuenta, spec §2, §3, §7; docs/decisions/0037-account-statements.md): which
// invoices each role sees, how its movements are named, and the report's limits and texts.

/** The provider's statement: invoices that moved money (advance requested, advanced, factored). */
export const PROVIDER_STATEMENT_STATUSES: readonly InvoiceStatusCode[] = [
  InvoiceStatus.PROCESS,
  InvoiceStatus.PAID,
  InvoiceStatus.FACTORING,
];

/** The corporate's statement: received invoices Flujo advanced (or is advancing) and the buyer repays. */
export const CORPORATE_STATEMENT_STATUSES: readonly InvoiceStatusCode[] = [
  InvoiceStatus.PROCESS,
  InvoiceStatus.PAID,
];

/** Whose statement: the provider's (issued invoices) or the corporate's (received ones). */
export type StatementRole = 'provider' | 'corporate';

/**
 * An invoice's status in the statement, in its reader's words: the provider reads a factored invoice as
 * Factoraje; the buyer reads a paid one as Adelantada (Flujo paid its provider) and one in process as En trámite.
 * Example: statementStatusLabel('corporate', InvoiceStatus.PAID) === 'Adelantada'.
 */
export function statementStatusLabel(role: StatementRole, status: InvoiceStatusCode): string {
  if (role === 'provider') {
    return status === InvoiceStatus.FACTORING ? 'Factoraje' : PROVIDER_STATUS_LABELS[status];
  }
  return status === InvoiceStatus.PAID ? 'Adelantada' : PROVIDER_STATUS_LABELS[status];
}

/** What a movement is; its Spanish name is MOVEMENT_KIND_LABELS'. */
export const MOVEMENT_KINDS = [
  'advance',
  'disbursement',
  'factoring_transfer',
  'advisory_fee',
  'instalment',
] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

export const MOVEMENT_KIND_LABELS: Readonly<Record<MovementKind, string>> = {
  advance: 'Adelanto',
  disbursement: 'Depósito',
  factoring_transfer: 'Transferencia de factoraje',
  advisory_fee: 'Comisión de asesoría',
  instalment: 'Parcialidad',
};

export const MOVEMENT_STATUSES = ['done', 'pending'] as const;
export type MovementStatus = (typeof MOVEMENT_STATUSES)[number];

export const MOVEMENT_STATUS_LABELS: Readonly<Record<MovementStatus, string>> = {
  done: 'Realizado',
  pending: 'Pendiente',
};

/** The concepts a movement row reads (Spanish, one home for the list, the drawer and the report). */
export const MOVEMENT_CONCEPTS = {
  advanceRequested: 'Solicitud de adelanto',
  disbursed: (reference: string) => `Depósito del adelanto (referencia ${reference})`,
  disbursementPending: 'Depósito del adelanto (en trámite)',
  factoringTransfer: 'Transferencia de factoraje',
  advisoryFee: 'Comisión de asesoría (IVA incluido)',
  corporateAdvanced: 'Flujo adelantó el pago a tu proveedor',
  corporateAdvancePending: 'Adelanto a tu proveedor en trámite',
  corporateRepayment: 'Pago a Flujo en la fecha de corte',
} as const;

/** instalmentConcept(2, 3) === 'Parcialidad 2 de 3'. */
export function instalmentConcept(number: number, of: number): string {
  return `Parcialidad ${number} de ${of}`;
}

/**
 * One report holds at most this many invoices: 'Seleccionar todos' over a whole year of a busy provider fits,
 * and the XLSX stays a few MB (measured with `npm run bench:report`).
 */
export const MAX_REPORT_INVOICES = 10_000;

/** How many upcoming payment dates the corporate statement's indicators list. */
export const MAX_CUT_OFF_DATES = 6;

export const STATEMENT_MESSAGES = {
  empty: 'Selecciona al menos una factura.',
  tooMany: `Puedes descargar el reporte de como máximo ${MAX_REPORT_INVOICES.toLocaleString('en-US')} facturas a la vez.`,
  /** Never says which ids exist elsewhere: another company's invoice reads like a missing one. */
  notInStatement: (count: number) =>
    count === 1
      ? 'Una de las facturas elegidas no está en tu estado de cuenta. Actualiza la lista y vuelve a seleccionar.'
      : `${count} de las facturas elegidas no están en tu estado de cuenta. Actualiza la lista y vuelve a seleccionar.`,
} as const;

/** The report's file: statementReportName('2026-11-22') === 'estado-de-cuenta-2026-11-22.xlsx'. */
export function statementReportName(today: IsoDate): string {
  return `estado-de-cuenta-${today}.xlsx`;
}
