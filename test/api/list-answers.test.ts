// @postgresql: the list version is read from the database by each process; two apps share one database here.
import dayjs from 'dayjs';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import type { DatabaseHandle } from '../../server/db/database';
import { DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { bearer, type Session, sessionFor } from '../support/accounts';
import { testClock, testConfig } from '../support/api-app';
import { addUserToCompany, advanceTo, importInvoice } from '../support/pronto-pago';
import { createTestDatabase } from '../support/test-database';

const LIST = `/api/providers/alliances/?page=1&page_size=25&status=${InvoiceStatus.ALL}`;
const SUMMARY = `/api/corporates/summary/?page=1&page_size=25&status=${InvoiceStatus.ALL}`;

interface ListItem {
  id: number;
  status: number;
  description: string;
  days_payable: number | null;
}

interface ListBody {
  count: number;
  results: ListItem[];
  indicators?: { spei_balance?: string; count: number };
}

/**
 * Decision 0077: an invoice list's answer is kept per process and served again only while the list version, read
 * after the request arrived, is the one it was made at. Two apps on one database stand for two processes; every
 * change below is made by the other one or by hand, and must show on the very next request.
 */
describe('list answers kept per process: a committed change shows on the very next request everywhere', () => {
  let database: DatabaseHandle;
  let one: FastifyInstance;
  let two: FastifyInstance;
  const clock = testClock();
  let provider: Session;
  let corporate: Session;

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig();
    one = await buildApp({ database, config, pause: async () => {}, now: clock.now });
    two = await buildApp({ database, config, pause: async () => {}, now: clock.now });
    await one.ready();
    await two.ready();
    provider = await sessionFor(one, 'proveedor.demo');
    corporate = await sessionFor(one, 'corporativo.demo');
  });
  afterAll(async () => {
    await one.close();
    await two.close();
    await database.close();
  });

  const get = async (app: FastifyInstance, url: string, session: Session) => {
    const res = await app.inject({ method: 'GET', url, headers: bearer(session) });
    expect(res.statusCode).toBe(200);
    return { body: res.json<ListBody>(), text: res.body, type: res.headers['content-type'] };
  };

  /** The answer app `two` keeps for the URL: its second request is served from memory, the same bytes. */
  const keptOnTwo = async (url = LIST, session = provider) => {
    const first = await get(two, url, session);
    const hits = two.listAnswers.stats().hits;
    const again = await get(two, url, session);
    expect(two.listAnswers.stats().hits).toBe(hits + 1);
    expect(again.text).toBe(first.text);
    return first.body;
  };

  /** The next request on `two` was made from the database, not served from memory. */
  const madeOnTwo = async (url = LIST, session = provider) => {
    const { made, hits } = two.listAnswers.stats();
    const { body } = await get(two, url, session);
    expect(two.listAnswers.stats()).toMatchObject({ made: made + 1, hits });
    return body;
  };

  it('serves a kept answer as JSON, the same bytes the list made', async () => {
    const first = await get(two, LIST, provider);
    expect(first.type).toBe('application/json; charset=utf-8');
    expect(first.body.count).toBeGreaterThan(0);
    await keptOnTwo();
  });

  it('a search or a period is made from the database each time, never kept', async () => {
    for (const url of [`${LIST}&search=empaques`, `${LIST}&period=10`]) {
      const { made, hits, entries } = two.listAnswers.stats();
      await get(two, url, provider);
      await get(two, url, provider);
      expect(two.listAnswers.stats()).toEqual({ made, hits, entries });
    }
  });

  it('an invoice imported by another process is on the very next page, counted', async () => {
    const before = await keptOnTwo();
    const id = await importInvoice(database.db);
    const after = await madeOnTwo();
    expect(after.count).toBe(before.count + 1);
    expect(after.results.some((item) => item.id === id)).toBe(true);
  });

  it("a status change through the other process's lifecycle shows on the next request", async () => {
    const id = await importInvoice(database.db);
    const before = await keptOnTwo();
    expect(before.results.find((item) => item.id === id)?.status).toBe(InvoiceStatus.AVAILABLE);
    await advanceTo(database.db, id, 'pending');
    const after = await madeOnTwo();
    expect(after.results.find((item) => item.id === id)?.status).toBe(InvoiceStatus.PENDING);
  });

  it('a hand-written UPDATE of an invoice shows on the next request, on the buyer side too', async () => {
    const id = (await keptOnTwo()).results[0]?.id;
    await keptOnTwo(SUMMARY, corporate);
    await sql`update invoices set description = 'Cambiada a mano' where id = ${id}`.execute(database.db);
    expect((await madeOnTwo()).results.find((item) => item.id === id)?.description).toBe('Cambiada a mano');
    const summary = await madeOnTwo(SUMMARY, corporate);
    expect(summary.results.find((item) => item.id === id)?.description).toBe('Cambiada a mano');
  });

  it("a company's balance written by hand changes the first page's indicators on the next request", async () => {
    const before = await keptOnTwo();
    await sql`update companies set spei_balance = spei_balance + 125.50
      where rfc = ${DEMO_PROVIDERS[0]?.rfc}`.execute(database.db);
    const after = await madeOnTwo();
    expect(Number(after.indicators?.spei_balance)).toBeCloseTo(
      Number(before.indicators?.spei_balance) + 125.5,
      2,
    );
  });

  it('a change rolled back leaves the kept answer served', async () => {
    const before = await keptOnTwo();
    await expect(
      database.db.transaction().execute(async (trx) => {
        await sql`update invoices set description = 'Nunca' where id = ${before.results[0]?.id}`.execute(trx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const hits = two.listAnswers.stats().hits;
    expect((await get(two, LIST, provider)).body).toEqual(before);
    expect(two.listAnswers.stats().hits).toBe(hits + 1);
  });

  it('on the next business day the page is made again: days payable count from the new day', async () => {
    const id = await importInvoice(database.db);
    await advanceTo(database.db, id, 'approved', dayjs(clock.now()).add(30, 'day').format('YYYY-MM-DD'));
    const days = (await keptOnTwo()).results.find((item) => item.id === id)?.days_payable;
    expect(days).toBeTypeOf('number');
    clock.advanceMinutes(24 * 60);
    // The access tokens of a day ago have expired on the moved clock: sign in again (same company, same key).
    provider = await sessionFor(one, 'proveedor.demo');
    corporate = await sessionFor(one, 'corporativo.demo');
    const after = await madeOnTwo();
    expect(after.results.find((item) => item.id === id)?.days_payable).toBe((days ?? 0) - 1);
  });

  it('a version that went back (a database restored from a backup) is not taken for the one kept', async () => {
    await keptOnTwo();
    await sql`update list_version set version = 1 where id = 1`.execute(database.db);
    await madeOnTwo();
  });

  it("another company's user asking the same URL gets its own company's answer", async () => {
    const mine = await keptOnTwo();
    await addUserToCompany(database.db, { rfc: DEMO_PROVIDERS[1]?.rfc ?? '', username: 'transportes.cache' });
    const other = await sessionFor(one, 'transportes.cache');
    const theirs = await madeOnTwo(LIST, other);
    const mineIds = new Set(mine.results.map((item) => item.id));
    expect(theirs.results.length).toBeGreaterThan(0);
    expect(theirs.results.some((item) => mineIds.has(item.id))).toBe(false);
  });
});
