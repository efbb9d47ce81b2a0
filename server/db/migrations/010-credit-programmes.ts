// Issue 19, credit programmes (decision 0052). Migration 008 made credit_programmes and programme_ledger; this
// one adds what changes a programme: the limit proposals an operator makes and a different aprobador approves
// (four eyes), its state changes with their reasons (freeze, unfreeze), and the corporate's payments
// (collections) that release what an advance used. Migrations 001-009 stay as written.
export const creditProgrammes: readonly string[] = [
  `CREATE TABLE programme_limit_proposals (
    id serial PRIMARY KEY,
    programme_id integer NOT NULL REFERENCES credit_programmes (id),
    proposed_limit numeric(18,2) NOT NULL CHECK (proposed_limit > 0),
    starts_on date NOT NULL,
    ends_on date NOT NULL,
    proposed_by integer NOT NULL REFERENCES users (id),
    status text NOT NULL DEFAULT 'pendiente' CHECK (status IN ('pendiente', 'aprobada', 'rechazada')),
    decided_by integer REFERENCES users (id),
    proposed_at timestamptz NOT NULL DEFAULT now(),
    decided_at timestamptz,
    CHECK (ends_on >= starts_on),
    -- Four eyes, written where no code path can skip it.
    CHECK (decided_by IS NULL OR decided_by <> proposed_by)
  )`,
  // One pending proposal per programme: a second one would race the first's approval.
  `CREATE UNIQUE INDEX programme_limit_proposals_pending_idx ON programme_limit_proposals (programme_id)
    WHERE status = 'pendiente'`,
  'CREATE INDEX programme_limit_proposals_programme_idx ON programme_limit_proposals (programme_id, id)',
  `CREATE TABLE programme_state_changes (
    id serial PRIMARY KEY,
    programme_id integer NOT NULL REFERENCES credit_programmes (id),
    from_state text NOT NULL,
    to_state text NOT NULL,
    reason text,
    actor_user_id integer REFERENCES users (id),
    at timestamptz NOT NULL DEFAULT now()
  )`,
  'CREATE INDEX programme_state_changes_programme_idx ON programme_state_changes (programme_id, id)',
  // The corporate's payment of an advanced invoice, as the bank reports it: its clave de rastreo is unique, so
  // a replayed payment is found, never recorded twice. released is the part that left the programme's used.
  `CREATE TABLE collections (
    id serial PRIMARY KEY,
    invoice_id integer NOT NULL REFERENCES invoices (id),
    programme_id integer REFERENCES credit_programmes (id),
    amount numeric(18,2) NOT NULL CHECK (amount > 0),
    released numeric(18,2) NOT NULL DEFAULT 0 CHECK (released >= 0 AND released <= amount),
    clave_rastreo text NOT NULL UNIQUE,
    fecha date NOT NULL,
    recorded_by integer NOT NULL REFERENCES users (id),
    recorded_at timestamptz NOT NULL DEFAULT now()
  )`,
  'CREATE INDEX collections_invoice_idx ON collections (invoice_id)',
];
