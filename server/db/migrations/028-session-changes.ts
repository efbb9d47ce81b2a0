// Issue 35 (decision 0072): sessions cached in each process, kept true by the database itself. Whatever changes
// what authentication reads of a session (server/modules/auth/session-cache.ts) bumps one counter and says
// what changed on a channel of this schema, from triggers, so no code path (a service, an ops command, a
// hand-written UPDATE) can forget to. The triggers are deferred to commit: the counter's row is locked last
// and only for the commit, so two such transactions never wait on each other's other rows (no deadlock), the
// counter has no gaps and its order is the commit order, which is also the order PostgreSQL delivers the
// notifications in. A process that sees a number skipped has missed a notification.
//
// The payload is '<version> <kind> <key>': kind user (users.id), company (companies.id) or family
// (refresh_tokens.family_id).
export const SESSION_CHANGES_CHANNEL_PREFIX = 'flujo_session_';

export const sessionChanges: readonly string[] = [
  `CREATE TABLE session_version (
    id integer PRIMARY KEY CHECK (id = 1),
    version bigint NOT NULL
  )`,
  'INSERT INTO session_version (id, version) VALUES (1, 0)',
  `CREATE FUNCTION session_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    changed_version bigint;
    changed_key text;
    changed_row record;
  BEGIN
    IF TG_OP = 'DELETE' THEN changed_row := OLD; ELSE changed_row := NEW; END IF;
    IF TG_TABLE_NAME = 'refresh_tokens' THEN
      changed_key := changed_row.family_id;
    ELSE
      changed_key := changed_row.id::text;
    END IF;
    UPDATE session_version SET version = version + 1 WHERE id = 1 RETURNING version INTO changed_version;
    PERFORM pg_notify('${SESSION_CHANGES_CHANNEL_PREFIX}' || current_schema(),
      changed_version || ' ' || TG_ARGV[0] || ' ' || changed_key);
    RETURN NULL;
  END $$`,
  // users: every column authentication reads (session-users.ts), and deletion.
  `CREATE CONSTRAINT TRIGGER users_session_update AFTER UPDATE ON users
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (OLD.is_active IS DISTINCT FROM NEW.is_active
      OR OLD.username IS DISTINCT FROM NEW.username
      OR OLD.email IS DISTINCT FROM NEW.email
      OR OLD.company_id IS DISTINCT FROM NEW.company_id
      OR OLD.operator_roles IS DISTINCT FROM NEW.operator_roles
      OR OLD.corporate_access IS DISTINCT FROM NEW.corporate_access
      OR OLD.password_hash IS DISTINCT FROM NEW.password_hash)
    EXECUTE FUNCTION session_changed('user')`,
  `CREATE CONSTRAINT TRIGGER users_session_delete AFTER DELETE ON users
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION session_changed('user')`,
  // companies: the flags of the session (a company's totals and other columns change often and do not count).
  `CREATE CONSTRAINT TRIGGER companies_session_update AFTER UPDATE ON companies
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (OLD.is_corporate IS DISTINCT FROM NEW.is_corporate
      OR OLD.has_factoring IS DISTINCT FROM NEW.has_factoring
      OR OLD.corporate_can_pay_costs IS DISTINCT FROM NEW.corporate_can_pay_costs
      OR OLD.sat_status IS DISTINCT FROM NEW.sat_status
      OR OLD.onboarding_state IS DISTINCT FROM NEW.onboarding_state)
    EXECUTE FUNCTION session_changed('company')`,
  `CREATE CONSTRAINT TRIGGER companies_session_delete AFTER DELETE ON companies
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION session_changed('company')`,
  // refresh_tokens: a family revoked or removed ends its access tokens; a login's new family is read on first use.
  `CREATE CONSTRAINT TRIGGER refresh_tokens_session_update AFTER UPDATE ON refresh_tokens
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.mfa_verified IS DISTINCT FROM NEW.mfa_verified)
    EXECUTE FUNCTION session_changed('family')`,
  `CREATE CONSTRAINT TRIGGER refresh_tokens_session_delete AFTER DELETE ON refresh_tokens
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION session_changed('family')`,
];
