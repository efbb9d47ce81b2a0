// Issue 34 (decision 0071): statements by day 10. Each month a job stores every supplier's and buyer's statement
// of the month before, as PDF and XLSX bytes (kept in the database like the KYB files of migration 009, so a
// backup holds them and no file path can leak), once per company, month and role: the UNIQUE key is what makes
// two processes running the job produce (and e-mail) a statement once. commission_cfdis holds the UUID of the
// CFDI Flujo issues for an advance's commissions; the statement lists it, or says 'CFDI pendiente' without one.
export const monthlyStatements: readonly string[] = [
  `CREATE TABLE monthly_statements (
    id serial PRIMARY KEY,
    company_id integer NOT NULL REFERENCES companies (id),
    month text NOT NULL CHECK (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
    kind text NOT NULL CHECK (kind IN ('provider', 'corporate')),
    opening numeric(18,2) NOT NULL,
    closing numeric(18,2) NOT NULL,
    movements integer NOT NULL CHECK (movements >= 0),
    pdf bytea NOT NULL,
    xlsx bytea NOT NULL,
    generated_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (company_id, month, kind)
  )`,
  `CREATE TABLE commission_cfdis (
    invoice_id integer PRIMARY KEY REFERENCES invoices (id),
    uuid text NOT NULL UNIQUE,
    issued_at timestamptz NOT NULL DEFAULT now()
  )`,
];
