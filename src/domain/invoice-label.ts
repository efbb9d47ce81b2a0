/**
 * How people name an invoice: its Serie-Folio when it has one, else the folio fiscal (UUID).
 * Example: invoiceLabel({ serie: 'A', folio: '12', cfdi_uuid: '…' }) === 'A-12'.
 */
export function invoiceLabel(invoice: {
  serie: string | null;
  folio: string | null;
  cfdi_uuid: string;
}): string {
  if (!invoice.folio) return invoice.cfdi_uuid;
  return invoice.serie ? `${invoice.serie}-${invoice.folio}` : invoice.folio;
}

/** The 404 for an invoice the caller may not see or that does not exist (the two are not told apart). */
export const INVOICE_NOT_FOUND = 'Factura no encontrada.';

/** The 404 naming the invoice asked for, when a call names several: invoiceNotFoundNamed('A-12'). */
export function invoiceNotFoundNamed(reference: string | number): string {
  return `Factura no encontrada: ${reference}.`;
}
