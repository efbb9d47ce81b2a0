/** Invoice / request status codes as the API sends them (spec §4). ALL is a filter value only. */
export const InvoiceStatus = {
  PAID: 10,
  REJECTED: 20,
  APPROVED: 30,
  PENDING: 40,
  PROCESS: 50,
  AVAILABLE: 60,
  DISABLED: 70,
  ALL: 80,
  FACTORING: 90,
} as const;

export type InvoiceStatusName = keyof typeof InvoiceStatus;
/** A status an invoice can actually have (ALL excluded). */
export type InvoiceStatusCode = Exclude<(typeof InvoiceStatus)[InvoiceStatusName], typeof InvoiceStatus.ALL>;
/** A value of the status filter: a real status or ALL. */
export type InvoiceStatusFilter = InvoiceStatusCode | typeof InvoiceStatus.ALL;

/** Names of real statuses, in code order. */
export const INVOICE_STATUS_NAMES = [
  'PAID',
  'REJECTED',
  'APPROVED',
  'PENDING',
  'PROCESS',
  'AVAILABLE',
  'DISABLED',
  'FACTORING',
] as const satisfies readonly Exclude<InvoiceStatusName, 'ALL'>[];

export const INVOICE_STATUS_CODES: readonly InvoiceStatusCode[] = INVOICE_STATUS_NAMES.map(
  (n) => InvoiceStatus[n],
);

/** Label shown for the ALL filter option. */
export const ALL_STATUSES_LABEL = 'Todas';

/** Provider-side labels (spec §4): FACTORING reads Pagada too; its meaning (the badge tooltip) says factoring. */
export const PROVIDER_STATUS_LABELS: Readonly<Record<InvoiceStatusCode, string>> = {
  [InvoiceStatus.AVAILABLE]: 'Por Autorizar',
  [InvoiceStatus.PENDING]: 'Solicitado',
  [InvoiceStatus.APPROVED]: 'Autorizada',
  [InvoiceStatus.PROCESS]: 'En trámite',
  [InvoiceStatus.PAID]: 'Pagada',
  [InvoiceStatus.FACTORING]: 'Pagada',
  [InvoiceStatus.DISABLED]: 'Cancelada',
  [InvoiceStatus.REJECTED]: 'Rechazada',
};

/** Provider-side meanings (spec §4), shown as help text. */
export const PROVIDER_STATUS_MEANINGS: Readonly<Record<InvoiceStatusCode, string>> = {
  [InvoiceStatus.AVAILABLE]: 'Esperando la autorización de tu cliente; puedes solicitarle que la autorice.',
  [InvoiceStatus.PENDING]: 'Se solicitó la autorización a tu cliente.',
  [InvoiceStatus.APPROVED]: 'Tu cliente autorizó la factura; ya puedes solicitar el adelanto.',
  [InvoiceStatus.PROCESS]: 'Solicitaste el adelanto de pago; está en trámite.',
  [InvoiceStatus.PAID]: 'La factura fue adelantada por la financiera.',
  [InvoiceStatus.FACTORING]: 'La factura está en factoraje.',
  [InvoiceStatus.DISABLED]: 'La factura fue cancelada ante el SAT.',
  [InvoiceStatus.REJECTED]: 'Tu cliente no autorizó la factura.',
};

/** Buyer-side explanations shown when hovering a status in the corporate summary (spec §2). */
export const CORPORATE_STATUS_MEANINGS: Readonly<Record<InvoiceStatusCode, string>> = {
  [InvoiceStatus.AVAILABLE]: 'Tu proveedor puede solicitarte que autorices esta factura.',
  [InvoiceStatus.PENDING]: 'Tu proveedor solicitó que autorices esta factura para adelantarla.',
  [InvoiceStatus.APPROVED]: 'Autorizaste la factura; tu proveedor puede solicitar el adelanto.',
  [InvoiceStatus.PROCESS]: 'Tu proveedor solicitó el adelanto; está en trámite.',
  [InvoiceStatus.PAID]: 'La factura fue adelantada a tu proveedor; págala en su fecha de pago.',
  [InvoiceStatus.FACTORING]: 'La factura está en factoraje; págala en su fecha de pago.',
  [InvoiceStatus.DISABLED]: 'La factura fue cancelada ante el SAT.',
  [InvoiceStatus.REJECTED]: 'No autorizaste la factura.',
};

export type StatusFilterOption = { value: InvoiceStatusFilter; label: string };

/**
 * Every status a provider's invoice can have, in the order of the spec §4 table:
 * PROVIDER_STATUSES[0] === 60 (AVAILABLE), PROVIDER_STATUSES.at(-1) === 20 (REJECTED).
 * The same eight codes as INVOICE_STATUS_CODES, which is in code order.
 */
export const PROVIDER_STATUSES: readonly InvoiceStatusCode[] = [
  InvoiceStatus.AVAILABLE,
  InvoiceStatus.PENDING,
  InvoiceStatus.APPROVED,
  InvoiceStatus.PROCESS,
  InvoiceStatus.PAID,
  InvoiceStatus.FACTORING,
  InvoiceStatus.DISABLED,
  InvoiceStatus.REJECTED,
];

/** Provider status filter: 'Todas' then every status, in the order of the spec §4 table. */
export const PROVIDER_STATUS_FILTER_OPTIONS: readonly StatusFilterOption[] = [
  { value: InvoiceStatus.ALL, label: ALL_STATUSES_LABEL },
  ...PROVIDER_STATUSES.map((value) => ({
    value,
    // Two options cannot both read 'Pagada': the filter names the factoring one.
    label: value === InvoiceStatus.FACTORING ? 'Pagada (factoraje)' : PROVIDER_STATUS_LABELS[value],
  })),
];

/** Corporate status filter: the provider list without PROCESS and FACTORING (spec §4). */
export const CORPORATE_STATUS_FILTER_OPTIONS: readonly StatusFilterOption[] =
  PROVIDER_STATUS_FILTER_OPTIONS.filter(
    (option) => option.value !== InvoiceStatus.PROCESS && option.value !== InvoiceStatus.FACTORING,
  );

/** True for a real status code (ALL excluded): isInvoiceStatusCode(60) === true, (80) === false. */
export function isInvoiceStatusCode(value: unknown): value is InvoiceStatusCode {
  return typeof value === 'number' && (INVOICE_STATUS_CODES as readonly number[]).includes(value);
}

/** True for a status code or ALL. */
export function isInvoiceStatusFilter(value: unknown): value is InvoiceStatusFilter {
  return value === InvoiceStatus.ALL || isInvoiceStatusCode(value);
}

/** Provider label of a status: providerStatusLabel(60) === 'Por Autorizar'. */
export function providerStatusLabel(code: InvoiceStatusCode): string {
  return PROVIDER_STATUS_LABELS[code];
}

/** An audit-trail step's status: the step that created the invoice has no previous status. */
export const IMPORTED_LABEL = 'Importada';

/**
 * The label of a status as an audit trail shows it (drawer, XLSX export): 'Importada' for none, the code itself
 * for one this version does not know (an old row is shown, never hidden).
 */
export function trailStatusLabel(
  status: number | null,
  labels: Readonly<Record<InvoiceStatusCode, string>> = PROVIDER_STATUS_LABELS,
): string {
  if (status === null) return IMPORTED_LABEL;
  return isInvoiceStatusCode(status) ? labels[status] : String(status);
}

/** Name of a status code: statusName(90) === 'FACTORING'. */
export function statusName(code: InvoiceStatusCode): Exclude<InvoiceStatusName, 'ALL'> {
  const name = INVOICE_STATUS_NAMES.find((n) => InvoiceStatus[n] === code);
  if (name === undefined) throw new Error(`Unknown invoice status code: ${code}`);
  return name;
}

/** Code of a status name, or null: statusFromName('PAID') === 10; statusFromName('ALL') === null. */
export function statusFromName(name: string): InvoiceStatusCode | null {
  const found = INVOICE_STATUS_NAMES.find((n) => n === name);
  return found === undefined ? null : InvoiceStatus[found];
}
