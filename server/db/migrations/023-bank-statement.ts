// Issue 34 (decision 0067): collections reconciled from the bank's statement. Every incoming SPEI is kept once
// per clave de rastreo (bank_payments, the lock that makes a file applied once); the part of a payment above
// what its batch owed is the buyer's saldo a favor (buyer_credits: + what was left over, − what an operator
// applied to an invoice); a payment that named nothing waits in unidentified_payments for an operator.
import { type Kysely, type Migration, sql } from 'kysely';

const DDL: readonly string[] = [
  `CREATE TABLE bank_payments (
    id serial PRIMARY KEY,
    clave_rastreo text NOT NULL UNIQUE,
    fecha date NOT NULL,
    amount numeric(18,2) NOT NULL CHECK (amount > 0),
    rfc_ordenante text,
    nombre_ordenante text NOT NULL DEFAULT '',
    referencia text NOT NULL DEFAULT '',
    concepto text NOT NULL DEFAULT '',
    corporate_id integer REFERENCES companies (id),
    kind text CHECK (kind IN ('exacta', 'parcial', 'sobrepago', 'no_identificada')),
    source text NOT NULL CHECK (source IN ('archivo', 'manual')),
    recorded_by integer NOT NULL REFERENCES users (id),
    recorded_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE buyer_credits (
    id serial PRIMARY KEY,
    corporate_id integer NOT NULL REFERENCES companies (id),
    amount numeric(18,2) NOT NULL CHECK (amount <> 0),
    bank_payment_id integer REFERENCES bank_payments (id),
    invoice_id integer REFERENCES invoices (id),
    recorded_by integer NOT NULL REFERENCES users (id),
    recorded_at timestamptz NOT NULL DEFAULT now()
  )`,
  'CREATE INDEX buyer_credits_corporate_idx ON buyer_credits (corporate_id)',
  `CREATE TABLE unidentified_payments (
    id serial PRIMARY KEY,
    bank_payment_id integer NOT NULL UNIQUE REFERENCES bank_payments (id),
    state text NOT NULL DEFAULT 'pendiente' CHECK (state IN ('pendiente', 'propuesta', 'aplicada', 'devuelta')),
    invoice_id integer REFERENCES invoices (id),
    proposed_by integer REFERENCES users (id),
    proposed_at timestamptz,
    decided_by integer REFERENCES users (id),
    decided_at timestamptz,
    reason text
  )`,
  'CREATE INDEX unidentified_payments_state_idx ON unidentified_payments (state, id)',
  // The matching reads a buyer's open invoices and its RFC once per file: no scan per line.
  'CREATE INDEX IF NOT EXISTS companies_rfc_idx ON companies (rfc)',
  'CREATE INDEX IF NOT EXISTS disbursements_invoice_idx ON disbursements (invoice_id)',
  // A collection now holds what the invoice owed and `overpaid` the excess kept as saldo a favor, which may be
  // larger than what the invoice owed (migration 015 capped it at the amount, when the row held both).
  // That check has a generated name (two columns): found by its definition.
  `DO $$
  DECLARE found text;
  BEGIN
    SELECT conname INTO found FROM pg_constraint
      WHERE conrelid = 'collections'::regclass AND contype = 'c'
        AND pg_get_constraintdef(oid) LIKE '%overpaid <= amount%';
    IF found IS NOT NULL THEN
      EXECUTE format('ALTER TABLE collections DROP CONSTRAINT %I', found);
    END IF;
  END $$`,
  'ALTER TABLE collections ADD CONSTRAINT collections_overpaid_check CHECK (overpaid >= 0)',
];

export const bankStatement: Migration = {
  // biome-ignore lint/suspicious/noExplicitAny: a migration runs before (and regardless of) today's Database type
  async up(db: Kysely<any>) {
    for (const statement of DDL) await sql.raw(statement).execute(db);
  },
};
