// Issue 19 (control desk and SPEI batches, decision 0054). Migrations 001-011 stay as written.
//
// The desk's queue is derived: every invoice En trámite is on the desk, whether or not desk_items has its row,
// so no code path has to remember to enqueue an advance. desk_items keeps only what the desk decided (approved,
// rejected, in a batch, paid, returned by the bank). A rejected row whose invoice is En trámite again (the
// provider asked for the advance once more) reads as queued.

export const controlDesk: readonly string[] = [
  `CREATE TABLE desk_items (
    invoice_id integer PRIMARY KEY REFERENCES invoices(id),
    state text NOT NULL CHECK (state IN ('approved', 'rejected', 'in_batch', 'paid', 'returned')),
    reason text,
    decided_by integer REFERENCES users(id),
    decided_by_username text,
    forced_checks jsonb,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  'CREATE INDEX desk_items_state_idx ON desk_items (state, invoice_id)',
  `CREATE TABLE disbursement_batches (
    id serial PRIMARY KEY,
    created_by integer REFERENCES users(id),
    created_by_username text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  // NOTE: field limits are SPEI's (STP's order as modelled by stpmex; research financier-back-office §3.5):
  // clave de rastreo up to 30, referencia numérica 1-7 digits, beneficiary name and concepto up to 39.
  `CREATE TABLE spei_orders (
    id serial PRIMARY KEY,
    batch_id integer NOT NULL REFERENCES disbursement_batches(id),
    invoice_id integer NOT NULL REFERENCES invoices(id),
    clave_rastreo text NOT NULL UNIQUE CHECK (clave_rastreo ~ '^[A-Za-z0-9-]{1,30}$'),
    referencia_numerica integer NOT NULL CHECK (referencia_numerica BETWEEN 1 AND 9999999),
    beneficiary_name text NOT NULL CHECK (char_length(beneficiary_name) BETWEEN 1 AND 39),
    beneficiary_clabe char(18),
    beneficiary_rfc text NOT NULL CHECK (char_length(beneficiary_rfc) BETWEEN 2 AND 18),
    amount numeric(18,2) NOT NULL CHECK (amount > 0),
    concepto text NOT NULL CHECK (char_length(concepto) BETWEEN 1 AND 39),
    state text NOT NULL DEFAULT 'pendiente' CHECK (state IN ('pendiente', 'liquidada', 'devuelta')),
    return_reason text,
    confirmed_by integer REFERENCES users(id),
    confirmed_at timestamptz
  )`,
  'CREATE INDEX spei_orders_batch_idx ON spei_orders (batch_id, id)',
  // One live order per invoice: a returned order frees the invoice for a new batch, nothing else does.
  "CREATE UNIQUE INDEX spei_orders_live_invoice_idx ON spei_orders (invoice_id) WHERE state <> 'devuelta'",
];
