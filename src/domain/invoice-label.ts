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
