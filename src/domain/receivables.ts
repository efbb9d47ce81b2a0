import { INVOICE_STATUS_CODES, InvoiceStatus, type InvoiceStatusCode } from './invoice-status';

/**
 * Statuses in which an issued invoice is still owed to the provider: not collected (PAID: advanced by the
 * financier; FACTORING: paid through the factoring line) and not cancelled at SAT (DISABLED, which the spec's
 * help card says disappears). REJECTED stays: the customer declined the advance, not the debt (decision 0038).
 */
export const COLLECTED_OR_CANCELLED: readonly InvoiceStatusCode[] = [
  InvoiceStatus.PAID,
  InvoiceStatus.FACTORING,
  InvoiceStatus.DISABLED,
];

/** The statuses GET providers/accounts-receivable/ lists. */
export const RECEIVABLE_STATUSES: readonly InvoiceStatusCode[] = INVOICE_STATUS_CODES.filter(
  (code) => !COLLECTED_OR_CANCELLED.includes(code),
);
