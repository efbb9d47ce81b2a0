// @postgresql: acknowledged money calls survive SIGKILL: the durability of the engine the server runs on.
// Issue 16, "Nothing lost": 200 money-moving requests acknowledged with 200, the server killed with SIGKILL
// right after the last acknowledgement, restarted on the same data: every acknowledged status change, its
// audit row, its stored quote and its Idempotency-Key answer are there, and nothing is half-written.
// The real server (server/main.ts) runs as a child process: on PGlite in a DATA_DIR of its own, or, when
// TEST_DATABASE_URL is set (CI sets it), on PostgreSQL in a database of its own created on that server and
// dropped afterwards. The money-moving call is the provider's 'Adelantar pago' (POST
// /api/providers/forward-payment/, Autorizada → En trámite), each with its own Idempotency-Key, 16 at a time.
// No assertion on elapsed time; every wait has a generous explicit bound (CI: a loaded 2-core machine).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import dayjs from 'dayjs';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../server/db/database';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { parseMoney } from '../../src/domain/money';
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

const COUNT = 200;
/** Requests in flight at once: enough to overlap transactions, bounded so a loaded machine keeps up. */
const CONCURRENCY = 16;
/** Bounds on waits, not expectations: a start with migrations and the demo seed; the 200 calls. */
const START_MS = 300_000;
const TEST_MS = 1_200_000;
const ADVANCE = '/api/providers/forward-payment/';
const PROVIDER_USER = 'proveedor.demo';

const today = dayjs().format('YYYY-MM-DD');
const paymentDate = dayjs().add(30, 'day').format('YYYY-MM-DD');

interface Place {
  dataDir: string;
  databaseUrl?: string;
  /** Opens the database directly (the server stopped, for PGlite). */
  open(): Promise<DatabaseHandle>;
  remove(): Promise<void>;
}

const testDatabaseUrl = process.env.TEST_DATABASE_URL;

/** PGlite: a DATA_DIR. PostgreSQL: a DATA_DIR (the server's keys) and a database of its own. */
async function freshPlace(): Promise<Place> {
  const dataDir = mkdtempSync(join(tmpdir(), 'flujo-money-'));
  if (!testDatabaseUrl) {
    return {
      dataDir,
      open: () => openDatabase({ dataDir, migrate: false }),
      async remove() {
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const scratch = await createScratchDatabase(testDatabaseUrl, 'flujo_durable');
  return {
    dataDir,
    databaseUrl: scratch.url,
    open: () => openDatabase({ databaseUrl: scratch.url, migrate: false }),
    async remove() {
      rmSync(dataDir, { recursive: true, force: true });
      await scratch.drop();
    },
  };
}

interface Answer {
  status: number;
  body: unknown;
}

function post(base: string, token: string, payload: unknown, key: string): Promise<Answer> {
  return postJson({ base }, ADVANCE, token, payload, key);
}

/** Runs work over items with at most `limit` in flight; results in the items' order. */
async function pooled<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  });
  await Promise.all(lanes);
  return results;
}

/** The amount in "Recibirás $96,665.00 MXN por la factura …", in centavos. */
function receivedCents(body: unknown): number {
  const message = (body as { message?: string }).message ?? '';
  const amount = /Recibirás \$([\d,]+\.\d{2}) MXN/.exec(message)?.[1];
  if (!amount) throw new Error(`no amount in ${JSON.stringify(body)}`);
  return parseMoney(amount.replace(/,/g, ''));
}

const keyFor = (run: string, invoiceId: number) => `dura-${run}-${invoiceId}`;

describe(`money-moving calls acknowledged, then SIGKILL, on ${testDatabaseUrl ? 'PostgreSQL' : 'PGlite'}`, () => {
  const places: Place[] = [];
  const servers: RealServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.kill9();
    for (const place of places) await place.remove();
  }, START_MS);

  async function serve(place: Place): Promise<RealServer> {
    const server = await startRealServer({
      dataDir: place.dataDir,
      databaseUrl: place.databaseUrl,
      timeoutMs: START_MS,
    });
    servers.push(server);
    return server;
  }

  it(
    `all ${COUNT} acknowledged advances, their audit rows and stored answers survive; nothing half-written`,
    async () => {
      const place = await freshPlace();
      places.push(place);
      const run = randomBytes(3).toString('hex');

      // 200 Autorizada invoices of the demo provider, through the corporate's ZIP upload and quotation accept.
      const first = await serve(place);
      const corporate = await loginToken(first.base, DEMO_CORPORATE_USER);
      const uploaded = await postFile(
        `${first.base}/api/corporates/upload/zip/`,
        corporate,
        {
          field: 'zip_file',
          name: 'adelantos.zip',
          type: 'application/zip',
          data: zipOf(bulkCfdi('MONEY', COUNT, today)),
        },
        { payment_date: paymentDate },
      );
      expect(uploaded.status).toBe(200);
      const lines = uploaded.body as Array<{ invoice_id: number; payment_date: string }>;
      expect(lines).toHaveLength(COUNT);
      const accepted = await fetch(`${first.base}/api/corporates/quotes/pre-approved/`, {
        method: 'POST',
        body: JSON.stringify(lines),
        headers: { authorization: `Bearer ${corporate}`, 'content-type': 'application/json' },
      });
      expect(accepted.status).toBe(200);
      const ids = lines.map((line) => line.invoice_id);

      // 'Adelantar pago' for each, 16 in flight; the server dies the moment the last answer is in.
      const provider = await loginToken(first.base, PROVIDER_USER);
      const answers = await pooled(ids, CONCURRENCY, (id) =>
        post(first.base, provider, { id_execute_factoring: id }, keyFor(run, id)),
      );
      await first.kill9();
      const refused = answers
        .map((answer, i) => ({ id: ids[i], ...answer }))
        .filter((answer) => answer.status !== 200);
      expect(refused.slice(0, 5)).toEqual([]);
      const acknowledged = new Map(ids.map((id, i) => [id, answers[i] as Answer]));

      // Restarted on the same data: the same key replays the stored answer and moves nothing again.
      const again = await serve(place);
      const providerAgain = await loginToken(again.base, PROVIDER_USER);
      const replays = await pooled(ids, CONCURRENCY, (id) =>
        post(again.base, providerAgain, { id_execute_factoring: id }, keyFor(run, id)),
      );
      replays.forEach((replay, i) => {
        expect({ id: ids[i], ...replay }).toEqual({ id: ids[i], ...acknowledged.get(ids[i] as number) });
      });
      await again.stop();

      const handle = await place.open();
      try {
        const { db } = handle;
        const invoices = await db
          .selectFrom('invoices')
          .select([
            'id',
            'status',
            'amount_with_exchange_rate',
            'cost_financing',
            'cost_consultancy',
            'factoring_rate',
            'factoring_date',
          ])
          .where('id', 'in', ids)
          .orderBy('id')
          .execute();
        const advances = await db
          .selectFrom('invoice_events')
          .select(['invoice_id', 'from_status'])
          .where('invoice_id', 'in', ids)
          .where('to_status', '=', InvoiceStatus.PROCESS)
          .execute();
        const provider = await db
          .selectFrom('users')
          .select('id')
          .where('username', '=', PROVIDER_USER)
          .executeTakeFirstOrThrow();
        const keys = await db
          .selectFrom('idempotency_keys')
          .select(['key', 'response_status', 'response_body'])
          .where('user_id', '=', provider.id)
          .where(
            'key',
            'in',
            ids.map((id) => keyFor(run, id)),
          )
          .execute();
        const keyOf = new Map(keys.map((row) => [row.key, row]));
        const eventsOf = new Map<number, number>();
        for (const event of advances)
          eventsOf.set(event.invoice_id, (eventsOf.get(event.invoice_id) ?? 0) + 1);

        expect(invoices).toHaveLength(COUNT);
        for (const invoice of invoices) {
          const answer = acknowledged.get(invoice.id) as Answer;
          // The status change, exactly one audit row for it (from Autorizada), the quote stored with it.
          expect({ id: invoice.id, status: invoice.status, events: eventsOf.get(invoice.id) ?? 0 }).toEqual({
            id: invoice.id,
            status: InvoiceStatus.PROCESS,
            events: 1,
          });
          expect(invoice.factoring_date).not.toBeNull();
          expect(invoice.factoring_rate).not.toBeNull();
          // Money adds up: what the provider was told it receives is the amount less the stored costs.
          const costs =
            parseMoney(invoice.cost_financing ?? 'x') + parseMoney(invoice.cost_consultancy ?? 'x');
          expect(parseMoney(invoice.amount_with_exchange_rate) - costs).toBe(receivedCents(answer.body));
          // The key's stored answer is the one the client got.
          const key = keyOf.get(keyFor(run, invoice.id));
          expect({ id: invoice.id, status: key?.response_status, body: key?.response_body }).toEqual({
            id: invoice.id,
            status: 200,
            body: answer.body,
          });
        }
        expect(advances.every((event) => event.from_status === InvoiceStatus.APPROVED)).toBe(true);

        // Nothing half-written anywhere in the database: every invoice's last audit row names its status and
        // every stored key has its answer. (The quote is checked on the 200 above: the demo seed walks its own
        // En trámite invoices there without one.)
        const { rows: unexplained } = await sql<{ id: number; status: number; last: number | null }>`
          select i.id, i.status,
            (select e.to_status from invoice_events e where e.invoice_id = i.id order by e.id desc limit 1) as last
          from invoices i`.execute(db);
        expect(unexplained.filter((row) => row.last !== row.status)).toEqual([]);
        const unanswered = await db
          .selectFrom('idempotency_keys')
          .select('key')
          .where('response_status', 'is', null)
          .execute();
        expect(unanswered).toEqual([]);
      } finally {
        await handle.close();
      }
    },
    TEST_MS,
  );
});
