// Issue 31 (decision 0058): corporate access follows the onboarding machine. A corporate may be suspended; who
// created it and who activated it are recorded, and they differ (maker-checker, also written where no code path
// can skip it); a promoted provider's existing users stay on the provider side unless invited
// (users.corporate_access: true for every user that exists, false only for those a promotion leaves out).
export const corporateAccess: readonly string[] = [
  'ALTER TABLE companies DROP CONSTRAINT companies_onboarding_state_check',
  `ALTER TABLE companies ADD CONSTRAINT companies_onboarding_state_check
    CHECK (onboarding_state IN ('borrador', 'en_revision', 'activo', 'rechazado', 'suspendido'))`,
  'ALTER TABLE companies ADD COLUMN onboarding_created_by integer REFERENCES users (id)',
  'ALTER TABLE companies ADD COLUMN onboarding_activated_by integer REFERENCES users (id)',
  `ALTER TABLE companies ADD CONSTRAINT companies_onboarding_four_eyes_check
    CHECK (onboarding_activated_by IS NULL OR onboarding_activated_by IS DISTINCT FROM onboarding_created_by)`,
  'ALTER TABLE users ADD COLUMN corporate_access boolean NOT NULL DEFAULT true',
];
