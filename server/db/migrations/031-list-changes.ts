// Issue 35 (decision 0077): an invoice list's answer kept in each process is served only while the database says
// nothing it was made from has changed. Whatever changes an invoice (and so the kept sums and words its triggers
// maintain) or a company (the balances on a provider's first page) moves `list_version`, from triggers, so no
// code path can forget to. The triggers are deferred to commit and bump once per transaction: the counter's row
// is locked last and only for the commit (no deadlock with the invoices' own rows, no wait while the transaction
// does its work), and its new value becomes visible with the change itself.
//
// The version is the commit's time in microseconds, or one more than the last when the clock has not moved on:
// it only grows, and a database restored from a backup goes back to the backup's own version, which no process
// can have kept an answer for unless that answer was made from the same data.

export const listChanges: readonly string[] = [
  `CREATE TABLE list_version (
    id integer PRIMARY KEY CHECK (id = 1),
    version bigint NOT NULL
  )`,
  'INSERT INTO list_version (id, version) VALUES (1, 0)',
  `CREATE FUNCTION list_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    -- Once per transaction: a bulk import of 10,000 invoices bumps the version once.
    IF current_setting('flujo.list_changed', true) = 'yes' THEN RETURN NULL; END IF;
    PERFORM set_config('flujo.list_changed', 'yes', true);
    UPDATE list_version
      SET version = greatest(version + 1, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint)
      WHERE id = 1;
    RETURN NULL;
  END $$`,
  `CREATE CONSTRAINT TRIGGER invoices_list_change AFTER INSERT OR UPDATE OR DELETE ON invoices
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_changed()`,
  `CREATE CONSTRAINT TRIGGER companies_list_change AFTER UPDATE OR DELETE ON companies
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_changed()`,
  // TRUNCATE fires no row trigger; it locks the whole table anyway, so bumping at once costs no wait.
  `CREATE TRIGGER invoices_list_truncate AFTER TRUNCATE ON invoices
    FOR EACH STATEMENT EXECUTE FUNCTION list_changed()`,
  `CREATE TRIGGER companies_list_truncate AFTER TRUNCATE ON companies
    FOR EACH STATEMENT EXECUTE FUNCTION list_changed()`,
];
