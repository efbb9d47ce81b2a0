import dayjs from 'dayjs';
import { is } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDate } from '../../server/http/business-date';
import { DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { isInPeriods, Period } from '../../src/domain/period';
import { SatStatus } from '../../src/domain/sat-status';
import { type Invoice, InvoicePage } from '../../src/domain/schemas/invoices';
import { type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { addCompanyWithUser, advanceTo, DEMO_PROVIDER, getJson, importInvoice } from '../support/pronto-pago';

const LIST = '/api/providers/alliances/';

describe('GET /api/providers/alliances/', () => {
  let ctx: ApiTestContext;
  let provider: Session;
  const db = () => ctx.database.db;
  const today = () => businessDate(new Date());
  const list = async (query = '', session: Session = provider) => {
    const res = await getJson(ctx.app, `${LIST}${query}`, session);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<InvoicePage>();
  };

  beforeAll(async () => {
    ctx = await createApiApp();
    provider = await sessionFor(ctx.app, 'proveedor.demo');
  });
  afterAll(() => ctx.close());

  it('lists only the invoices the caller’s company issued, newest emission first, in the spec’s shape', async () => {
    const page = await list('?page_size=100');
    expect(is(page, InvoicePage)).toBe(true);
    expect(page.count).toBe(16);
    expect(page.results.every((row) => row.emitter_rfc === DEMO_PROVIDER.rfc)).toBe(true);
    const keys = page.results.map((row) => `${row.date_of_emission}#${String(row.id).padStart(8, '0')}`);
    expect(keys).toEqual([...keys].sort().reverse());
    expect(Object.keys(page.results[0] as Invoice).sort()).toEqual(
      [
        'id',
        'fiscal_folio',
        // Flujo's addition to the spec's item (decision 0018): the CFDI's serie-folio the table shows.
        'serie_folio',
        'emitter_name',
        'emitter_rfc',
        'receiver_name',
        'receiver_rfc',
        'date_of_emission',
        'payment_date',
        'amount',
        'description',
        'status',
        'days_payable',
        'factoring_date',
        'amount_with_exchange_rate',
        'amount_with_exchange_rate_usd',
        'exchange_rate',
        'cost_consultancy',
        'factoring_rate',
      ].sort(),
    );
    // The demo CFDI carry serie 'A' and a folio.
    expect(page.results.every((row) => /^A-\d+$/.test(row.serie_folio ?? ''))).toBe(true);
  });

  it('writes money as strings, "-" for a missing exchange rate, and the dollar amount of USD invoices', async () => {
    const { results } = await list('?page_size=100');
    const mxn = results.find((row) => row.exchange_rate === '-');
    const usd = results.find((row) => row.exchange_rate !== '-');
    expect(mxn).toMatchObject({
      amount_with_exchange_rate_usd: null,
      amount: mxn?.amount_with_exchange_rate,
    });
    expect(usd?.exchange_rate).toBe('17.245');
    expect(usd?.amount_with_exchange_rate_usd).toBe(usd?.amount);
    for (const row of results) expect(row.amount).toMatch(/^\d+\.\d{2}$/);
  });

  it('counts days_payable from today to the payment date', async () => {
    const id = await importInvoice(db());
    const paymentDate = dayjs(today()).add(37, 'day').format('YYYY-MM-DD');
    await advanceTo(db(), id, 'approved', paymentDate);
    const row = (await list('?status=30&page_size=100')).results.find((r) => r.id === id);
    expect(row).toMatchObject({ payment_date: paymentDate, days_payable: 37, status: 30 });
  });

  it('pages by 25 with DRF links; the first page alone carries indicators and has_factoring', async () => {
    const first = await list('?page_size=5&status=80');
    expect(first.results).toHaveLength(5);
    expect(first.previous).toBeNull();
    expect(first.next).toBe('http://localhost/api/providers/alliances/?page_size=5&status=80&page=2');
    expect(first.has_factoring).toBe(false);
    expect(first.indicators).toEqual({
      total: expect.stringMatching(/^\d+\.\d{2}$/),
      count: first.count,
      count_is_estimate: false,
      suppliers_customers: 1,
      available_credit: '0.00',
      credit_used: '0.00',
      spei_balance: '0.00',
    });
    const second = await list('?page_size=5&status=80&page=2');
    expect(second.indicators).toBeUndefined();
    expect(second.has_factoring).toBeUndefined();
    expect(second.previous).toBe('http://localhost/api/providers/alliances/?page_size=5&status=80&page=1');
    expect(second.results.map((r) => r.id)).not.toContain(first.results[0]?.id);
    const beyond = await list('?page_size=5&page=40');
    expect(beyond.results).toEqual([]);
    expect(beyond.next).toBeNull();
    const defaults = await list();
    expect(defaults.results.length).toBe(Math.min(25, defaults.count));
  });

  it('totals the MXN value of every match in the indicators', async () => {
    const all = await list('?page_size=100');
    const sum = all.results.reduce(
      (total, row) => total + Math.round(Number(row.amount_with_exchange_rate) * 100),
      0,
    );
    expect(all.indicators?.total).toBe((sum / 100).toFixed(2));
  });

  it('filters by status; 80 means every status', async () => {
    const all = await list('?status=80&page_size=100');
    for (const status of [60, 40, 30, 50, 10, 90, 70, 20]) {
      const page = await list(`?status=${status}&page_size=100`);
      expect(page.results.every((row) => row.status === status)).toBe(true);
      expect(page.count).toBe(all.results.filter((row) => row.status === status).length);
    }
  });

  it('searches folio, client RFC, client name, description and folio fiscal, case-insensitively', async () => {
    const all = (await list('?page_size=100')).results;
    const sample = all[3] as Invoice;
    const byUuid = await list(`?search=${sample.fiscal_folio.slice(0, 13).toLowerCase()}`);
    expect(byUuid.results.map((r) => r.id)).toEqual([sample.id]);
    const byFolio = await list('?search=A-1003');
    expect(byFolio.count).toBe(1);
    expect((await list('?search=gaa150312')).count).toBe(all.length);
    expect((await list('?search=ALTAMIRA')).count).toBe(all.length);
    const described = await list('?search=corrugado');
    expect(described.count).toBeGreaterThan(0);
    expect(described.results.every((r) => r.description.toLowerCase().includes('corrugado'))).toBe(true);
  });

  it('searches wildcards literally (ILIKE escaped)', async () => {
    expect((await list('?search=%25')).count).toBe(0);
    expect((await list('?search=_')).count).toBe(0);
    expect((await list('?search=%5C')).count).toBe(0);
  });

  it('filters by period of emission, months as the domain defines them', async () => {
    const all = (await list('?page_size=100')).results;
    for (const periods of [[Period.CURRENT_MONTH], [Period.PAST_MONTH, Period.THREE_MONTHS_AGO]]) {
      const page = await list(`?page_size=100&period=${periods.join(',')}`);
      const expected = all
        .filter((row) => isInPeriods(row.date_of_emission, periods, today()))
        .map((r) => r.id);
      expect(page.results.map((r) => r.id).sort()).toEqual(expected.sort());
    }
    const repeated = await list('?page_size=100&period=10&period=20');
    expect(repeated.count).toBe(
      all.filter((row) => isInPeriods(row.date_of_emission, [10, 20], today())).length,
    );
  });

  it('answers 400 per field for bad filters, never a 500', async () => {
    const res = await getJson(
      ctx.app,
      `${LIST}?status=99&period=10,60&page=0&page_size=1000&search=${'x'.repeat(101)}`,
      provider,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      status: ['Valor no válido'],
      period: ['Valor no válido'],
      page: ['Valor no válido'],
      page_size: ['Valor no válido'],
      search: ['La búsqueda admite como máximo 100 caracteres.'],
    });
    for (const query of ['?page=abc', '?status=todas', '?period=x', '?page=99999999999']) {
      expect((await getJson(ctx.app, `${LIST}${query}`, provider)).statusCode, query).toBe(400);
    }
  });

  it('needs a session (401), a company and an authorized SAT link (403)', async () => {
    expect((await getJson(ctx.app, LIST, null)).statusCode).toBe(401);
    await addCompanyWithUser(db(), {
      rfc: null,
      name: 'Recién llegada',
      username: 'nueva.alianzas',
      satStatus: SatStatus.DONT_SENT,
    });
    const newcomer = await sessionFor(ctx.app, 'nueva.alianzas');
    const res = await getJson(ctx.app, LIST, newcomer);
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toBe(
      'Tu vinculación con el SAT no está autorizada. Vincula tu cuenta para continuar.',
    );
  });

  it('shows another provider only its own invoices', async () => {
    await addCompanyWithUser(db(), {
      rfc: 'PFL200115K34',
      name: 'Proveedora Flores y Limón',
      username: 'otra.proveedora',
    });
    const stranger = await sessionFor(ctx.app, 'otra.proveedora');
    const page = await list('', stranger);
    expect(page.count).toBe(0);
    expect(page.indicators).toMatchObject({ count: 0, total: '0.00', suppliers_customers: 0 });
    const own = await list('?status=60&page_size=100');
    expect(own.results.every((r) => r.emitter_rfc !== DEMO_PROVIDERS[1].rfc)).toBe(true);
  });
});
