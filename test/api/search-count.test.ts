// @postgresql: which search the kept words answer rests on the engine's lower() and [[:alnum:]] (its locale)
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVOICE_SEARCH_TEXT } from '../../server/db/migrations/005-scale-indexes';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { EXACT_COUNT_LIMIT } from '../../src/domain/list-count';
import type { CorporateSummaryPage } from '../../src/domain/schemas/corporates';
import type { InvoicePage } from '../../src/domain/schemas/invoices';
import { type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { DEMO_PROVIDER, getJson } from '../support/pronto-pago';

// Decision 0074: a search the kept words cannot answer counts at most EXACT_COUNT_LIMIT matches; past it the
// answer says its count is a lower bound and leaves the sums out, while its rows stay exactly the right ones.
// Decision 0075: a search that is one word is answered from the kept words exactly, with its sums, at any size.

const ALLIANCES = '/api/providers/alliances/';
const SUMMARY = '/api/corporates/summary/';
/** A word no demo invoice holds, given to every copy. */
const WORD = 'xilofonos';
/** A second word holding PREFIX, given to every other copy. */
const OTHER_WORD = 'xilofonistas';
/** Held by two words: the kept words cannot tell how many invoices hold either, so the recheck counts. */
const PREFIX = 'xilofon';
const COPIES = EXACT_COUNT_LIMIT + 1;

describe('a search past the exact count', () => {
  let ctx: ApiTestContext;
  let provider: Session;
  let corporate: Session;
  let demoCount: number;

  async function get<T>(path: string, session: Session = provider): Promise<T> {
    const res = await getJson(ctx.app, path, session);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  }

  /** The demo provider's matches of a search as the database finds them, every row rechecked. */
  async function recheck(search: string): Promise<{ count: number; total: string; customers: number }> {
    const { rows } = await sql<{ count: string; total: string; customers: string }>`
      select count(*) as count, coalesce(sum(amount_with_exchange_rate), 0)::numeric(18,2)::text as total,
        count(distinct receiver_company_id) as customers
      from invoices
      where emitter_rfc = ${DEMO_PROVIDER.rfc}
        and ${sql.raw(INVOICE_SEARCH_TEXT.emitter)} ilike ${`%${search}%`}`.execute(ctx.database.db);
    const [row] = rows as [{ count: string; total: string; customers: string }];
    return { count: Number(row.count), total: row.total, customers: Number(row.customers) };
  }

  beforeAll(async () => {
    ctx = await createApiApp();
    provider = await sessionFor(ctx.app, 'proveedor.demo');
    corporate = await sessionFor(ctx.app, 'corporativo.demo');
    demoCount = (await get<InvoicePage>(ALLIANCES)).count;
    // 5,001 copies of one of the demo provider's invoices in one statement, each its own folio fiscal and
    // emission day, the word in its description and the other word in every other one (the totals triggers see
    // them as any insert).
    const db = ctx.database.db;
    const { rows } = await sql<{ column_name: string }>`
      select column_name from information_schema.columns
      where table_name = 'invoices' and table_schema = current_schema()
        and column_name not in ('id', 'cfdi_uuid', 'description', 'date_of_emission', 'folio')`.execute(db);
    const columns = sql.join(rows.map((row) => sql.ref(row.column_name)));
    await sql`
      insert into invoices (${columns}, cfdi_uuid, description, date_of_emission, folio)
      select ${columns},
        lpad(to_hex(g), 8, '0') || '-5EA2-4C00-8000-000000000074',
        'Renta de ' || case when g % 2 = 0 then ${OTHER_WORD} || ' ' else '' end || ${WORD} || ' ' || g,
        date '2024-01-01' + (g % 300),
        'S' || g
      from (select * from invoices where emitter_rfc = ${DEMO_PROVIDER.rfc} order by id limit 1) as source,
        generate_series(1, ${COPIES}) as g`.execute(db);
  });
  afterAll(() => ctx.close());

  it('counts a search of two words under the limit exactly, with its sums', async () => {
    const page = await get<InvoicePage>(`${ALLIANCES}?search=${WORD} 17`);
    // 'xilofonos 17' is in copy 17 and in 170–179, 1700–1799: 111 matches.
    expect(page.count).toBe(111);
    expect(page.count_is_estimate).toBe(false);
    expect(page.indicators).toMatchObject({ count: 111, count_is_estimate: false, suppliers_customers: 1 });
    expect(page.indicators?.total).toMatch(/^\d+\.\d{2}$/);
  });

  it('counts a one-word search past the limit exactly, with its sums, in any case and inside a longer word', async () => {
    for (const search of [WORD.toUpperCase(), 'ilofono', OTHER_WORD]) {
      const expected = await recheck(search);
      expect(expected.count).toBeGreaterThan(search === OTHER_WORD ? 2_000 : EXACT_COUNT_LIMIT);
      const page = await get<InvoicePage>(`${ALLIANCES}?search=${search}`);
      expect(page).toMatchObject({ count: expected.count, count_is_estimate: false });
      expect(page.indicators).toMatchObject({
        count: expected.count,
        count_is_estimate: false,
        total: expected.total,
        suppliers_customers: expected.customers,
      });
    }
  });

  it('answers every search as rechecking every match would, by whichever path', async () => {
    // Accents, case, a piece of a word, two words, punctuation, an RFC, a word held by several: the kept words
    // answer some exactly, the recheck the others; the figures are the same either way (decision 0075).
    const searches = [
      'CARTÓN',
      'cartón',
      'distribución',
      'Distrib',
      'ltima',
      'de',
      'S.A.',
      'montacargas',
      'renta de',
    ];
    searches.push(DEMO_PROVIDER.rfc.slice(0, 3), 'Renta', 'xilofonos 17', `${WORD}!`, 'é');
    for (const search of searches) {
      const expected = await recheck(search);
      const page = await get<InvoicePage>(`${ALLIANCES}?search=${encodeURIComponent(search)}`);
      if (page.count_is_estimate) {
        expect(expected.count, search).toBeGreaterThan(EXACT_COUNT_LIMIT);
        continue;
      }
      expect({ search, ...page.indicators }).toMatchObject({
        search,
        count: expected.count,
        total: expected.total,
        suppliers_customers: expected.customers,
      });
    }
  });

  it('past the limit answers the limit as a lower bound, no sums, and exactly the right rows in order', async () => {
    const page = await get<InvoicePage>(`${ALLIANCES}?search=${PREFIX.toUpperCase()}&page_size=25`);
    expect(page.count).toBe(EXACT_COUNT_LIMIT);
    expect(page.count_is_estimate).toBe(true);
    expect(page.indicators).toMatchObject({ count: EXACT_COUNT_LIMIT, count_is_estimate: true });
    expect(page.indicators).not.toHaveProperty('total');
    expect(page.indicators).not.toHaveProperty('suppliers_customers');
    // The rows: the 25 newest copies by emission day, then id, exactly as the database orders every match.
    const { rows } = await sql<{ id: number }>`
      select id from invoices where description like ${`%${PREFIX}%`}
      order by date_of_emission desc, id desc limit 25`.execute(ctx.database.db);
    expect(page.results.map((row) => row.id)).toEqual(rows.map((row) => row.id));
    expect(page.next).toContain('page=2');
  });

  it('pages on past the lower bound while pages are full, and stops at the last match', async () => {
    const lastPage = Math.ceil(COPIES / 25);
    const past = await get<InvoicePage>(`${ALLIANCES}?search=${PREFIX}&page=${lastPage - 1}&page_size=25`);
    expect(past.results).toHaveLength(25);
    expect(past.next).toContain(`page=${lastPage}`);
    const last = await get<InvoicePage>(`${ALLIANCES}?search=${PREFIX}&page=${lastPage}&page_size=25`);
    expect(last.results).toHaveLength(COPIES - (lastPage - 1) * 25);
    expect(last.next).toBeNull();
    expect(last.previous).toContain(`page=${lastPage - 1}`);
  });

  it('keeps every list without a search exact, however long', async () => {
    const page = await get<InvoicePage>(ALLIANCES);
    expect(page.count).toBe(demoCount + COPIES);
    expect(page.count_is_estimate).toBe(false);
    expect(page.indicators?.total).toMatch(/^\d+\.\d{2}$/);
  });

  it("answers the corporate summary's one word exactly and leaves its sums out past the limit otherwise", async () => {
    const word = await get<CorporateSummaryPage>(`${SUMMARY}?search=${WORD}`, corporate);
    expect(word.indicators).toMatchObject({
      count: COPIES,
      count_is_estimate: false,
      suppliers_customers: 1,
    });
    expect(word.indicators?.total).toMatch(/^\d+\.\d{2}$/);
    const prefix = await get<CorporateSummaryPage>(`${SUMMARY}?search=${PREFIX}`, corporate);
    expect(prefix.count_is_estimate).toBe(true);
    expect(prefix.indicators).toEqual({ count: EXACT_COUNT_LIMIT, count_is_estimate: true });
  });

  it('counts a search narrowed by status itself, and follows text changes and deletions back under the limit', async () => {
    const db = ctx.database.db;
    const copies = sql`select id from invoices where description like ${`%${WORD}%`} order by id`;
    const [{ status }] = (
      await sql<{ status: number }>`select status from invoices where id in (${copies}) limit 1`.execute(db)
    ).rows as [{ status: number }];
    const other = status === InvoiceStatus.REJECTED ? InvoiceStatus.AVAILABLE : InvoiceStatus.REJECTED;
    // Two copies move to another status in one statement: each status's search counts its own matches, so the
    // 4,999 left in the first are under the limit and exact (the word's 5,001 are of every status).
    await sql`update invoices set status = ${other} where id in (${copies} limit 2)`.execute(db);
    const kept = await get<InvoicePage>(`${ALLIANCES}?search=${WORD}&status=${status}`);
    expect(kept).toMatchObject({ count: COPIES - 2, count_is_estimate: false });
    const moved = await get<InvoicePage>(`${ALLIANCES}?search=${WORD}&status=${other}`);
    expect(moved).toMatchObject({ count: 2, count_is_estimate: false });
    // One copy's description loses the word (the kept count follows a text change), then three copies are
    // deleted in one statement: 4,997 left, counted exactly again.
    await sql`update invoices set description = 'Renta' where id in (${copies} offset 10 limit 1)`.execute(
      db,
    );
    expect(await get<InvoicePage>(`${ALLIANCES}?search=${WORD}`)).toMatchObject({
      count: COPIES - 1,
      count_is_estimate: false,
    });
    await sql`delete from invoices where id in (${copies} limit 3)`.execute(db);
    const left = await get<InvoicePage>(`${ALLIANCES}?search=${WORD}`);
    expect(left).toMatchObject({ count: COPIES - 4, count_is_estimate: false });
    expect(left.indicators?.total).toMatch(/^\d+\.\d{2}$/);
  });

  it('counts each match once when the folio fields hold the word too, and rechecks when a word is too long to keep', async () => {
    const db = ctx.database.db;
    // A demo invoice (not a copy) whose folio alone holds the word, and a copy whose serie holds it as well.
    await sql`update invoices set folio = ${`${WORD.toUpperCase()}-1`}
      where id = (select min(id) from invoices where emitter_rfc = ${DEMO_PROVIDER.rfc}
        and description not like ${`%${WORD}%`})`.execute(db);
    await sql`update invoices set serie = ${WORD}
      where id = (select min(id) from invoices where description like ${`%${WORD}%`})`.execute(db);
    const copies = await recheck(`${WORD} `);
    const expected = await recheck(WORD);
    expect(expected.count).toBe(copies.count + 1);
    const page = await get<InvoicePage>(`${ALLIANCES}?search=${WORD}`);
    expect(page.indicators).toMatchObject({
      count: expected.count,
      count_is_estimate: false,
      total: expected.total,
      suppliers_customers: expected.customers,
    });
    // A word of 201 characters holding the search in one more description: the kept words cannot say whether a
    // search is inside such a word, so the search is rechecked and still finds it.
    const longWord = `${'z'.repeat(100)}${WORD}${'z'.repeat(92)}`;
    await sql`update invoices set description = ${`Renta ${longWord}`}
      where id = (select max(id) from invoices where emitter_rfc = ${DEMO_PROVIDER.rfc}
        and description not like ${`%${WORD}%`} and folio not like ${`%${WORD.toUpperCase()}%`})`.execute(db);
    const withLong = await recheck(WORD);
    expect(withLong.count).toBe(expected.count + 1);
    expect(await get<InvoicePage>(`${ALLIANCES}?search=${WORD}`)).toMatchObject({
      count: withLong.count,
      count_is_estimate: false,
    });
  });
});
