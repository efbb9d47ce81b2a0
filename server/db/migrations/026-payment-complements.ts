// Issue 34 (decision 0070): the payment complement. When the buyer has paid an advanced invoice, its supplier
// owes SAT a payment CFDI (REP: CFDI 4.0 of type P with the Pagos 2.0 complement) naming the invoice's folio
// fiscal. Flujo keeps each REP it proved (seal, certificate, SAT's status, 69-B list), links it to the invoices
// it names, and reminds the supplier until it arrives: one row per invoice and reminder number, inserted with
// the outbox rows in one transaction, so a reminder goes once across processes.
export const paymentComplements: readonly string[] = [
  `CREATE TABLE payment_complements (
    id serial PRIMARY KEY,
    cfdi_uuid text NOT NULL UNIQUE,
    emitter_company_id integer NOT NULL REFERENCES companies (id),
    receiver_company_id integer NOT NULL REFERENCES companies (id),
    issued_at text NOT NULL,
    stamped_at text NOT NULL,
    file_name text NOT NULL,
    cfdi_xml text NOT NULL,
    cfdi_proof jsonb NOT NULL,
    sat_estado text NOT NULL,
    sat_asked_at timestamptz NOT NULL,
    imported_by text NOT NULL,
    imported_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE payment_complement_links (
    id serial PRIMARY KEY,
    payment_complement_id integer NOT NULL REFERENCES payment_complements (id),
    invoice_id integer NOT NULL REFERENCES invoices (id),
    paid_at text NOT NULL,
    currency text NOT NULL,
    installment integer NOT NULL CHECK (installment > 0),
    previous_balance numeric(24, 6) NOT NULL CHECK (previous_balance >= 0),
    paid numeric(24, 6) NOT NULL CHECK (paid >= 0),
    remaining_balance numeric(24, 6) NOT NULL CHECK (remaining_balance >= 0),
    UNIQUE (payment_complement_id, invoice_id, installment)
  )`,
  'CREATE INDEX payment_complement_links_invoice_idx ON payment_complement_links (invoice_id)',
  `CREATE TABLE rep_reminders (
    invoice_id integer NOT NULL REFERENCES invoices (id),
    reminder_number integer NOT NULL CHECK (reminder_number > 0),
    sent_on date NOT NULL,
    recipients integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (invoice_id, reminder_number)
  )`,
];
