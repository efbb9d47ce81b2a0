// Issue 3 (sessions and accounts). Migration 001 stays as written; this one adds what sign-up, throttling and
// the CAPTCHA need (docs/decisions/0008-sessions-and-tokens.md, 0009-captcha.md).
export const sessionsAndAccounts: readonly string[] = [
  // A company created at sign-up has no RFC until its SAT link; several NULLs are allowed by the UNIQUE constraint.
  'ALTER TABLE companies ALTER COLUMN rfc DROP NOT NULL',
  // Sliding-window throttles (login, password reset, sign-up, password change), shared by every API process.
  `CREATE TABLE throttle_hits (
    id bigserial PRIMARY KEY,
    bucket text NOT NULL,
    at timestamptz NOT NULL
  )`,
  'CREATE INDEX throttle_hits_bucket_idx ON throttle_hits (bucket, at)',
  'CREATE INDEX throttle_hits_at_idx ON throttle_hits (at)',
  // ALTCHA solutions already accepted, kept until their challenge expires: a solution is good once.
  `CREATE TABLE captcha_spent (
    id text PRIMARY KEY,
    expires_at timestamptz NOT NULL
  )`,
  'CREATE INDEX captcha_spent_expires_idx ON captcha_spent (expires_at)',
  // Revoking every session of a user (password change or reset) and expiring their reset links.
  'CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id)',
  'CREATE INDEX password_reset_tokens_user_idx ON password_reset_tokens (user_id)',
];
