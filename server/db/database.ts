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
}

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

function openPostgres(connectionString: string): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        PARSERS[oid] ?? pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: 'postgresql', close: () => db.destroy() };
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
