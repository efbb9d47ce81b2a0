// Issue 17 (auditors): invoice_events becomes tamper-evident (decision 0044). Migrations 001-006 stay as written.
//
// Each row carries
// - prev_hash: the hash of the previous row of the same invoice (null for its first row),
// - hash = sha256(prev_hash ‖ canonical content), the per-invoice chain,
// - chain_seq: its place in the global chain (1, 2, 3, … with no gaps, in commit order),
// - chain_hash = sha256(previous row's chain_hash ‖ hash ‖ chain_seq), the global chain,
// and invoice_events_chain_head keeps the last chain_seq and chain_hash, so deleting the newest rows shows.
// A trigger computes all of them for every writer (the lifecycle service, the CFDI import, the seeders' bulk
// INSERT … SELECT); callers never set them. The verifier (server/modules/invoices/audit-chain.repository.ts)
// calls the same two SQL functions, the one home of the canonical form.

/**
 * The canonical content of an event: a JSON array of its fields in a fixed order, the time as UTC with
 * microseconds written by to_char (neither TimeZone nor DateStyle changes it), strings JSON-escaped, nulls as
 * null, so two different rows never give the same text.
 */
const CANONICAL = `json_build_array(
    id, invoice_id, event, from_status, to_status, actor_user_id, actor, reason,
    to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
  )::text`;

export const auditChain: readonly string[] = [
  `CREATE FUNCTION invoice_event_hash(
    prev_hash bytea, id integer, invoice_id integer, event text, from_status smallint, to_status smallint,
    actor_user_id integer, actor text, reason text, at timestamptz
  ) RETURNS bytea LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT sha256(coalesce(prev_hash, ''::bytea) || convert_to(${CANONICAL}, 'UTF8'))
  $$`,
  // prev is 32 bytes (or empty for the first row) and hash 32 bytes: the concatenation is unambiguous.
  `CREATE FUNCTION invoice_event_chain_hash(prev_chain_hash bytea, hash bytea, chain_seq bigint)
    RETURNS bytea LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT sha256(coalesce(prev_chain_hash, ''::bytea) || hash || int8send(chain_seq))
  $$`,
  `CREATE TABLE invoice_events_chain_head (
    id smallint PRIMARY KEY CHECK (id = 1),
    chain_seq bigint NOT NULL,
    chain_hash bytea
  )`,
  'ALTER TABLE invoice_events ADD COLUMN chain_seq bigint',
  'ALTER TABLE invoice_events ADD COLUMN prev_hash bytea',
  'ALTER TABLE invoice_events ADD COLUMN hash bytea',
  'ALTER TABLE invoice_events ADD COLUMN chain_hash bytea',
  // Backfill in id order (the order the rows were written in before the chain existed).
  `DO $$
  DECLARE
    r record;
    seq bigint := 0;
    head bytea := NULL;
    prev bytea;
    h bytea;
  BEGIN
    CREATE TEMP TABLE audit_chain_backfill (invoice_id integer PRIMARY KEY, hash bytea NOT NULL) ON COMMIT DROP;
    FOR r IN SELECT * FROM invoice_events ORDER BY id LOOP
      SELECT b.hash INTO prev FROM audit_chain_backfill b WHERE b.invoice_id = r.invoice_id;
      h := invoice_event_hash(prev, r.id, r.invoice_id, r.event, r.from_status, r.to_status, r.actor_user_id,
        r.actor, r.reason, r.at);
      seq := seq + 1;
      head := invoice_event_chain_hash(head, h, seq);
      UPDATE invoice_events SET chain_seq = seq, prev_hash = prev, hash = h, chain_hash = head WHERE id = r.id;
      INSERT INTO audit_chain_backfill VALUES (r.invoice_id, h)
        ON CONFLICT (invoice_id) DO UPDATE SET hash = excluded.hash;
    END LOOP;
    INSERT INTO invoice_events_chain_head VALUES (1, seq, head);
  END $$`,
  'ALTER TABLE invoice_events ALTER COLUMN chain_seq SET NOT NULL',
  'ALTER TABLE invoice_events ALTER COLUMN hash SET NOT NULL',
  'ALTER TABLE invoice_events ALTER COLUMN chain_hash SET NOT NULL',
  // The trigger's look-up of an invoice's last row.
  'CREATE INDEX invoice_events_invoice_chain_idx ON invoice_events (invoice_id, chain_seq)',
  // The head row is locked (FOR UPDATE) at a transaction's first event and held to commit, which serializes
  // the global chain; the transaction's running head lives in transaction-local settings (rolled back with a
  // savepoint like the rows) and is written to the head row once per statement, not once per row (updating one
  // row thousands of times in one transaction gets slower with each version).
  `CREATE FUNCTION invoice_events_chain_row() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    tx text := pg_current_xact_id()::text;
    -- This transaction's last row: 'transaction id:chain_seq:chain_hash hex:invoice_id:hash hex' (or another
    -- transaction's, which does not count).
    running text[] := string_to_array(current_setting('flujo.audit_chain', true), ':');
    seq bigint;
    head bytea;
  BEGIN
    IF running[1] IS DISTINCT FROM tx THEN
      SELECT h.chain_seq, h.chain_hash INTO seq, head FROM invoice_events_chain_head h WHERE h.id = 1 FOR UPDATE;
      running := NULL;
    ELSE
      seq := running[2]::bigint;
      head := decode(running[3], 'hex');
    END IF;
    -- Under the lock the chain's last row is this invoice's last when it is of the same invoice (a bulk insert
    -- writes an invoice's events one after the other): no look-up then.
    IF running[4] = NEW.invoice_id::text THEN
      NEW.prev_hash := decode(running[5], 'hex');
    ELSE
      NEW.prev_hash := (SELECT e.hash FROM invoice_events e WHERE e.invoice_id = NEW.invoice_id
        ORDER BY e.chain_seq DESC LIMIT 1);
    END IF;
    NEW.chain_seq := seq + 1;
    NEW.hash := invoice_event_hash(NEW.prev_hash, NEW.id, NEW.invoice_id, NEW.event, NEW.from_status,
      NEW.to_status, NEW.actor_user_id, NEW.actor, NEW.reason, NEW.at);
    NEW.chain_hash := invoice_event_chain_hash(head, NEW.hash, NEW.chain_seq);
    PERFORM set_config('flujo.audit_chain', concat_ws(':', tx, NEW.chain_seq, encode(NEW.chain_hash, 'hex'),
      NEW.invoice_id, encode(NEW.hash, 'hex')), true);
    RETURN NEW;
  END
  $$`,
  `CREATE FUNCTION invoice_events_chain_statement() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    running text := current_setting('flujo.audit_chain', true);
  BEGIN
    IF split_part(running, ':', 1) = pg_current_xact_id_if_assigned()::text THEN
      UPDATE invoice_events_chain_head
        SET chain_seq = split_part(running, ':', 2)::bigint, chain_hash = decode(split_part(running, ':', 3), 'hex')
        WHERE id = 1;
    END IF;
    RETURN NULL;
  END
  $$`,
  `CREATE TRIGGER invoice_events_chain_row BEFORE INSERT ON invoice_events
    FOR EACH ROW EXECUTE FUNCTION invoice_events_chain_row()`,
  `CREATE TRIGGER invoice_events_chain_statement AFTER INSERT ON invoice_events
    FOR EACH STATEMENT EXECUTE FUNCTION invoice_events_chain_statement()`,
];
