// Issue 16, several processes on one database (decision 0041): scheduled jobs claim their run in job_runs,
// and the mail outbox doubles as the delivery queue. Migrations 001-005 stay as written.
export const jobsAndMailQueue: readonly string[] = [
  // One row per periodic job and time slot: the primary key is the claim, so across every process a slot
  // runs once. finished_at stays null while it runs (or if its process died; the lease then expires).
  `CREATE TABLE job_runs (
    job text NOT NULL,
    slot bigint NOT NULL,
    owner text NOT NULL,
    started_at timestamptz NOT NULL,
    lease_until timestamptz NOT NULL,
    finished_at timestamptz,
    error text,
    PRIMARY KEY (job, slot)
  )`,
  'CREATE INDEX job_runs_started_idx ON job_runs (started_at)',
  // Delivery attempts so far; the delivery job raises it as it claims the row.
  'ALTER TABLE mail_outbox ADD COLUMN attempts integer NOT NULL DEFAULT 0',
  // When the delivery job may try (again). Null: not queued (no SMTP configured, sent, or given up).
  'ALTER TABLE mail_outbox ADD COLUMN next_attempt_at timestamptz',
  `CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at, id)
    WHERE sent_at IS NULL AND next_attempt_at IS NOT NULL`,
];
