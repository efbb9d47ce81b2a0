// Issue 19 (the financier's back office), the part every back-office module shares: operators and their
// second factor, the operator audit, credit programmes with their ledger, and the alliance's price fields.
// Modules add their own tables in 009 (corporate onboarding), 010 (programme proposals, collections),
// 011 (operator alliances) and 012 (control desk, SPEI batches).

export const backOfficeFoundation: readonly string[] = [
  // An operator is a user with at least one role; providers and corporates keep an empty list.
  `ALTER TABLE users ADD COLUMN operator_roles text[] NOT NULL DEFAULT '{}'
    CHECK (operator_roles <@ ARRAY['analista','aprobador','tesoreria','auditor']::text[])`,
  // A session proven with the second factor; the flag belongs to the login (family) and rotation keeps it.
  'ALTER TABLE refresh_tokens ADD COLUMN mfa_verified boolean NOT NULL DEFAULT false',
  `CREATE TABLE operator_totp (
    user_id integer PRIMARY KEY REFERENCES users(id),
    secret_encrypted text NOT NULL,
    confirmed_at timestamptz,
    failed_attempts integer NOT NULL DEFAULT 0,
    locked_until timestamptz,
    last_step bigint
  )`,
  `CREATE TABLE operator_recovery_codes (
    id serial PRIMARY KEY,
    user_id integer NOT NULL REFERENCES users(id),
    code_hash text NOT NULL,
    used_at timestamptz
  )`,
  'CREATE INDEX operator_recovery_codes_user_idx ON operator_recovery_codes (user_id)',
  // The password step's proof, waiting for the code: stored as the sha256 of the token handed out.
  `CREATE TABLE mfa_challenges (
    id text PRIMARY KEY,
    user_id integer NOT NULL REFERENCES users(id),
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    attempts integer NOT NULL DEFAULT 0
  )`,
  // One row per /api/operator/ call: who, what, on which route, with what answer and reason.
  `CREATE TABLE operator_actions (
    id bigserial PRIMARY KEY,
    operator_user_id integer NOT NULL REFERENCES users(id),
    operator_username text NOT NULL,
    action text NOT NULL,
    method text NOT NULL,
    route text NOT NULL,
    params jsonb NOT NULL DEFAULT '{}',
    status_code integer NOT NULL,
    reason text,
    at timestamptz NOT NULL DEFAULT now()
  )`,
  'CREATE INDEX operator_actions_at_idx ON operator_actions (at DESC, id DESC)',
  'CREATE INDEX operator_actions_operator_idx ON operator_actions (operator_user_id, at DESC)',
  // One programme per corporate; reserved and used are the ledger's running sums, kept beside the limit so one
  // locked row answers "is there room" and the CHECK refuses any write that would overdraw it.
  `CREATE TABLE credit_programmes (
    id serial PRIMARY KEY,
    corporate_id integer NOT NULL UNIQUE REFERENCES companies(id),
    limit_amount numeric(18,2) NOT NULL DEFAULT 0 CHECK (limit_amount >= 0),
    reserved numeric(18,2) NOT NULL DEFAULT 0,
    used numeric(18,2) NOT NULL DEFAULT 0,
    starts_on date,
    ends_on date,
    state text NOT NULL DEFAULT 'borrador' CHECK (state IN ('borrador','activo','congelado','vencido')),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK (reserved >= 0 AND used >= 0 AND reserved + used <= limit_amount),
    CHECK (ends_on IS NULL OR starts_on IS NULL OR ends_on >= starts_on)
  )`,
  `CREATE TABLE programme_ledger (
    id bigserial PRIMARY KEY,
    programme_id integer NOT NULL REFERENCES credit_programmes(id),
    invoice_id integer NOT NULL REFERENCES invoices(id),
    kind text NOT NULL CHECK (kind IN ('reserve','use','cancel','release')),
    amount numeric(18,2) NOT NULL CHECK (amount > 0),
    reference text,
    actor_user_id integer REFERENCES users(id),
    at timestamptz NOT NULL DEFAULT now()
  )`,
  'CREATE INDEX programme_ledger_programme_idx ON programme_ledger (programme_id, id)',
  'CREATE INDEX programme_ledger_invoice_idx ON programme_ledger (invoice_id)',
  // The operator's price for a corporate × supplier pair: annual rate before IVA (max_rate stays the
  // IVA-inclusive rate the quotes read), the longest term and an optional amount cap.
  'ALTER TABLE alliances ADD COLUMN annual_rate numeric(7,4) CHECK (annual_rate IS NULL OR annual_rate >= 0)',
  'ALTER TABLE alliances ADD COLUMN max_days integer CHECK (max_days IS NULL OR max_days > 0)',
  'ALTER TABLE alliances ADD COLUMN max_amount numeric(18,2) CHECK (max_amount IS NULL OR max_amount > 0)',
  `CREATE TABLE alliance_prices (
    id serial PRIMARY KEY,
    alliance_id integer NOT NULL REFERENCES alliances(id),
    annual_rate numeric(7,4) NOT NULL,
    max_rate numeric(7,4) NOT NULL,
    max_days integer,
    max_amount numeric(18,2),
    effective_from timestamptz NOT NULL DEFAULT now(),
    set_by integer REFERENCES users(id)
  )`,
  'CREATE INDEX alliance_prices_alliance_idx ON alliance_prices (alliance_id, effective_from DESC)',
];
