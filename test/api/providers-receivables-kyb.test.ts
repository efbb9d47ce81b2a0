import { randomUUID } from 'node:crypto';
import dayjs from 'dayjs';
import { sql } from 'kysely';
import { is } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/database';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { formatMoneyAmount, parseMoney } from '../../src/domain/money';
import { PROVIDER_REQUEST_MESSAGES } from '../../src/domain/provider-requests';
import { RECEIVABLE_STATUSES } from '../../src/domain/receivables';
import {
  InvoicePage,
  KnowYourBusinessPage,
  type KnowYourBusinessRow,
} from '../../src/domain/schemas/invoices';
import { type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { addCompanyWithUser, DEMO_PROVIDER, getJson } from '../support/pronto-pago';

const RECEIVABLES = '/api/providers/accounts-receivable/';
const KYB = '/api/providers/know-your-business/';

/**
 * A CFDI the demo provider received (an expense), written straight into `invoices`: the importer takes only
 * CFDI received by corporates today (decision 0038), so no file path can bring one in yet.
 */
async function insertReceivedCfdi(
  db: Db,
  input: {
    emitter: { id: number; rfc: string; name: string };
    receiver: { id: number; rfc: string; name: string };
    date: string;
    amount: string;
    currency: 'MXN' | 'USD';
    status?: number;
  },
): Promise<number> {
  const rate = input.currency === 'USD' ? '17.245' : null;
  const mxn =
    rate === null ? input.amount : formatMoneyAmount(Math.round(parseMoney(input.amount) * Number(rate)));
  const row = await db
    .insertInto('invoices')
    .values({
      cfdi_uuid: randomUUID().toUpperCase(),
      serie: 'G',
      folio: String(Math.floor(Math.random() * 1e6)),
      emitter_company_id: input.emitter.id,
      receiver_company_id: input.receiver.id,
      emitter_rfc: input.emitter.rfc,
      emitter_name: input.emitter.name,
      receiver_rfc: input.receiver.rfc,
      receiver_name: input.receiver.name,
      issued_at: `${input.date}T09:00:00`,
      date_of_emission: input.date,
      subtotal: input.amount,
      amount: input.amount,
      currency: input.currency,
      exchange_rate: rate,
      amount_with_exchange_rate: mxn,
      description: 'Compra de insumos',
      status: input.status ?? InvoiceStatus.AVAILABLE,
      cfdi_xml: '<cfdi/>',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('GET providers/accounts-receivable/ and providers/know-your-business/', () => {
  let ctx: ApiTestContext;
  let provider: Session;
  let stranger: Session;
  let corporate: Session;
  const db = () => ctx.database.db;
  const get = async <T>(url: string, session: Session = provider) => {
    const res = await getJson(ctx.app, url, session);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  };

  beforeAll(async () => {
    ctx = await createApiApp();
    provider = await sessionFor(ctx.app, 'proveedor.demo');
    corporate = await sessionFor(ctx.app, 'corporativo.demo');
    await addCompanyWithUser(db(), {
      rfc: 'PFL200115K34',
      name: 'Proveedora Flores y Limón',
      username: 'ajeno',
    });
    stranger = await sessionFor(ctx.app, 'ajeno');
    // Expenses of the demo provider: CFDI a supplier of its own issued to it, one of them cancelled.
    const supplier = await db()
      .insertInto('companies')
      .values({ rfc: 'PCE0101017K3', name: 'Papelera del Centro, S.A. de C.V.' })
      .returning(['id', 'rfc', 'name'])
      .executeTakeFirstOrThrow();
    const me = await db()
      .selectFrom('companies')
      .select(['id', 'rfc', 'name'])
      .where('rfc', '=', DEMO_PROVIDER.rfc)
      .executeTakeFirstOrThrow();
    const emitter = { id: supplier.id, rfc: supplier.rfc ?? '', name: supplier.name };
    const receiver = { id: me.id, rfc: me.rfc ?? '', name: me.name };
    const lastMonth = dayjs().subtract(1, 'month').startOf('month').add(4, 'day').format('YYYY-MM-DD');
    await insertReceivedCfdi(db(), {
      emitter,
      receiver,
      date: lastMonth,
      amount: '12500.00',
      currency: 'MXN',
    });
    await insertReceivedCfdi(db(), { emitter, receiver, date: lastMonth, amount: '800.50', currency: 'USD' });
    await insertReceivedCfdi(db(), {
      emitter,
      receiver,
      date: lastMonth,
      amount: '999.99',
      currency: 'MXN',
      status: InvoiceStatus.DISABLED,
    });
  });
  afterAll(() => ctx.close());

  describe('accounts-receivable', () => {
    it('lists the provider’s issued invoices still owed: no Pagada, factoring or Cancelada, newest first', async () => {
      const page = await get<InvoicePage>(`${RECEIVABLES}?page_size=100`);
      expect(is(page, InvoicePage)).toBe(true);
      const owed = await db()
        .selectFrom('invoices')
        .select('id')
        .where('emitter_rfc', '=', DEMO_PROVIDER.rfc)
        .where('status', 'in', RECEIVABLE_STATUSES)
        .execute();
      expect(page.count).toBe(owed.length);
      expect(page.count).toBeGreaterThan(0);
      expect(new Set(page.results.map((row) => row.id))).toEqual(new Set(owed.map((row) => row.id)));
      for (const row of page.results) {
        expect(row.emitter_rfc).toBe(DEMO_PROVIDER.rfc);
        expect([InvoiceStatus.PAID, InvoiceStatus.FACTORING, InvoiceStatus.DISABLED]).not.toContain(
          row.status,
        );
      }
      const dates = page.results.map((row) => row.date_of_emission);
      expect(dates).toEqual([...dates].sort().reverse());
      expect(page.indicators).toEqual({
        total: expect.stringMatching(/^\d+\.\d{2}$/),
        count: page.count,
        count_is_estimate: false,
        suppliers_customers: 1,
      });
    });

    it('filters by search and period, pages by 25, and answers an empty page when nothing matches', async () => {
      const first = await get<InvoicePage>(`${RECEIVABLES}?page_size=3`);
      expect(first.results).toHaveLength(3);
      expect(first.next).toContain('page=2');
      const second = await get<InvoicePage>(`${RECEIVABLES}?page_size=3&page=2`);
      expect(second.indicators).toBeUndefined();
      const empty = await get<InvoicePage>(`${RECEIVABLES}?search=no-existe-nada`);
      expect(empty).toMatchObject({ count: 0, next: null, previous: null, results: [] });
      expect(empty.indicators?.count).toBe(0);
      const current = await get<InvoicePage>(`${RECEIVABLES}?period=10,20&page_size=100`);
      const monthAgo = dayjs().subtract(1, 'month').startOf('month').format('YYYY-MM-DD');
      expect(current.results.every((row) => row.date_of_emission >= monthAgo)).toBe(true);
      const bad = await getJson(ctx.app, `${RECEIVABLES}?period=99`, provider);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ period: ['Valor no válido'] });
    });

    it('a cancelled invoice disappears from the list', async () => {
      const before = await get<InvoicePage>(`${RECEIVABLES}?page_size=100`);
      const target = before.results[0];
      if (!target) throw new Error('no receivable');
      await db()
        .updateTable('invoices')
        .set({ status: InvoiceStatus.DISABLED })
        .where('id', '=', target.id)
        .execute();
      const after = await get<InvoicePage>(`${RECEIVABLES}?page_size=100`);
      expect(after.results.map((row) => row.id)).not.toContain(target.id);
      expect(after.count).toBe(before.count - 1);
      await db().updateTable('invoices').set({ status: target.status }).where('id', '=', target.id).execute();
    });
  });

  describe('know-your-business', () => {
    it('income_invoices: every CFDI the company issued, with total, count and customers', async () => {
      const page = await get<InvoicePage>(`${KYB}?type=income_invoices&page_size=100`);
      expect(is(page, InvoicePage)).toBe(true);
      expect(page.count).toBe(16);
      expect(page.results.every((row) => row.emitter_rfc === DEMO_PROVIDER.rfc)).toBe(true);
      expect(page.indicators).toMatchObject({ count: 16, suppliers_customers: 1 });
      const searched = await get<InvoicePage>(`${KYB}?type=income_invoices&search=A-1003`);
      expect(searched.results.map((row) => row.serie_folio)).toEqual(['A-1003']);
    });

    it('expense_invoices: every CFDI the company received, cancelled included', async () => {
      const page = await get<InvoicePage>(`${KYB}?type=expense_invoices`);
      expect(page.count).toBe(3);
      expect(page.results.every((row) => row.receiver_rfc === DEMO_PROVIDER.rfc)).toBe(true);
      expect(page.indicators).toMatchObject({ count: 3, suppliers_customers: 1 });
      const other = await get<InvoicePage>(`${KYB}?type=expense_invoices`, stranger);
      expect(other).toMatchObject({ count: 0, results: [] });
    });

    it('resume_indicators: one row per month, newest first, equal to an independent SQL cross-check', async () => {
      const page = await get<KnowYourBusinessPage>(`${KYB}?type=resume_indicators`);
      expect(is(page, KnowYourBusinessPage)).toBe(true);
      const months = page.results.map((row) => row.indicator_date);
      expect(months).toEqual([...months].sort().reverse());
      expect(months.every((month) => /^\d{4}-\d{2}$/.test(month))).toBe(true);

      // Raw sums over `invoices`, grouped by month, side and currency, with no code of the service.
      const { rows } = await sql<{
        month: string;
        side: string;
        currency: string;
        cancelled: boolean;
        amount: string;
        mxn: string;
      }>`
        select to_char(date_of_emission, 'YYYY-MM') as month,
               case when emitter_rfc = ${DEMO_PROVIDER.rfc} then 'in' else 'out' end as side,
               currency, status = 70 as cancelled,
               sum(amount)::text as amount, sum(amount_with_exchange_rate)::text as mxn
        from invoices
        where emitter_rfc = ${DEMO_PROVIDER.rfc} or receiver_rfc = ${DEMO_PROVIDER.rfc}
        group by 1, 2, 3, 4`.execute(db());
      const expected = new Map<string, Record<string, number>>();
      for (const row of rows) {
        const figures = expected.get(row.month) ?? {
          incomes_mxn: 0,
          expenses_mxn: 0,
          incomes_usd: 0,
          expenses_usd: 0,
          incomes_canceled: 0,
          expenses_canceled: 0,
        };
        const side = row.side === 'in' ? 'incomes' : 'expenses';
        const cents = (text: string) => Math.round(Number(text) * 100);
        if (row.cancelled) figures[`${side}_canceled`]! += cents(row.mxn);
        else if (row.currency === 'USD') figures[`${side}_usd`]! += cents(row.amount);
        else figures[`${side}_mxn`]! += cents(row.mxn);
        expected.set(row.month, figures);
      }
      expect(page.count).toBe(expected.size);
      const money = (cents: number) => (cents / 100).toFixed(2);
      const wanted: KnowYourBusinessRow[] = [...expected.entries()]
        .sort(([a], [b]) => b.localeCompare(a))
        .map(([month, f]) => ({
          indicator_date: month,
          incomes_mxn: money(f.incomes_mxn!),
          expenses_mxn: money(f.expenses_mxn!),
          incomes_usd: money(f.incomes_usd!),
          expenses_usd: money(f.expenses_usd!),
          net_capital_mxn: money(f.incomes_mxn! - f.expenses_mxn!),
          net_capital_usd: money(f.incomes_usd! - f.expenses_usd!),
          incomes_canceled: money(f.incomes_canceled!),
          expenses_canceled: money(f.expenses_canceled!),
        }));
      expect(page.results).toEqual(wanted);

      // The worked month: last month holds the three received CFDI.
      const lastMonth = page.results.find(
        (row) => row.indicator_date === dayjs().subtract(1, 'month').format('YYYY-MM'),
      );
      expect(lastMonth).toMatchObject({ expenses_usd: '800.50', expenses_canceled: '999.99' });
      expect(parseMoney(lastMonth?.expenses_mxn ?? '0')).toBe(1_250_000);
    });

    it('pages the months and refuses a missing or unknown type in Spanish', async () => {
      const one = await get<KnowYourBusinessPage>(`${KYB}?type=resume_indicators&page_size=1`);
      expect(one.results).toHaveLength(1);
      expect(one.next).toContain('page=2');
      for (const query of ['', '?type=otro', '?type=']) {
        const res = await getJson(ctx.app, `${KYB}${query}`, provider);
        expect(res.statusCode, query).toBe(400);
        expect(res.json()).toEqual({ type: [PROVIDER_REQUEST_MESSAGES.knowYourBusinessType] });
      }
    });

    it('another provider sees only its own (empty) figures', async () => {
      const page = await get<KnowYourBusinessPage>(`${KYB}?type=resume_indicators`, stranger);
      expect(page).toMatchObject({ count: 0, results: [] });
      const income = await get<InvoicePage>(`${KYB}?type=income_invoices`, stranger);
      expect(income.count).toBe(0);
      const receivables = await get<InvoicePage>(RECEIVABLES, stranger);
      expect(receivables.count).toBe(0);
    });
  });

  it.each([RECEIVABLES, `${KYB}?type=resume_indicators`, `${KYB}?type=income_invoices`])(
    '%s: no token 401, a corporate account 403',
    async (url) => {
      expect((await getJson(ctx.app, url, null)).statusCode).toBe(401);
      const res = await getJson(ctx.app, url, corporate);
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toBe(PROVIDER_REQUEST_MESSAGES.providerOnly);
    },
  );
});
