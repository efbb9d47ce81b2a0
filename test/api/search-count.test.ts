import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { EXACT_COUNT_LIMIT } from '../../src/domain/list-count';
import type { CorporateSummaryPage } from '../../src/domain/schemas/corporates';
import type { InvoicePage } from '../../src/domain/schemas/invoices';
import { type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { DEMO_PROVIDER, getJson } from '../support/pronto-pago';

// Decision 0074: a search counts at most EXACT_COUNT_LIMIT matches; past it the answer says its count is a lower
// bound and leaves the sums out, while its rows stay exactly the right ones.

const ALLIANCES = '/api/providers/alliances/';
const SUMMARY = '/api/corporates/summary/';
/** A word no demo invoice holds, given to the copies. */
const WORD = 'xilofonos';
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

  beforeAll(async () => {
    ctx = await createApiApp();
    provider = await sessionFor(ctx.app, 'proveedor.demo');
    corporate = await sessionFor(ctx.app, 'corporativo.demo');
    demoCount = (await get<InvoicePage>(ALLIANCES)).count;
    // 5,001 copies of one of the demo provider's invoices in one statement, each its own folio fiscal and
    // emission day, the word in its description (the totals triggers see them as any insert).
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
        'Renta de ' || ${WORD} || ' ' || g,
        date '2024-01-01' + (g % 300),
        'S' || g
      from (select * from invoices where emitter_rfc = ${DEMO_PROVIDER.rfc} order by id limit 1) as source,
        generate_series(1, ${COPIES}) as g`.execute(db);
  });
  afterAll(() => ctx.close());

  it('counts a search under the limit exactly, with its sums', async () => {
    const page = await get<InvoicePage>(`${ALLIANCES}?search=${WORD} 17`);
    // 'xilofonos 17' is in copy 17 and in 170–179, 1700–1799: 111 matches.
    expect(page.count).toBe(111);
    expect(page.count_is_estimate).toBe(false);
    expect(page.indicators).toMatchObject({ count: 111, count_is_estimate: false, suppliers_customers: 1 });
    expect(page.indicators?.total).toMatch(/^\d+\.\d{2}$/);
  });

  it('past the limit answers the limit as a lower bound, no sums, and exactly the right rows in order', async () => {
    const page = await get<InvoicePage>(`${ALLIANCES}?search=${WORD.toUpperCase()}&page_size=25`);
    expect(page.count).toBe(EXACT_COUNT_LIMIT);
    expect(page.count_is_estimate).toBe(true);
    expect(page.indicators).toMatchObject({ count: EXACT_COUNT_LIMIT, count_is_estimate: true });
    expect(page.indicators).not.toHaveProperty('total');
    expect(page.indicators).not.toHaveProperty('suppliers_customers');
    // The rows: the 25 newest copies by emission day, then id, exactly as the database orders every match.
    const { rows } = await sql<{ id: number }>`
      select id from invoices where description like ${`%${WORD}%`}
      order by date_of_emission desc, id desc limit 25`.execute(ctx.database.db);
    expect(page.results.map((row) => row.id)).toEqual(rows.map((row) => row.id));
    expect(page.next).toContain('page=2');
  });

  it('pages on past the lower bound while pages are full, and stops at the last match', async () => {
    const lastPage = Math.ceil(COPIES / 25);
    const past = await get<InvoicePage>(`${ALLIANCES}?search=${WORD}&page=${lastPage - 1}&page_size=25`);
    expect(past.results).toHaveLength(25);
    expect(past.next).toContain(`page=${lastPage}`);
    const last = await get<InvoicePage>(`${ALLIANCES}?search=${WORD}&page=${lastPage}&page_size=25`);
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

  it("leaves the corporate summary's sums out past the limit too", async () => {
    const page = await get<CorporateSummaryPage>(`${SUMMARY}?search=${WORD}`, corporate);
    expect(page.count_is_estimate).toBe(true);
    expect(page.indicators).toEqual({ count: EXACT_COUNT_LIMIT, count_is_estimate: true });
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
});
