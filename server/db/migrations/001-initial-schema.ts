// The whole schema of the spec in one first migration: later issues fill it, they do not reshape it.
// Money is numeric(18,2); CFDI exchange rates keep SAT's 6 decimals; statuses are the spec's numeric codes.
export const initialSchema: readonly string[] = [
  `CREATE TABLE companies (
    id serial PRIMARY KEY,
    rfc text NOT NULL UNIQUE,
    name text NOT NULL,
    is_corporate boolean NOT NULL DEFAULT false,
    has_factoring boolean NOT NULL DEFAULT false,
    corporate_can_pay_costs boolean NOT NULL DEFAULT false,
    sat_status smallint NOT NULL DEFAULT 20 CHECK (sat_status IN (10, 20, 30, 40)),
    sat_status_changed_at timestamptz,
    sat_ciec_encrypted text,
    disbursement_clabe char(18),
    wallet_clabe char(18),
    credit_payment_clabe char(18),
    credit_line numeric(18,2) NOT NULL DEFAULT 0,
    credit_used numeric(18,2) NOT NULL DEFAULT 0,
    spei_balance numeric(18,2) NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE users (
    id serial PRIMARY KEY,
    username text NOT NULL,
    email text NOT NULL,
    password_hash text NOT NULL,
    first_name text NOT NULL,
    last_name text NOT NULL,
    mobile_phone text NOT NULL DEFAULT '',
    company_id integer REFERENCES companies(id),
    receive_notification boolean NOT NULL DEFAULT false,
    is_active boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  'CREATE UNIQUE INDEX users_username_key ON users (lower(username))',
  'CREATE UNIQUE INDEX users_email_key ON users (lower(email))',
  `CREATE TABLE alliances (
    id serial PRIMARY KEY,
    corporate_id integer NOT NULL REFERENCES companies(id),
    provider_id integer NOT NULL REFERENCES companies(id),
    max_rate numeric(7,4) NOT NULL CHECK (max_rate >= 0),
    is_active boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (corporate_id, provider_id),
    CHECK (corporate_id <> provider_id)
  )`,
  `CREATE TABLE invoices (
    id serial PRIMARY KEY,
    cfdi_uuid text NOT NULL UNIQUE,
    serie text,
    folio text,
    emitter_company_id integer NOT NULL REFERENCES companies(id),
    receiver_company_id integer NOT NULL REFERENCES companies(id),
    emitter_rfc text NOT NULL,
    emitter_name text NOT NULL,
    receiver_rfc text NOT NULL,
    receiver_name text NOT NULL,
    issued_at timestamp NOT NULL,
    date_of_emission date NOT NULL,
    payment_date date,
    subtotal numeric(18,2) NOT NULL,
    amount numeric(18,2) NOT NULL CHECK (amount >= 0),
    currency char(3) NOT NULL,
    exchange_rate numeric(18,6),
    amount_with_exchange_rate numeric(18,2) NOT NULL,
    payment_method char(3),
    description text NOT NULL DEFAULT '',
    status smallint NOT NULL DEFAULT 60 CHECK (status IN (10, 20, 30, 40, 50, 60, 70, 90)),
    factoring_date date,
    factoring_rate numeric(7,4),
    cost_financing numeric(18,2),
    cost_consultancy numeric(18,2),
    sat_cancelled_at timestamptz,
    cfdi_xml text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  // The two list screens filter by company and status and order by newest emission.
  'CREATE INDEX invoices_emitter_list_idx ON invoices (emitter_company_id, status, date_of_emission DESC, id DESC)',
  'CREATE INDEX invoices_receiver_list_idx ON invoices (receiver_company_id, status, date_of_emission DESC, id DESC)',
  `CREATE TABLE invoice_events (
    id serial PRIMARY KEY,
    invoice_id integer NOT NULL REFERENCES invoices(id),
    event text NOT NULL,
    from_status smallint,
    to_status smallint NOT NULL,
    actor_user_id integer REFERENCES users(id),
    actor text NOT NULL,
    reason text,
    at timestamptz NOT NULL DEFAULT now()
  )`,
  'CREATE INDEX invoice_events_invoice_idx ON invoice_events (invoice_id, id)',
  `CREATE TABLE disbursements (
    id serial PRIMARY KEY,
    invoice_id integer NOT NULL UNIQUE REFERENCES invoices(id),
    amount numeric(18,2) NOT NULL,
    reference text NOT NULL,
    at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE quotations (
    id serial PRIMARY KEY,
    corporate_id integer NOT NULL REFERENCES companies(id),
    created_by integer REFERENCES users(id),
    cost_payer text NOT NULL CHECK (cost_payer IN ('provider', 'corporate')),
    status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'accepted', 'pre_approved', 'rejected')),
    rate numeric(7,4),
    total numeric(18,2) NOT NULL DEFAULT 0,
    total_financing numeric(18,2) NOT NULL DEFAULT 0,
    total_consultancy numeric(18,2) NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE quotation_lines (
    id serial PRIMARY KEY,
    quotation_id integer NOT NULL REFERENCES quotations(id) ON DELETE CASCADE,
    invoice_id integer NOT NULL REFERENCES invoices(id),
    payment_date date NOT NULL,
    amount numeric(18,2) NOT NULL,
    cost_financing numeric(18,2) NOT NULL DEFAULT 0,
    cost_consultancy numeric(18,2) NOT NULL DEFAULT 0,
    UNIQUE (quotation_id, invoice_id)
  )`,
  `CREATE TABLE factoring_requests (
    id serial PRIMARY KEY,
    invoice_id integer NOT NULL REFERENCES invoices(id),
    provider_id integer NOT NULL REFERENCES companies(id),
    rate numeric(7,4) NOT NULL,
    installments smallint NOT NULL CHECK (installments BETWEEN 1 AND 4),
    installment_payment numeric(18,2) NOT NULL,
    total_payment numeric(18,2) NOT NULL,
    advisory_fee numeric(18,2) NOT NULL,
    amount_to_transfer numeric(18,2) NOT NULL,
    status text NOT NULL DEFAULT 'requested',
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE factoring_enrolments (
    id serial PRIMARY KEY,
    company_id integer NOT NULL REFERENCES companies(id),
    requested_by integer REFERENCES users(id),
    status text NOT NULL DEFAULT 'requested' CHECK (status IN ('requested', 'enabled', 'declined')),
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE referrals (
    id serial PRIMARY KEY,
    referrer_user_id integer NOT NULL REFERENCES users(id),
    name text NOT NULL,
    company text NOT NULL,
    email text NOT NULL,
    phone text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE demo_requests (
    id serial PRIMARY KEY,
    first_name text NOT NULL,
    last_name text NOT NULL,
    phone text NOT NULL,
    email text NOT NULL,
    company text NOT NULL,
    source text NOT NULL DEFAULT 'solicitar-demo',
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE newsletter_subscriptions (
    id serial PRIMARY KEY,
    email text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  'CREATE UNIQUE INDEX newsletter_subscriptions_email_key ON newsletter_subscriptions (lower(email))',
  `CREATE TABLE password_reset_tokens (
    id serial PRIMARY KEY,
    user_id integer NOT NULL REFERENCES users(id),
    token_hash text NOT NULL UNIQUE,
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE refresh_tokens (
    id text PRIMARY KEY,
    user_id integer NOT NULL REFERENCES users(id),
    family_id text NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    revoked_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  'CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id)',
  `CREATE TABLE idempotency_keys (
    user_id integer NOT NULL REFERENCES users(id),
    key text NOT NULL,
    method text NOT NULL,
    path text NOT NULL,
    request_hash text NOT NULL,
    response_status smallint,
    response_body jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, key)
  )`,
  `CREATE TABLE mail_outbox (
    id serial PRIMARY KEY,
    recipient text NOT NULL,
    subject text NOT NULL,
    body_text text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    sent_at timestamptz,
    error text
  )`,
  // Idempotent demo data: a record per seed so a second start never loads it twice.
  `CREATE TABLE seeds (
    name text PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`,
];
