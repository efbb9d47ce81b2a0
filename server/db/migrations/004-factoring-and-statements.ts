// Issue 15 (factoring, statements, receivables, referrals). Migrations 001-003 stay as written.
// The provider's revolving factoring line is companies.credit_line / credit_used (already the balance card's
// figures); this migration adds its rate, the instalment schedule, and the rules the database itself keeps.
export const factoringAndStatements: readonly string[] = [
  // Annual percent of the line granted by `ops factoring:enable --rate`; null until the line is granted.
  'ALTER TABLE companies ADD COLUMN factoring_rate numeric(7,4)',
  // One pending enable request per company at a time: a second click finds the first one.
  `CREATE UNIQUE INDEX factoring_enrolments_one_pending
    ON factoring_enrolments (company_id) WHERE status = 'requested'`,
  'CREATE INDEX factoring_enrolments_status_idx ON factoring_enrolments (status, created_at)',
  // The invoice's MXN amount the record holds on the line (what settling its instalments frees).
  'ALTER TABLE factoring_requests ADD COLUMN line_amount numeric(18,2) NOT NULL DEFAULT 0',
  'ALTER TABLE factoring_requests ADD COLUMN created_by integer REFERENCES users(id)',
  // FACTORING is final in the lifecycle machine: an invoice is factored once, whatever races to do it twice.
  'CREATE UNIQUE INDEX factoring_requests_invoice_key ON factoring_requests (invoice_id)',
  'CREATE INDEX factoring_requests_provider_idx ON factoring_requests (provider_id, created_at DESC)',
  `CREATE TABLE factoring_instalments (
    id serial PRIMARY KEY,
    factoring_request_id integer NOT NULL REFERENCES factoring_requests(id),
    number smallint NOT NULL CHECK (number BETWEEN 1 AND 4),
    due_date date NOT NULL,
    amount numeric(18,2) NOT NULL,
    line_release numeric(18,2) NOT NULL,
    paid_at timestamptz,
    UNIQUE (factoring_request_id, number)
  )`,
  // A provider asks Flujo to bring one of its clients into an alliance (POST providers/alliances/).
  `CREATE TABLE alliance_requests (
    id serial PRIMARY KEY,
    provider_id integer NOT NULL REFERENCES companies(id),
    requested_by integer REFERENCES users(id),
    client_rfc text NOT NULL,
    client_name text NOT NULL,
    contact_name text NOT NULL,
    email text NOT NULL,
    phone text NOT NULL,
    status text NOT NULL DEFAULT 'requested' CHECK (status IN ('requested', 'allied', 'declined')),
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  // One open request per provider and client RFC: asking twice does not file it twice.
  `CREATE UNIQUE INDEX alliance_requests_one_open
    ON alliance_requests (provider_id, client_rfc) WHERE status = 'requested'`,
  'CREATE INDEX referrals_created_idx ON referrals (created_at DESC)',
];
