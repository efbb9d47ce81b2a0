import { sql } from 'kysely';
import type { DatabaseHandle, Db, Subscription } from '../../db/database';
import { SESSION_CHANGES_CHANNEL_PREFIX } from '../../db/migrations/028-session-changes';
import { sharedRead } from '../../db/shared-read';
import type { SessionUserRow, SessionUsers } from './session-users';

/**
 * What authentication reads of a session (the user, its company's flags, whether its refresh-token family
 * lives), kept in this process and still answering a revocation on the very next request of every process
 * (decision 0072).
 *
 * - The database says what changed: migration 028's triggers bump `session_version` and notify
 *   '<version> <kind> <key>' on this schema's channel for every change to those columns, whoever makes it.
 * - A cached session is used only after a version check: the version is read after the request arrived, and the
 *   session is served from memory only if every change up to that version has been applied here. A change whose
 *   notification is still on its way makes the request read the database instead.
 * - It fails closed: while not listening (starting, connection lost), every request reads the database; a skipped
 *   version number (a missed notification) empties the cache, and so does a version that went back (a database
 *   restored from a backup); a version check that stays ahead for `MISSED_AFTER_MS` is taken as a notification
 *   lost without the connection failing, and empties it too.
 * - The version check is shared: every request that arrives while one is in flight waits for the next one, so a
 *   busy process makes one small query for many requests, and each request's check was sent after it arrived.
 */
export interface SessionCache {
  /** The session's row as the database has it now (undefined: no such user). */
  find(userId: number, sessionFamilyId: string): Promise<SessionUserRow | undefined>;
  /** What the cache did so far (tests, benchmarks). */
  stats(): SessionCacheStats;
  /** Resolves once the cache listens and knows the current version (until then every request reads). */
  listening(): Promise<void>;
  close(): Promise<void>;
}

export interface SessionCacheStats {
  /** Served from memory after the version check. */
  hits: number;
  /** Read from the database: not cached, not listening, or a change not applied yet. */
  reads: number;
  /** Times everything was dropped because a notification may have been missed. */
  resets: number;
  /** Listening and every change up to `version` applied. */
  listening: boolean;
  version: number | null;
  entries: number;
}

/** A version check ahead of the notifications for this long means one was lost: drop everything. */
const MISSED_AFTER_MS = 2_000;
/** Past this many sessions the cache starts again from empty (a memory bound, not an eviction policy). */
const MAX_ENTRIES = 50_000;

type ChangeKind = 'user' | 'company' | 'family';

interface Entry {
  row: SessionUserRow;
  familyId: string;
}

async function readVersion(db: Db): Promise<number> {
  const { rows } = await sql<{ version: number }>`select version from session_version where id = 1`.execute(
    db,
  );
  return Number(rows[0]?.version ?? 0);
}

export async function createSessionCache(options: {
  database: DatabaseHandle;
  sessionUsers: SessionUsers;
  /** Milliseconds now (tests may drive it); only decides when a lagging version counts as a missed one. */
  now?: () => number;
}): Promise<SessionCache> {
  const { database, sessionUsers } = options;
  const db = database.db;
  const now = options.now ?? Date.now;
  // Requests that arrive while a version check is in flight share the next one.
  const checkVersion = sharedRead(() => readVersion(db));
  const entries = new Map<string, Entry>();
  const byUser = new Map<number, Set<string>>();
  const byCompany = new Map<number, Set<string>>();
  const byFamily = new Map<string, Set<string>>();
  const counters = { hits: 0, reads: 0, resets: 0 };
  /** Every change up to this version is applied here; null while not listening (fail closed). */
  let applied: number | null = null;
  /** Bumped by every change applied and every reset: a read that overlapped one is not stored. */
  let epoch = 0;
  /** Notifications received while (re)synchronising, applied once the starting version is known. */
  let pending: string[] | null = null;
  let behind: { since: number; version: number } | null = null;
  let closed = false;
  let onListening: (() => void)[] = [];
  const nowListening = () => {
    for (const resolve of onListening) resolve();
    onListening = [];
  };

  const keyOf = (userId: number, familyId: string) => `${userId} ${familyId}`;
  const index = (map: Map<number | string, Set<string>>, id: number | string, key: string) => {
    const keys = map.get(id);
    if (keys) keys.add(key);
    else map.set(id, new Set([key]));
  };
  const forget = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    byUser.get(entry.row.id)?.delete(key);
    if (entry.row.company_id !== null) byCompany.get(entry.row.company_id)?.delete(key);
    byFamily.get(entry.familyId)?.delete(key);
  };
  const clear = () => {
    entries.clear();
    byUser.clear();
    byCompany.clear();
    byFamily.clear();
    epoch += 1;
  };
  const reset = (version: number | null) => {
    clear();
    counters.resets += 1;
    applied = version;
    behind = null;
  };

  const invalidate = (kind: ChangeKind, key: string) => {
    const map: Map<number | string, Set<string>> = kind === 'family'
      ? byFamily
      : kind === 'user'
        ? byUser
        : byCompany;
    const id = kind === 'family' ? key : Number(key);
    for (const cached of map.get(id) ?? []) forget(cached);
    map.delete(id);
  };

  const apply = (payload: string) => {
    const [versionText, kind, key] = payload.split(' ');
    const version = Number(versionText);
    if (applied === null || !Number.isSafeInteger(version) || key === undefined) return;
    if (version <= applied) return;
    epoch += 1;
    if (version !== applied + 1) {
      // A version was skipped: its change is unknown, so nothing cached can be trusted.
      reset(version);
      return;
    }
    if (kind === 'user' || kind === 'company' || kind === 'family') invalidate(kind, key);
    else clear();
    applied = version;
  };

  /** Which (re)synchronisation is current: a lost connection or a newer one makes an older one give up. */
  let synchronisation = 0;
  let connected = false;
  const synchronise = async () => {
    synchronisation += 1;
    const attempt = synchronisation;
    const queued: string[] = [];
    pending = queued;
    try {
      const version = await readVersion(db);
      if (attempt !== synchronisation || closed) return;
      pending = null;
      clear();
      applied = version;
      behind = null;
      for (const payload of queued) apply(payload);
      nowListening();
    } catch {
      if (attempt !== synchronisation) return;
      pending = null;
      applied = null;
      // The connection listens, the pool cannot answer: try again shortly, reading the database meanwhile.
      setTimeout(() => {
        if (connected && !closed && attempt === synchronisation) void synchronise();
      }, 1_000).unref();
    }
  };

  const schema = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const channel = `${SESSION_CHANGES_CHANNEL_PREFIX}${schema.rows[0]?.schema ?? 'public'}`;
  const subscription: Subscription = await database.listen(channel, {
    message(payload) {
      if (pending) pending.push(payload);
      else apply(payload);
    },
    ready() {
      connected = true;
      void synchronise();
    },
    lost() {
      connected = false;
      synchronisation += 1;
      pending = null;
      if (applied !== null) reset(null);
    },
  });

  const read = (userId: number, familyId: string) => {
    counters.reads += 1;
    return sessionUsers.find(db, userId, familyId);
  };

  return {
    async find(userId, familyId) {
      if (applied === null) return read(userId, familyId);
      const key = keyOf(userId, familyId);
      const cached = entries.get(key);
      if (!cached) {
        const startedAt = epoch;
        const row = await read(userId, familyId);
        const alive = row?.is_active && row.session_alive;
        if (alive && startedAt === epoch && applied !== null) {
          if (entries.size >= MAX_ENTRIES) clear();
          entries.set(key, { row, familyId });
          index(byUser, row.id, key);
          if (row.company_id !== null) index(byCompany, row.company_id, key);
          index(byFamily, familyId, key);
        }
        return row;
      }
      const version = await checkVersion();
      if (applied !== null && version < applied) {
        // The database's counter went back (restored from a backup): nothing known here can be trusted.
        reset(version);
        return read(userId, familyId);
      }
      if (applied !== null && version > applied) {
        // A change committed whose notification has not arrived: wait for it no longer than MISSED_AFTER_MS.
        if (!behind || applied >= behind.version) behind = { since: now(), version };
        else if (now() - behind.since >= MISSED_AFTER_MS) reset(version);
        return read(userId, familyId);
      }
      if (applied === null || entries.get(key) !== cached) return read(userId, familyId);
      counters.hits += 1;
      return cached.row;
    },
    listening: () =>
      applied !== null ? Promise.resolve() : new Promise<void>((resolve) => onListening.push(resolve)),
    stats: () => ({
      ...counters,
      listening: applied !== null,
      version: applied,
      entries: entries.size,
    }),
    async close() {
      closed = true;
      connected = false;
      synchronisation += 1;
      applied = null;
      clear();
      await subscription.close();
    },
  };
}
