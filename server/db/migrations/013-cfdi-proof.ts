// Issue 30 (authentic invoices, decision 0056). Migrations 001-012 stay as written.
//
// Every invoice carries its proof: the seal check's result and where the SAT status stands, following the
// cfdi-proof machine (src/machines/cfdi-proof.machine.ts). Invoices imported before this change have no
// verified seal: they start 'unverified' and are not financed until verified again or re-imported.

export const cfdiProof: readonly string[] = [
  `ALTER TABLE invoices ADD COLUMN proof_state text NOT NULL DEFAULT 'unverified'
    CHECK (proof_state IN ('unverified', 'sealChecked', 'pending', 'trusted', 'refused'))`,
  'ALTER TABLE invoices ADD COLUMN cfdi_proof jsonb',
  // Every answer SAT's status service gave (or did not give) for an invoice, newest last.
  `CREATE TABLE cfdi_sat_checks (
    id serial PRIMARY KEY,
    invoice_id integer NOT NULL REFERENCES invoices(id),
    asked_at timestamptz NOT NULL,
    answered boolean NOT NULL,
    estado text,
    codigo_estatus text,
    es_cancelable text,
    estatus_cancelacion text,
    validacion_efos text,
    failure text
  )`,
  'CREATE INDEX cfdi_sat_checks_invoice_idx ON cfdi_sat_checks (invoice_id, id)',
  // A document whose UUID Flujo already holds with other bytes: refused, kept for operators to look at.
  `CREATE TABLE cfdi_conflicts (
    id serial PRIMARY KEY,
    cfdi_uuid text NOT NULL,
    invoice_id integer NOT NULL REFERENCES invoices(id),
    file_name text NOT NULL,
    source text NOT NULL,
    cfdi_xml text NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now()
  )`,
  // SAT's published 69-B list (EFOS): each import replaces the previous one in one transaction.
  `CREATE TABLE efos_lists (
    id serial PRIMARY KEY,
    file_name text NOT NULL,
    entries integer NOT NULL,
    imported_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE efos_entries (
    rfc text PRIMARY KEY,
    list_id integer NOT NULL REFERENCES efos_lists(id),
    name text NOT NULL,
    situation text NOT NULL CHECK (situation IN ('Presunto', 'Desvirtuado', 'Definitivo', 'Sentencia Favorable'))
  )`,
  // The sandbox SAT's own record of cancellations (development and tests; `ops sat:cancel`).
  `CREATE TABLE sandbox_sat_cancellations (
    cfdi_uuid text PRIMARY KEY,
    cancelled_at timestamptz NOT NULL DEFAULT now()
  )`,
];
