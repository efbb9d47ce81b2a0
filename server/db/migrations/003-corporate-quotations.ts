// Issue 13 (the corporate quotation flow). Migrations 001-002 stay as written.
export const corporateQuotations: readonly string[] = [
  // The lifecycle machine's context: the buyer absorbs this invoice's advance cost (docs/decisions/0028).
  'ALTER TABLE invoices ADD COLUMN buyer_funds_advance boolean NOT NULL DEFAULT false',
  // The buyer's accepted quotations are looked up by invoice (the provider's quote, 'Pagar a Proveedores').
  'CREATE INDEX quotation_lines_invoice_idx ON quotation_lines (invoice_id)',
];
