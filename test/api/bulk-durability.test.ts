// @postgresql: a bulk upload acknowledged then SIGKILLed: the engine's commit durability.
// Issue 14, "Must show": a server killed with SIGKILL in the middle of accepting a 1,000-line quotation has,
// after a restart on the same data, either all 1,000 invoices Autorizada or none; the same for a ZIP of 1,000
// CFDI (all imported or none). The real server (server/main.ts) runs as a child process: on PGlite in a
// DATA_DIR of its own, or, when TEST_DATABASE_URL is set (CI sets it), on PostgreSQL in a database of its own.
// Kills land before, during or after the transaction (ACCEPT_KILLS, ZIP_KILLS); the test asserts all-or-none,
// never which, and that a 200 the client received survives the kill (durability of a commit). No assertion on
// elapsed time; every wait has a generous explicit bound (CI: a loaded 2-core machine).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import dayjs from 'dayjs';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../server/db/database';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { postJson } from '../support/pronto-pago';
import {
  bulkCfdi,
  DEMO_CORPORATE_USER,
  loginToken,
  postFile,
  type RealServer,
  startRealServer,
  zipOf,
} from '../support/real-server';
import { createScratchDatabase } from '../support/scratch-database';

const COUNT = 1000;
/** Bounds on waits, not expectations: a start with migrations and the demo seed, one bulk call. */
const START_MS = 300_000;
const CALL_MS = 300_000;
const TEST_MS = 1_200_000;
/**
 * When the server is killed, tried in order on the same data until the call's work is found committed:
 *  - a number: that many ms after the request is logged (the body arriving, parsed, or the transaction under
 *    way: a loaded machine shifts where a timed kill lands, which the all-or-none assertion does not care about);
 *  - 'in-transaction' (PostgreSQL only): as soon as pg_stat_activity shows one of the server's sessions inside
 *    an open transaction, so the kill lands mid-transaction for certain;
 *  - 'after-response': once the client has its 200, after the commit (a commit must survive SIGKILL).
 * Each attempt is a SIGKILL, a restart on the same data and a count.
 */
type KillAt = number | 'in-transaction' | 'after-response';
const ACCEPT_KILLS: KillAt[] = [50, 'in-transaction', 300, 800, 'after-response'];
const ZIP_KILLS: KillAt[] = [300, 'in-transaction', 1500, 4000, 'after-response'];

const today = dayjs().format('YYYY-MM-DD');
const paymentDate = dayjs().add(30, 'day').format('YYYY-MM-DD');

interface Engine {
  name: string;
  /** A fresh place for one server's data: the DATA_DIR, and for PostgreSQL a database of its own. */
  place(): Promise<Place>;
}
interface Place {
  dataDir: string;
  databaseUrl?: string;
  /** Opens the database directly (the server stopped, for PGlite) to count. */
  open(): Promise<DatabaseHandle>;
  /** PostgreSQL: sees the server's open transactions from outside. */
  watch: TransactionWatch | null;
  remove(): Promise<void>;
}

interface TransactionWatch {
  /**
   * Resolves as soon as another session of this database is inside an explicit transaction: between two of its
   * statements, or running one that began after the transaction did (a lone autocommit statement's
   * xact_start equals its query_start).
   */
  untilInTransaction(timeoutMs: number): Promise<void>;
}

function transactionWatch(url: string): TransactionWatch {
  return {
    async untilInTransaction(timeoutMs) {
      const watcher = await openDatabase({ databaseUrl: url, migrate: false });
      try {
        const deadline = Date.now() + timeoutMs;
        while (Date.now() < deadline) {
          const { rows } = await sql<{ open: number }>`
            select count(*)::int as open from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid()
              and backend_type = 'client backend' and xact_start is not null
              and (state = 'idle in transaction' or (state = 'active' and xact_start < query_start))`.execute(
            watcher.db,
          );
          if ((rows[0]?.open ?? 0) > 0) return;
          await new Promise((done) => setTimeout(done, 5));
        }
        throw new Error(`no transaction opened within ${timeoutMs} ms`);
      } finally {
        await watcher.close();
      }
    },
  };
}

const pglite: Engine = {
  name: 'PGlite',
  async place() {
    const dataDir = mkdtempSync(join(tmpdir(), 'flujo-durability-'));
    return {
      dataDir,
      open: () => openDatabase({ dataDir, migrate: false }),
      watch: null,
      async remove() {
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
};

const testDatabaseUrl = process.env.TEST_DATABASE_URL;
const postgres: Engine | null = testDatabaseUrl
  ? {
      name: 'PostgreSQL',
      async place() {
        const dataDir = mkdtempSync(join(tmpdir(), 'flujo-durability-'));
        const scratch = await createScratchDatabase(testDatabaseUrl, 'durability');
        return {
          dataDir,
          databaseUrl: scratch.url,
          open: () => openDatabase({ databaseUrl: scratch.url, migrate: false }),
          watch: transactionWatch(scratch.url),
          async remove() {
            rmSync(dataDir, { recursive: true, force: true });
            await scratch.drop();
          },
        };
      },
    }
  : null;

// Like every API test (decision 0004): PostgreSQL when TEST_DATABASE_URL is set, PGlite otherwise; CI runs the
// API suite both ways, so both engines are proved without running PGlite twice.
const engines = postgres ? [postgres] : [pglite];

/** What the client saw of a call the server was killed during: a status, or the connection's failure. */
type Outcome = { status: number } | { failed: string };

async function outcomeOf(call: Promise<{ status: number }>): Promise<Outcome> {
  try {
    return { status: (await call).status };
  } catch (error) {
    return { failed: String(error) };
  }
}

/**
 * Fires the call, waits for the server to log the request (Fastify logs its URL as it arrives) and then
 * killAt ms, or for the response, then SIGKILLs the server; resolves with what the client saw.
 */
async function killDuring(
  server: RealServer,
  path: string,
  killAt: KillAt,
  call: () => Promise<{ status: number }>,
  watch: TransactionWatch | null,
): Promise<Outcome> {
  const outcome = outcomeOf(call());
  await server.logged(`"url":"${path}"`, CALL_MS);
  if (killAt === 'after-response') await outcome;
  else if (killAt === 'in-transaction') {
    if (!watch) throw new Error("'in-transaction' needs PostgreSQL");
    await watch.untilInTransaction(CALL_MS);
  } else await new Promise((done) => setTimeout(done, killAt));
  await server.kill9();
  return outcome;
}

function describeKill(killAt: KillAt): string {
  if (killAt === 'after-response') return 'after the response';
  if (killAt === 'in-transaction') return 'inside its open transaction';
  return `${killAt} ms after the request was logged`;
}

/** Starts the server on the same data again (it must come up), stops it, and reads the database directly. */
async function afterRestart<T>(place: Place, read: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const again = await startRealServer({
    dataDir: place.dataDir,
    databaseUrl: place.databaseUrl,
    timeoutMs: START_MS,
  });
  await again.stop();
  const handle = await place.open();
  try {
    return await read(handle);
  } finally {
    await handle.close();
  }
}

describe.each(engines)(
  'bulk calls killed with SIGKILL on $name: all or nothing after a restart',
  (engine) => {
    const places: Place[] = [];
    const servers: RealServer[] = [];
    afterAll(async () => {
      for (const server of servers) await server.kill9();
      for (const place of places) await place.remove();
    }, START_MS);

    /** A server on place's data (a fresh place the first time), and the demo corporate's token. */
    async function serve(place: Place): Promise<{ server: RealServer; token: string }> {
      const server = await startRealServer({
        dataDir: place.dataDir,
        databaseUrl: place.databaseUrl,
        timeoutMs: START_MS,
      });
      servers.push(server);
      return { server, token: await loginToken(server.base, DEMO_CORPORATE_USER) };
    }
    async function freshPlace(): Promise<Place> {
      const place = await engine.place();
      places.push(place);
      return place;
    }

    /**
     * Each kill in turn: serve, fire the call, kill, restart, count. Every count must be 0 or 1,000 (1,000 when
     * the client got its 200); the attempts stop once the work is found committed, which the last kill (after
     * the response) guarantees.
     */
    async function attempts(
      place: Place,
      kills: KillAt[],
      path: string,
      call: (base: string, token: string) => Promise<{ status: number }>,
      count: (handle: DatabaseHandle) => Promise<number>,
    ): Promise<void> {
      let committed = 0;
      for (const killAt of kills) {
        if (killAt === 'in-transaction' && !place.watch) continue;
        const { server, token } = await serve(place);
        const outcome = await killDuring(server, path, killAt, () => call(server.base, token), place.watch);
        // Fastify's 'request completed' line for this request: how long the call took when not interrupted.
        const lines = server.output().split('\n');
        const reqId = lines.find((line) => line.includes(`"url":"${path}"`))?.match(/"reqId":"([^"]+)"/)?.[1];
        const took = lines
          .find((line) => reqId && line.includes(`"reqId":"${reqId}"`) && line.includes('request completed'))
          ?.match(/"responseTime":([\d.]+)/)?.[1];
        committed = await afterRestart(place, count);
        console.info(
          `${engine.name} ${path} killed ${describeKill(killAt)}: client saw ${JSON.stringify(outcome)}${took ? ` (the server took ${Math.round(Number(took))} ms)` : ''}; ${committed} of ${COUNT} committed after the restart`,
        );
        expect([0, COUNT]).toContain(committed);
        if ('status' in outcome && outcome.status === 200) expect(committed).toBe(COUNT);
        if (committed === COUNT) break;
      }
      expect(committed).toBe(COUNT);
    }

    it(
      'accepting a 1,000-line quotation: 0 or 1,000 invoices Autorizada, and 1,000 if the client got its 200',
      async () => {
        const place = await freshPlace();
        const { server, token } = await serve(place);
        const imported = await postFile(
          `${server.base}/api/corporates/upload/zip/`,
          token,
          {
            field: 'zip_file',
            name: 'set-up.zip',
            type: 'application/zip',
            data: zipOf(bulkCfdi('DURA', COUNT, today)),
          },
          { payment_date: paymentDate },
        );
        expect(imported.status).toBe(200);
        const lines = imported.body as Array<{ invoice_id: number; payment_date: string }>;
        expect(lines).toHaveLength(COUNT);
        const ids = lines.map((line) => line.invoice_id);
        // This server goes down with SIGKILL too: the set-up import, answered 200, must survive it.
        await server.kill9();
        const found = await afterRestart(
          place,
          async ({ db }) =>
            (await db.selectFrom('invoices').select('id').where('id', 'in', ids).execute()).length,
        );
        expect(found).toBe(COUNT);

        await attempts(
          place,
          ACCEPT_KILLS,
          '/api/corporates/quotes/pre-approved/',
          (base, token) => postJson({ base }, '/api/corporates/quotes/pre-approved/', token, lines),
          async ({ db }) => {
            const authorized = (
              await db
                .selectFrom('invoices')
                .select('id')
                .where('id', 'in', ids)
                .where('status', '=', InvoiceStatus.APPROVED)
                .execute()
            ).length;
            // The accept's whole footprint moves together: statuses, lifecycle events, the quotation's lines.
            const events = (
              await db
                .selectFrom('invoice_events')
                .select('id')
                .where('invoice_id', 'in', ids)
                .where('to_status', '=', InvoiceStatus.APPROVED)
                .execute()
            ).length;
            const quoted = (
              await db
                .selectFrom('quotation_lines')
                .innerJoin('quotations', 'quotations.id', 'quotation_lines.quotation_id')
                .select('quotation_lines.id')
                .where('quotation_lines.invoice_id', 'in', ids)
                .where('quotations.status', '=', 'pre_approved')
                .execute()
            ).length;
            expect({ events, quoted }).toEqual({ events: authorized, quoted: authorized });
            return authorized;
          },
        );
      },
      TEST_MS,
    );

    it(
      'importing a ZIP of 1,000 new CFDI: 0 or 1,000 invoices, and 1,000 if the client got its 200',
      async () => {
        const place = await freshPlace();
        const files = bulkCfdi('DURZ', COUNT, today);
        const uuids = files.map((file) => {
          const uuid = file.xml.match(/\sUUID="([0-9A-Fa-f-]{36})"/)?.[1];
          if (!uuid) throw new Error(`no stamp UUID in ${file.name}`);
          return uuid.toUpperCase();
        });
        const zip = zipOf(files);
        await attempts(
          place,
          ZIP_KILLS,
          '/api/corporates/upload/zip/',
          (base, token) =>
            postFile(
              `${base}/api/corporates/upload/zip/`,
              token,
              { field: 'zip_file', name: 'facturas.zip', type: 'application/zip', data: zip },
              { payment_date: paymentDate },
            ),
          async ({ db }) => {
            const imported = await db
              .selectFrom('invoices')
              .select('id')
              .where('cfdi_uuid', 'in', uuids)
              .execute();
            // Each imported invoice has its import event, in the same transaction.
            const events =
              imported.length === 0
                ? 0
                : (
                    await db
                      .selectFrom('invoice_events')
                      .select('id')
                      .where(
                        'invoice_id',
                        'in',
                        imported.map((row) => row.id),
                      )
                      .execute()
                  ).length;
            expect(events).toBe(imported.length);
            return imported.length;
          },
        );
      },
      TEST_MS,
    );
  },
);
