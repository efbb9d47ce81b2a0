// Issue 34, delinquency (decision 0068). A programme's grace days and moratory annual rate, proposed with its
// limit and approved by a different aprobador (programme_limit_proposals); frozen_for says a freeze was for
// late payment ('morosidad': only an aprobador lifts it, once the overdue invoices are collected); the buyer's
// collection log; and operator_actions may name no operator user, for what the day's collections run does on
// its own (its operator_username names the automation). Migrations 001-023 stay as written.
import { DEFAULT_GRACE_DAYS, DEFAULT_MORATORY_RATE, MAX_GRACE_DAYS } from '../../../src/domain/delinquency';

export const delinquency: readonly string[] = [
  `ALTER TABLE credit_programmes ADD COLUMN grace_days integer NOT NULL DEFAULT ${DEFAULT_GRACE_DAYS}
    CHECK (grace_days BETWEEN 0 AND ${MAX_GRACE_DAYS})`,
  `ALTER TABLE credit_programmes ADD COLUMN moratory_rate numeric(7,4) NOT NULL DEFAULT ${DEFAULT_MORATORY_RATE}
    CHECK (moratory_rate >= 0)`,
  `ALTER TABLE credit_programmes ADD COLUMN frozen_for text CHECK (frozen_for IN ('morosidad'))`,
  `ALTER TABLE programme_limit_proposals ADD COLUMN grace_days integer NOT NULL DEFAULT ${DEFAULT_GRACE_DAYS}
    CHECK (grace_days BETWEEN 0 AND ${MAX_GRACE_DAYS})`,
  `ALTER TABLE programme_limit_proposals ADD COLUMN moratory_rate numeric(7,4) NOT NULL
    DEFAULT ${DEFAULT_MORATORY_RATE} CHECK (moratory_rate >= 0)`,
  `CREATE TABLE collection_log (
    id serial PRIMARY KEY,
    corporate_id integer NOT NULL REFERENCES companies (id),
    action text NOT NULL CHECK (action IN ('llamada', 'correo', 'promesa_de_pago')),
    note text NOT NULL DEFAULT '',
    promised_on date,
    recorded_by integer NOT NULL REFERENCES users (id),
    recorded_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((action = 'promesa_de_pago') = (promised_on IS NOT NULL))
  )`,
  'CREATE INDEX collection_log_corporate_idx ON collection_log (corporate_id, id DESC)',
  'ALTER TABLE operator_actions ALTER COLUMN operator_user_id DROP NOT NULL',
];
