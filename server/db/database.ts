import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { keepNewFilesPrivate, privateDirectory } from '../private-files';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock';
import { migrateToLatest } from './migrate';
import type { Database } from './schema';

export type Db = Kysely<Database>;
const gzipAsync = promisify(gzip);
export type DatabaseKind = 'pglite' | 'postgresql';

export interface DatabaseHandle {
  db: Db;
  kind: DatabaseKind;
  close(): Promise<void>;
  /** PGlite only: the whole cluster as a tarball (test templates). */
  dump?: () => Promise<Blob>;
  /**
   * PGlite only: `dump` taken between two transactions, after a checkpoint, for `npm run ops -- backup` while
   * the server runs (server/db/backup.ts, decision 0042).
   */
  snapshot?: () => Promise<Blob>;
  /** LISTEN on `channel` for as long as the subscription lives (see NotificationHandlers). */
  listen(channel: string, handlers: NotificationHandlers): Promise<Subscription>;
}

/**
 * What a LISTEN subscription reports. PostgreSQL delivers a channel's notifications in commit order to a
 * connected listener and never again to one that reconnects, so a lost connection is the moment some may be
 * missed: `lost` says so at once and `ready` says when listening has started (again); every notification
 * committed after `ready` is delivered to `message`.
 */
export interface NotificationHandlers {
  message(payload: string): void;
  ready(): void;
  lost(): void;
}

export interface Subscription {
  close(): Promise<void>;
}

/** Waits before listening again after a failure: 100 ms, doubling up to 5 s. */
const RELISTEN_MS = { first: 100, max: 5_000 } as const;

// Type OIDs whose text form we keep (or normalise) so PGlite and pg return the same JS values.
// NOTE: PGlite parses int8 to number and pg to string (research/verified-stack.md §4.13).
const OID = { INT8: 20, NUMERIC: 1700, DATE: 1082, TIMESTAMP: 1114, TIMESTAMPTZ: 1184 } as const;
const asText = (value: string): string => value;
const toIso = (value: string): string => new Date(value).toISOString();
const PARSERS: Record<number, (value: string) => unknown> = {
  [OID.INT8]: Number,
  [OID.NUMERIC]: asText,
  [OID.DATE]: asText,
  [OID.TIMESTAMP]: asText,
  [OID.TIMESTAMPTZ]: toIso,
};

export interface OpenOptions {
  /** PostgreSQL connection string; when absent PGlite is used. */
  databaseUrl?: string | null;
  /** PGlite directory under which `pglite/` holds the cluster; absent = in memory. */
  dataDir?: string;
  /** A dumpDataDir() tarball to start an in-memory PGlite from (tests). */
  template?: Blob;
  migrate?: boolean;
}

/** Throws unless the database answers a trivial query (health check). */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  const handle = options.databaseUrl ? openPostgres(options.databaseUrl) : await openPglite(options);
  if (options.migrate !== false) {
    try {
      await migrateToLatest(handle.db);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }
  return handle;
}

/**
 * Leads a statement that PostgreSQL should keep prepared on each connection (decision 0076): parsed once and,
 * after five runs, planned once, instead of both on every request. Only for a statement whose plan does not depend
 * on its values: a search's plan does (a pattern found once or in thousands of rows), so searches never carry it.
 * PGlite ignores it (a comment).
 */
export const PREPARED = '/* prepared */';

/** A prepared statement's name on a connection: its text's digest, so the same text reuses it. */
function statementName(text: string): string {
  return `flujo_${createHash('sha1').update(text).digest('base64url')}`;
}

/** Runs the statements that begin with PREPARED as named statements on every connection of `pool`. */
function prepareMarkedStatements(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    // pg's query has many overloads; Kysely calls only (text, values) and (cursor).
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const prepared = (...args: unknown[]): unknown => {
      const [text, values] = args;
      return typeof text === 'string' && text.startsWith(PREPARED)
        ? query({ name: statementName(text), text, values })
        : query(...args);
    };
    Object.assign(client, { query: prepared });
  });
}

function openPostgres(connectionString: string): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        PARSERS[oid] ?? pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  prepareMarkedStatements(pool);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const subscriptions = new Set<Subscription>();
  return {
    db,
    kind: 'postgresql',
    listen: async (channel, handlers) => {
      const subscription = listenOnPostgres(connectionString, channel, handlers);
      subscriptions.add(subscription);
      return {
        close: async () => {
          subscriptions.delete(subscription);
          await subscription.close();
        },
      };
    },
    async close() {
      await Promise.all([...subscriptions].map((subscription) => subscription.close()));
      await db.destroy();
    },
  };
}

/**
 * A dedicated connection (not the pool's: a pooled one is shared and would stop listening when returned) that
 * LISTENs on `channel`, and listens again after any failure, reporting `lost` and then `ready`.
 */
function listenOnPostgres(
  connectionString: string,
  channel: string,
  handlers: NotificationHandlers,
): Subscription {
  let closed = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  let delay: number = RELISTEN_MS.first;
  const connect = async (): Promise<void> => {
    retry = null;
    const attempt = new pg.Client({ connectionString, application_name: `flujo ${channel}`.slice(0, 63) });
    client = attempt;
    let failed = false;
    const fail = () => {
      if (failed) return;
      failed = true;
      handlers.lost();
      attempt.removeAllListeners('notification');
      attempt.end().catch(() => undefined);
      if (!closed) {
        retry = setTimeout(() => void connect(), delay);
        delay = Math.min(delay * 2, RELISTEN_MS.max);
      }
    };
    attempt.on('error', fail);
    attempt.on('end', fail);
    attempt.on('notification', (notification) => {
      if (notification.channel === channel) handlers.message(notification.payload ?? '');
    });
    try {
      await attempt.connect();
      await attempt.query(`LISTEN ${attempt.escapeIdentifier(channel)}`);
      if (closed || failed) return;
      delay = RELISTEN_MS.first;
      handlers.ready();
    } catch {
      fail();
    }
  };
  void connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const current = client;
      client = null;
      if (current) {
        current.removeAllListeners();
        current.on('error', () => undefined);
        await current.end().catch(() => undefined);
      }
    },
  };
}

async function openPglite(options: OpenOptions): Promise<DatabaseHandle> {
  let lock: DataDirLock | null = null;
  let dataDir: string | undefined;
  if (options.dataDir) {
    // PGlite writes its files with the process's umask: the process that holds the data keeps it private.
    keepNewFilesPrivate();
    privateDirectory(options.dataDir);
    lock = acquireDataDirLock(options.dataDir);
    dataDir = join(options.dataDir, 'pglite');
  }
  try {
    const client = await PGlite.create({
      dataDir,
      loadDataDir: options.template,
      parsers: PARSERS,
      // The lists' search index (migration 005); PostgreSQL ships the extension, PGlite loads it here.
      extensions: { pg_trgm },
    });
    const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
    return {
      db,
      kind: 'pglite',
      dump: () => client.dumpDataDir('gzip'),
      // Kysely's PGlite driver lends its one connection to one transaction at a time, so holding it here waits
      // for the transaction under way and keeps the next one out; the checkpoint puts every committed page
      // in the data files, so the copy starts without crash recovery. dumpDataDir reads the files in one
      // synchronous pass, so nothing can write in between anyway. Compressing happens after the connection is
      // back, on libuv's thread pool: requests wait only for the read.
      async snapshot() {
        const tar = await db.connection().execute(async (connection) => {
          await sql`checkpoint`.execute(connection);
          return client.dumpDataDir('none');
        });
        const gzipped = await gzipAsync(new Uint8Array(await tar.arrayBuffer()));
        return new Blob([new Uint8Array(gzipped)], { type: 'application/x-gzip' });
      },
      // One process holds a PGlite, so its notifications never leave it: listening cannot be lost.
      // NOTE: PGlite's unlisten drops the quotes of a quoted name, so channels here are plain identifiers.
      async listen(channel, handlers) {
        if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
        const unlisten = await client.listen(channel, handlers.message);
        handlers.ready();
        return {
          close: async () => {
            if (!client.closed) await unlisten();
          },
        };
      },
      async close() {
        await db.destroy();
        if (!client.closed) await client.close();
        lock?.release();
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}
