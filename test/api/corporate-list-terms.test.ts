// @postgresql: what each side of an invoice may read, an access rule of issue 31 that runs on both engines.
import dayjs from 'dayjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDate } from '../../server/http/business-date';
import type { Invoice } from '../../src/domain/schemas/invoices';
import { type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { advanceTo, getJson, importInvoice, postJson } from '../support/pronto-pago';

// Issue 31: the price a provider pays for its advance (cost_consultancy, factoring_rate) is its own business;
// the buyer's lists leave both empty unless the buyer itself funds the advance (then they are its own terms).
describe("the corporate's lists do not carry a provider's factoring terms", () => {
  let ctx: ApiTestContext;
  let provider: Session;
  let corporate: Session;
  const db = () => ctx.database.db;
  const NOW = new Date('2026-03-10T18:00:00Z');
  const today = businessDate(NOW);
  const inDays = (days: number) => dayjs(today).add(days, 'day').format('YYYY-MM-DD');

  beforeAll(async () => {
    ctx = await createApiApp({ now: () => NOW });
    provider = await sessionFor(ctx.app, 'proveedor.demo');
    corporate = await sessionFor(ctx.app, 'corporativo.demo');
  });
  afterAll(() => ctx.close());

  async function rowIn(url: string, session: Session, id: number): Promise<Invoice> {
    const res = await getJson(ctx.app, `${url}?page_size=100`, session);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    const row = res.json<{ results: Invoice[] }>().results.find((item) => item.id === id);
    if (!row) throw new Error(`invoice ${id} is not in ${url}`);
    return row;
  }

  const terms = (row: Invoice) => ({
    cost_consultancy: row.cost_consultancy,
    factoring_rate: row.factoring_rate,
  });
  const hidden = { cost_consultancy: null, factoring_rate: null };

  it("hides the provider's pronto pago terms from the buyer's summary and statement, not from the provider", async () => {
    const id = await importInvoice(db(), { today });
    await advanceTo(db(), id, 'approved', inDays(45));
    const advanced = await postJson(ctx.app, '/api/providers/forward-payment/', provider, {
      id_execute_factoring: id,
    });
    expect(advanced.statusCode, advanced.body).toBe(200);

    expect(terms(await rowIn('/api/providers/advanced-invoices/', provider, id))).toEqual({
      cost_consultancy: '1160.00',
      factoring_rate: 17.4,
    });
    expect(terms(await rowIn('/api/providers/account/statement/', provider, id))).toEqual({
      cost_consultancy: '1160.00',
      factoring_rate: 17.4,
    });
    expect(terms(await rowIn('/api/corporates/summary/', corporate, id))).toEqual(hidden);
    expect(terms(await rowIn('/api/corporates/account/statement/', corporate, id))).toEqual(hidden);
  });

  it('hides them on the requests and pre-authorization lists too', async () => {
    // A pending invoice with a provider's terms on it, as a quote left them on the row.
    const id = await importInvoice(db(), { today });
    await advanceTo(db(), id, 'pending');
    await db()
      .updateTable('invoices')
      .set({ cost_consultancy: '1160.00', cost_financing: '2175.00', factoring_rate: '17.4000' })
      .where('id', '=', id)
      .execute();

    expect(terms(await rowIn('/api/corporates/manually-requests/', corporate, id))).toEqual(hidden);
    expect(terms(await rowIn('/api/corporates/pre-authorization/', corporate, id))).toEqual(hidden);
    expect(terms(await rowIn('/api/corporates/summary/', corporate, id))).toEqual(hidden);
  });

  it('shows the buyer its own terms when it funds the advance', async () => {
    const id = await importInvoice(db(), { today });
    const line = [{ invoice_id: id, payment_date: inDays(45) }];
    const accepted = await postJson(ctx.app, '/api/corporates/quotes/accepted/', corporate, line);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const paid = await postJson(ctx.app, '/api/corporates/full-payment/qoute/', corporate, line);
    expect(paid.statusCode, paid.body).toBe(200);

    expect(terms(await rowIn('/api/corporates/summary/', corporate, id))).toEqual({
      cost_consultancy: '0.00',
      factoring_rate: 17.4,
    });
  });
});
