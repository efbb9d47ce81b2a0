// Issue 19 (back office): a corporate buyer's onboarding state and its KYB file (expediente), decision 0051.
//
// companies.onboarding_state defaults to 'activo', so every company that exists (the demo world's corporates,
// the tests' fixtures, and providers, for whom it means nothing) keeps working; only POST
// /api/operator/corporates/ writes 'borrador'. corporate_documents keeps every upload: the current one of each
// kind is the row not replaced (replaced_at null, one per kind by the partial unique index), older ones stay as
// history. The PDF itself is stored in the row (bytea, at most MAX_CORPORATE_DOCUMENT_BYTES), so a PGlite data
// directory or a PostgreSQL backup carries the file with its hash.

const KINDS = [
  'constancia_situacion_fiscal',
  'acta_constitutiva',
  'poderes',
  'identificacion_representante',
  'comprobante_domicilio',
  'estado_cuenta',
  'beneficiario_controlador',
  'contrato_programa',
]
  .map((kind) => `'${kind}'`)
  .join(', ');

export const corporateOnboarding: readonly string[] = [
  `ALTER TABLE companies ADD COLUMN onboarding_state text NOT NULL DEFAULT 'activo'
    CHECK (onboarding_state IN ('borrador', 'en_revision', 'activo', 'rechazado'))`,
  'ALTER TABLE companies ADD COLUMN onboarding_reason text',
  'ALTER TABLE companies ADD COLUMN onboarding_changed_at timestamptz',
  // The operators' list filters corporates by state.
  'CREATE INDEX companies_corporate_onboarding_idx ON companies (onboarding_state, id) WHERE is_corporate',
  `CREATE TABLE corporate_documents (
    id serial PRIMARY KEY,
    corporate_id integer NOT NULL REFERENCES companies(id),
    kind text NOT NULL CHECK (kind IN (${KINDS})),
    file_name text NOT NULL,
    size_bytes integer NOT NULL CHECK (size_bytes > 0),
    sha256 char(64) NOT NULL,
    content bytea NOT NULL,
    clabe char(18),
    status text NOT NULL DEFAULT 'pendiente' CHECK (status IN ('pendiente', 'aprobado', 'rechazado', 'vencido')),
    reason text,
    expires_on date,
    uploaded_by integer NOT NULL REFERENCES users(id),
    uploaded_at timestamptz NOT NULL DEFAULT now(),
    reviewed_by integer REFERENCES users(id),
    reviewed_at timestamptz,
    replaced_at timestamptz,
    CHECK (status <> 'rechazado' OR reason IS NOT NULL),
    CHECK (status <> 'vencido' OR expires_on IS NOT NULL),
    CHECK (kind <> 'estado_cuenta' OR clabe IS NOT NULL)
  )`,
  `CREATE UNIQUE INDEX corporate_documents_current_idx ON corporate_documents (corporate_id, kind)
    WHERE replaced_at IS NULL`,
];
