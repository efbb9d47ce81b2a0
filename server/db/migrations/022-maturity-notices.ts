// Issue 34 (decision 0066): the e-mails that tell a buyer its maturity batch falls due, 5 and 1 business days
// before. A notice is sent once across every Flujo process: the row (batch, kind) is inserted with the mail's
// outbox row in one transaction, and the unique pair makes a second process's insert do nothing.
export const maturityNotices: readonly string[] = [
  `CREATE TABLE maturity_notices (
    id serial PRIMARY KEY,
    batch_id integer NOT NULL REFERENCES maturity_batches (id),
    kind text NOT NULL CHECK (kind IN ('5d', '1d')),
    as_of date NOT NULL,
    outstanding numeric(18, 2) NOT NULL,
    recipients integer NOT NULL,
    sent_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (batch_id, kind)
  )`,
];
