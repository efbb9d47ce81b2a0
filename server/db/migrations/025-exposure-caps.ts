// Issue 34 (decision 0069): exposure and concentration. A corporate's file names its economic group (the
// buyers one holding controls, whose exposure adds up), and Flujo caps how much it holds on one buyer, one
// group or one supplier: as a percentage of its total exposure or as an amount in MXN. A cap is proposed by one
// operator and takes effect only when a different aprobador approves it (four eyes, a CHECK here as in
// migration 010); the approved cap of a subject replaces the one in force before it.
export const exposureCaps: readonly string[] = [
  'ALTER TABLE companies ADD COLUMN economic_group text',
  'CREATE INDEX companies_economic_group_idx ON companies (economic_group) WHERE economic_group IS NOT NULL',
  `CREATE TABLE concentration_caps (
    id serial PRIMARY KEY,
    scope text NOT NULL CHECK (scope IN ('buyer', 'group', 'supplier')),
    -- buyer and supplier: the company's id; group: the economic group's name as written on the files.
    company_id integer REFERENCES companies (id),
    group_name text,
    kind text NOT NULL CHECK (kind IN ('percent', 'amount')),
    -- percent: 0.01-100.00 of Flujo's total exposure; amount: MXN.
    value numeric(18,2) NOT NULL CHECK (value > 0),
    status text NOT NULL DEFAULT 'propuesto'
      CHECK (status IN ('propuesto', 'vigente', 'rechazado', 'reemplazado')),
    proposed_by integer NOT NULL REFERENCES users (id),
    proposed_at timestamptz NOT NULL DEFAULT now(),
    decided_by integer REFERENCES users (id),
    decided_at timestamptz,
    CHECK ((scope = 'group') = (group_name IS NOT NULL)),
    CHECK ((scope = 'group') = (company_id IS NULL)),
    CHECK (kind <> 'percent' OR value <= 100),
    -- Four eyes, written where no code path can skip it.
    CHECK (decided_by IS NULL OR decided_by <> proposed_by)
  )`,
  // One pending proposal and one cap in force per subject: a second would race the first.
  `CREATE UNIQUE INDEX concentration_caps_pending_idx ON concentration_caps (scope, coalesce(company_id, 0), coalesce(group_name, ''))
    WHERE status = 'propuesto'`,
  `CREATE UNIQUE INDEX concentration_caps_in_force_idx ON concentration_caps (scope, coalesce(company_id, 0), coalesce(group_name, ''))
    WHERE status = 'vigente'`,
];
