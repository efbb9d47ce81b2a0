// Issue 34 (decision 0066): after the money leaves. Each disbursed advance gets the business day it falls due
// (src/domain/maturities.ts `dueOn`: the committed payment date moved off weekends and bank holidays), and a
// buyer's invoices falling due on one day form a maturity batch whose number, with a check digit, is the
// reference the buyer pays with. Existing disbursements get their due date here, computed by the same rule.
import { type Kysely, type Migration, sql } from 'kysely';
import { dueOn } from '../../../src/domain/maturities';

const DDL: readonly string[] = [
  'ALTER TABLE disbursements ADD COLUMN due_on date',
  `CREATE TABLE maturity_batches (
    id serial PRIMARY KEY,
    corporate_id integer NOT NULL REFERENCES companies (id),
    due_on date NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (corporate_id, due_on)
  )`,
];

export const maturities: Migration = {
  // biome-ignore lint/suspicious/noExplicitAny: a migration runs before (and regardless of) today's Database type
  async up(db: Kysely<any>) {
    for (const statement of DDL) await sql.raw(statement).execute(db);
    const { rows } = await sql<{ id: number; payment_date: string | null; disbursed_on: string }>`
      select d.id, to_char(i.payment_date, 'YYYY-MM-DD') as payment_date,
        to_char((d.at at time zone 'America/Mexico_City')::date, 'YYYY-MM-DD') as disbursed_on
      from disbursements d join invoices i on i.id = d.invoice_id`.execute(db);
    for (const row of rows)
      await sql`update disbursements set due_on = ${dueOn(row.payment_date, row.disbursed_on)} where id = ${row.id}`.execute(
        db,
      );
    await sql.raw('ALTER TABLE disbursements ALTER COLUMN due_on SET NOT NULL').execute(db);
    await sql.raw('CREATE INDEX disbursements_due_on_idx ON disbursements (due_on)').execute(db);
  },
};
