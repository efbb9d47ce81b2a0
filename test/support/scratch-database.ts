import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { openDatabase } from '../../server/db/database';

/** How long a drop waits for connections to the database to end before terminating them. */
const DROP_WAIT_MS = 15_000;

/** A PostgreSQL database of its own on the server of `serverUrl`, and how to drop it. */
export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * Creates an empty database named `<prefix>_<random>` beside the one `serverUrl` names. A test file on a shared
 * PostgreSQL gets one of its own, not a schema, so files can run side by side: catalog reads (the migrator's) never
 * meet another file's schema being dropped, and pg_stat_activity's current_database() is the file's own.
 */
export async function createScratchDatabase(serverUrl: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const onServer = async (statement: string) => {
    const admin = await openDatabase({ databaseUrl: serverUrl, migrate: false });
    try {
      await sql.raw(statement).execute(admin.db);
    } finally {
      await admin.close();
    }
  };
  /**
   * Drops the database once the file's own connections have gone (a closed pool's last ones end a moment after
   * `close` resolves, and terminating them then would reach this process as an unhandled error). A backend left by
   * a server the test killed with SIGKILL is terminated after DROP_WAIT_MS.
   */
  const drop = async () => {
    const admin = await openDatabase({ databaseUrl: serverUrl, migrate: false });
    try {
      const deadline = Date.now() + DROP_WAIT_MS;
      while (Date.now() < deadline) {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from pg_stat_activity where datname = ${name}`.execute(admin.db);
        if ((rows[0]?.n ?? 0) === 0) break;
        await new Promise((done) => setTimeout(done, 20));
      }
      await sql.raw(`drop database if exists ${name} with (force)`).execute(admin.db);
    } finally {
      await admin.close();
    }
  };
  await onServer(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  url.searchParams.delete('options');
  return {
    url: url.toString(),
    drop,
  };
}
