import type { IsoDate } from './calendar-date';

/** Spec §9: the pre-authorization work (selection and dates) lives 5 minutes after its last change. */
export const PRE_AUTHORIZATION_LIFETIME_MS = 5 * 60_000;

/** A selected invoice and the payment date the buyer gave it (null: none yet; any other text: as typed). */
export interface PreAuthorizedInvoice {
  id: number;
  /** What the row shows ('A-1234'), so the quotation page can name a line before the quote arrives. */
  folio: string;
  /** null for a line a bulk upload loaded: the server checked its 150 days and did not send the emission. */
  emissionDate: IsoDate | null;
  paymentDate: string | null;
}

/** The stored work (spec §4 pre-authorization store): the invoices with their dates and the last change. */
export interface PreAuthorizationWork {
  invoices: PreAuthorizedInvoice[];
  /** Epoch ms of the last change. */
  savedAt: number;
}

/** Milliseconds the work has left at `now` (0 once expired): the machine's timer and the reload share it. */
export function preAuthorizationTimeLeft(savedAt: number, now: number): number {
  return Math.max(0, savedAt + PRE_AUTHORIZATION_LIFETIME_MS - now);
}

/** A line a bulk upload returns: the ZIP's `{invoice_id, payment_date}` or the template's, with its folio fiscal. */
export interface UploadedLine {
  invoice_id: number;
  payment_date: IsoDate;
  fiscal_folio?: string;
}

/**
 * The work a bulk upload (ZIP or template) hands to the quotation (spec §4: the returned invoices and date are
 * stored): each line dated as the server returned it; the folio is the folio fiscal when the answer has one.
 */
export function uploadedWork(lines: readonly UploadedLine[], savedAt: number): PreAuthorizationWork {
  return {
    invoices: lines.map((line) => ({
      id: line.invoice_id,
      folio: line.fiscal_folio ?? '',
      emissionDate: null,
      paymentDate: line.payment_date,
    })),
    savedAt,
  };
}
