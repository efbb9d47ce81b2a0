import type { IsoDate } from './calendar-date';
import {
  InvoiceStatus,
  type InvoiceStatusCode,
  type InvoiceStatusFilter,
  PROVIDER_STATUS_FILTER_OPTIONS,
  type StatusFilterOption,
} from './invoice-status';

/**
 * An "advanced" invoice (factura adelantada) is one whose pronto-pago advance the provider confirmed:
 * PROCESS (requested, money about to move) or PAID (disbursed by the financier). FACTORING is the factoring
 * screen's (docs/decisions/0014-advanced-invoices.md).
 */
export const ADVANCED_INVOICE_STATUSES: readonly InvoiceStatusCode[] = [
  InvoiceStatus.PROCESS,
  InvoiceStatus.PAID,
];

/** True for PROCESS and PAID: isAdvancedStatus(50) === true, isAdvancedStatus(90) === false. */
export function isAdvancedStatus(status: number): boolean {
  return (ADVANCED_INVOICE_STATUSES as readonly number[]).includes(status);
}

/** The advanced-invoices page's status filter: 'Todas', 'En trámite' and 'Pagada', with the provider's labels. */
export const ADVANCED_STATUS_FILTER_OPTIONS: readonly StatusFilterOption[] =
  PROVIDER_STATUS_FILTER_OPTIONS.filter(
    (option) => option.value === InvoiceStatus.ALL || isAdvancedStatus(option.value),
  );

/** A status from the URL that this page cannot show (say AVAILABLE) reads as 'Todas'. */
export function advancedStatusFilter(status: InvoiceStatusFilter): InvoiceStatusFilter {
  return isAdvancedStatus(status) ? status : InvoiceStatus.ALL;
}

/** One ZIP holds at most this many invoices (XML + PDF each); the server refuses more with a 400. */
export const MAX_DOWNLOAD_INVOICES = 100;

/** The ZIP's name: advancedInvoicesZipName('2026-11-22') === 'facturas-adelantadas-2026-11-22.zip'. */
export function advancedInvoicesZipName(today: IsoDate): string {
  return `facturas-adelantadas-${today}.zip`;
}
