import dayjs from 'dayjs';
import ExcelJS from 'exceljs';
import { is } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDate } from '../../server/http/business-date';
import { disburseInvoice } from '../../server/modules/control-desk/disbursement.service';
import { DEMO_CORPORATE, DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { formatMoneyAmount, parseMoney, sumMoney } from '../../src/domain/money';
import {
  type StatementPage,
  StatementPage as StatementPageStruct,
  StatementReportResponse,
} from '../../src/domain/schemas/statements';
import {
  CORPORATE_STATEMENT_STATUSES,
  MAX_REPORT_INVOICES,
  PROVIDER_STATEMENT_STATUSES,
  STATEMENT_MESSAGES,
  statementReportName,
} from '../../src/domain/statements';
import { type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { testAuthenticity } from '../support/demo-authority';
import {
  addCompanyWithUser,
  addUserToCompany,
  advanceTo,
  DEMO_PROVIDER,
  getJson,
  importInvoice,
  postJson,
} from '../support/pronto-pago';

const PROVIDER_PATH = '/api/providers/account/statement/';
const CORPORATE_PATH = '/api/corporates/account/statement/';

describe('account statement (estado de cuenta)', () => {
  let ctx: ApiTestContext;
  let provider: Session;
  let corporate: Session;
  let sibling: Session;
  let otherCorporate: Session;
  let advancedId: number;
  let factoredId: number;
  let availableId: number;
  let siblingAdvancedId: number;
  const db = () => ctx.database.db;
  const today = () => businessDate(new Date());
  const paymentDate = () => dayjs(today()).add(45, 'day').format('YYYY-MM-DD');

  async function page(path: string, session: Session, query = 'page_size=100'): Promise<StatementPage> {
    const res = await getJson(ctx.app, `${path}?${query}`, session);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<StatementPage>();
    expect(is(body, StatementPageStruct)).toBe(true);
    return body;
  }

  async function statusCount(side: 'emitter_rfc' | 'receiver_rfc', rfc: string, statuses: readonly number[]) {
    const rows = await db()
      .selectFrom('invoices')
      .select('id')
      .where(side, '=', rfc)
      .where('status', 'in', [...statuses])
      .execute();
    return rows.length;
  }

  /** An invoice of the demo provider taken through the real advance call and disbursed (PAID). */
  async function advancedInvoice(): Promise<number> {
    const id = await importInvoice(db(), { daysAgo: 0, description: 'Cajas de cartón corrugado' });
    await advanceTo(db(), id, 'approved', paymentDate());
    const res = await postJson(ctx.app, '/api/providers/forward-payment/', provider, {
      id_execute_factoring: id,
    });
    expect(res.statusCode, res.body).toBe(200);
    await disburseInvoice(db(), String(id), {
      account: 'pruebas',
      authenticity: testAuthenticity(db()),
      today: today(),
      reference: 'REF-EDO-1',
      force: true,
    });
    return id;
  }

  /**
   * A factored invoice written directly (the factoring calls are built in parallel, decision 0036): FACTORING,
   * its record and a 3-instalment schedule whose first instalment is paid.
   */
  async function factoredInvoice(): Promise<number> {
    const id = await importInvoice(db(), { daysAgo: 0, description: 'Tarimas de madera' });
    await db()
      .updateTable('invoices')
      .set({ status: InvoiceStatus.FACTORING })
      .where('id', '=', id)
      .execute();
    const company = await db()
      .selectFrom('invoices')
      .select('emitter_company_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const record = await db()
      .insertInto('factoring_requests')
      .values({
        invoice_id: id,
        provider_id: company.emitter_company_id,
        rate: '18.5000',
        installments: 3,
        installment_payment: '34625.00',
        total_payment: '103875.00',
        advisory_fee: '1160.00',
        amount_to_transfer: '98840.00',
        line_amount: '100000.00',
        created_at: `${today()}T15:00:00Z`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('factoring_instalments')
      .values(
        [1, 2, 3].map((number) => ({
          factoring_request_id: record.id,
          number,
          due_date: dayjs(today())
            .add(30 * number, 'day')
            .format('YYYY-MM-DD'),
          amount: '34625.00',
          line_release: number === 3 ? '33333.34' : '33333.33',
          paid_at: number === 1 ? new Date().toISOString() : null,
        })),
      )
      .execute();
    return id;
  }

  beforeAll(async () => {
    ctx = await createApiApp();
    provider = await sessionFor(ctx.app, 'proveedor.demo');
    corporate = await sessionFor(ctx.app, 'corporativo.demo');
    await addUserToCompany(db(), {
      rfc: DEMO_PROVIDERS[1].rfc,
      username: 'transportes.edo',
      firstName: 'Tomás',
      lastName: 'Sierra',
    });
    sibling = await sessionFor(ctx.app, 'transportes.edo');
    await addCompanyWithUser(db(), {
      rfc: 'CNO190101AB1',
      name: 'Corporativo del Norte, S.A. de C.V.',
      username: 'corporativo.norte',
      isCorporate: true,
    });
    otherCorporate = await sessionFor(ctx.app, 'corporativo.norte');
    advancedId = await advancedInvoice();
    factoredId = await factoredInvoice();
    availableId = await importInvoice(db(), { daysAgo: 0 });
    const siblingRows = await db()
      .selectFrom('invoices')
      .select('id')
      .where('emitter_rfc', '=', DEMO_PROVIDERS[1].rfc)
      .where('status', 'in', [...PROVIDER_STATEMENT_STATUSES])
      .execute();
    siblingAdvancedId = siblingRows[0]!.id;
  });
  afterAll(() => ctx.close());

  describe('GET providers/account/statement/', () => {
    it('lists the provider’s invoices that moved money, newest first, with indicators', async () => {
      const body = await page(PROVIDER_PATH, provider);
      const expected = await statusCount('emitter_rfc', DEMO_PROVIDER.rfc, PROVIDER_STATEMENT_STATUSES);
      expect(body.count).toBe(expected);
      expect(body.results).toHaveLength(expected);
      expect(body.results.every((row) => row.emitter_rfc === DEMO_PROVIDER.rfc)).toBe(true);
      expect(body.results.every((row) => PROVIDER_STATEMENT_STATUSES.includes(row.status))).toBe(true);
      const keys = body.results.map((row) => `${row.date_of_emission}#${String(row.id).padStart(8, '0')}`);
      expect(keys).toEqual([...keys].sort().reverse());
      expect(body.results.map((row) => row.id)).not.toContain(availableId);
      expect(body.indicators).toMatchObject({ count: expected, suppliers_customers: 1 });
      expect(Object.keys(body.indicators ?? {}).sort()).toEqual(
        [
          'available_credit',
          'count',
          'count_is_estimate',
          'credit_line',
          'credit_used',
          'has_cost_center',
          'payment_date',
          'spei_balance',
          'suppliers_customers',
          'total',
          'total_by_date',
          'used_credit_percentage',
        ].sort(),
      );
      expect(typeof body.has_factoring).toBe('boolean');
    });

    it('names the provider’s next instalment to Flujo, what its factoring line has in use, and no cost centres', async () => {
      // The factored invoice's schedule: instalment 1 (in 30 days) is paid, 2 and 3 are due in 60 and 90 days.
      const indicators = (await page(PROVIDER_PATH, provider)).indicators!;
      expect(indicators).toMatchObject({
        payment_date: dayjs(today()).add(60, 'day').format('YYYY-MM-DD'),
        total_by_date: '34625.00',
        has_cost_center: false,
      });
      // Another provider, with a factoring line of which a third is in use, and money in its SPEI account.
      await db()
        .updateTable('companies')
        .set({ credit_line: '300000.00', credit_used: '100000.00', spei_balance: '1250.50' })
        .where('rfc', '=', DEMO_PROVIDERS[1].rfc)
        .execute();
      expect((await page(PROVIDER_PATH, sibling)).indicators).toMatchObject({
        credit_line: '300000.00',
        credit_used: '100000.00',
        available_credit: '200000.00',
        used_credit_percentage: 33.33,
        spei_balance: '1250.50',
        // Nothing factored: no instalment is due.
        payment_date: null,
        total_by_date: '0.00',
      });
      // The filters apply: a search that leaves the factored invoice out leaves its instalments out.
      const advanced = await page(PROVIDER_PATH, provider, `search=${encodeURIComponent('Cajas de cartón')}`);
      expect(advanced.results.map((row) => row.id)).not.toContain(factoredId);
      expect(advanced.indicators).toMatchObject({ payment_date: null, total_by_date: '0.00' });
    });

    it('shows an advanced invoice’s request and deposit', async () => {
      const row = (await page(PROVIDER_PATH, provider)).results.find((item) => item.id === advancedId)!;
      expect(row.status).toBe(InvoiceStatus.PAID);
      expect(row.factoring_request_id).toBeUndefined();
      expect(row.movements.map((item) => [item.kind, item.status])).toEqual([
        ['advance', 'done'],
        ['disbursement', 'done'],
      ]);
      expect(row.movements[0]).toMatchObject({
        concept: 'Solicitud de adelanto',
        amount: '100000.00',
        date: today(),
      });
      expect(row.movements[1]!.concept).toBe('Depósito del adelanto (referencia REF-EDO-1)');
      const deposit = await db()
        .selectFrom('disbursements')
        .select('amount')
        .where('invoice_id', '=', advancedId)
        .executeTakeFirstOrThrow();
      expect(row.movements[1]!.amount).toBe(deposit.amount);
    });

    it('shows a factored invoice’s transfer, advisory fee and schedule', async () => {
      const row = (await page(PROVIDER_PATH, provider)).results.find((item) => item.id === factoredId)!;
      expect(row.status).toBe(InvoiceStatus.FACTORING);
      expect(row.factoring_request_id).toEqual(expect.any(Number));
      expect(row.movements).toEqual([
        {
          date: today(),
          kind: 'factoring_transfer',
          concept: 'Transferencia de factoraje',
          amount: '98840.00',
          status: 'done',
        },
        {
          date: today(),
          kind: 'advisory_fee',
          concept: 'Comisión de asesoría (IVA incluido)',
          amount: '1160.00',
          status: 'done',
        },
        ...[1, 2, 3].map((number) => ({
          date: dayjs(today())
            .add(30 * number, 'day')
            .format('YYYY-MM-DD'),
          kind: 'instalment',
          concept: `Parcialidad ${number} de 3`,
          amount: '34625.00',
          status: number === 1 ? 'done' : 'pending',
        })),
      ]);
    });

    it('pages, searches and filters by period; the extras only on the first page', async () => {
      const all = await page(PROVIDER_PATH, provider);
      const second = await page(PROVIDER_PATH, provider, 'page_size=1&page=2');
      expect(second.results.map((row) => row.id)).toEqual([all.results[1]!.id]);
      expect(second.indicators).toBeUndefined();
      expect(second.previous).toBe('http://localhost/api/providers/account/statement/?page_size=1&page=1');
      const factored = all.results.find((row) => row.id === factoredId)!;
      const found = await page(PROVIDER_PATH, provider, `search=${factored.fiscal_folio.slice(0, 13)}`);
      expect(found.results.map((row) => row.id)).toEqual([factoredId]);
      expect(found.indicators).toMatchObject({ count: 1, total: '100000.00' });
      const current = await page(PROVIDER_PATH, provider, 'period=10&page_size=100');
      expect(current.results.map((row) => row.id)).toEqual(expect.arrayContaining([advancedId, factoredId]));
      const old = await page(PROVIDER_PATH, provider, 'period=40,50&page_size=100');
      expect(old.results.map((row) => row.id)).not.toContain(advancedId);
      const bad = await getJson(ctx.app, `${PROVIDER_PATH}?period=99&page_size=500`, provider);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ period: ['Valor no válido'], page_size: ['Valor no válido'] });
    });

    it('keeps each provider to its own rows', async () => {
      const body = await page(PROVIDER_PATH, sibling);
      expect(body.count).toBeGreaterThan(0);
      expect(body.results.every((row) => row.emitter_rfc === DEMO_PROVIDERS[1].rfc)).toBe(true);
      expect(body.results.map((row) => row.id)).not.toContain(advancedId);
    });

    it('needs a session (401)', async () => {
      expect((await getJson(ctx.app, PROVIDER_PATH, null)).statusCode).toBe(401);
    });
  });

  describe('GET corporates/account/statement/', () => {
    it('lists the received invoices Flujo advanced with what the buyer owes and when', async () => {
      const body = await page(CORPORATE_PATH, corporate);
      const expected = await statusCount('receiver_rfc', DEMO_CORPORATE.rfc, CORPORATE_STATEMENT_STATUSES);
      expect(body.count).toBe(expected);
      expect(body.results.every((row) => row.receiver_rfc === DEMO_CORPORATE.rfc)).toBe(true);
      expect(body.results.every((row) => CORPORATE_STATEMENT_STATUSES.includes(row.status))).toBe(true);
      expect(body.results.map((row) => row.id)).not.toContain(factoredId);
      const row = body.results.find((item) => item.id === advancedId)!;
      expect(row.movements).toEqual([
        {
          date: today(),
          kind: 'disbursement',
          concept: 'Flujo adelantó el pago a tu proveedor',
          amount: '100000.00',
          status: 'done',
        },
        {
          date: paymentDate(),
          kind: 'instalment',
          concept: 'Pago a Flujo en la fecha de corte',
          amount: '100000.00',
          status: 'pending',
        },
      ]);
      const indicators = body.indicators!;
      // The demo corporate has a credit programme: its utilisation comes with the statement (decision 0052).
      expect(Object.keys(indicators).sort()).toEqual([
        'available_credit',
        'count',
        'count_is_estimate',
        'credit_line',
        'credit_used',
        'cut_off_dates',
        'has_cost_center',
        'payment_date',
        'providers',
        'spei_balance',
        'suppliers_customers',
        'total',
        'total_by_date',
        'used_credit_percentage',
      ]);
      expect(indicators.count).toBe(expected);
      const providers = new Set(body.results.map((item) => item.emitter_rfc));
      expect(indicators.providers).toBe(providers.size);
      expect(indicators.suppliers_customers).toBe(providers.size);
      expect(indicators.cut_off_dates).toContain(paymentDate());
      const dates = indicators.cut_off_dates ?? [];
      expect(dates).toEqual([...new Set(dates)].sort());
      expect(dates.every((date) => date >= today())).toBe(true);
      // The next cut-off date and what the corporate pays Flujo that day: the MXN amounts of the rows due then.
      expect(indicators.payment_date).toBe(dates[0]);
      const dueThen = body.results.filter((item) => item.payment_date === dates[0]);
      expect(dueThen.length).toBeGreaterThan(0);
      expect(indicators.total_by_date).toBe(
        formatMoneyAmount(sumMoney(dueThen.map((item) => parseMoney(item.amount_with_exchange_rate!)))),
      );
      expect(indicators.has_cost_center).toBe(false);
      const company = await db()
        .selectFrom('companies')
        .select('spei_balance')
        .where('rfc', '=', DEMO_CORPORATE.rfc)
        .executeTakeFirstOrThrow();
      expect(indicators.spei_balance).toBe(formatMoneyAmount(parseMoney(company.spei_balance)));
    });

    it('is refused to a provider account (403) and shows another corporate nothing of this one', async () => {
      const refused = await getJson(ctx.app, CORPORATE_PATH, provider);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().detail).toBe('Esta operación es solo para cuentas corporativas.');
      // Its SPEI account holds money: the indicator reads its own balance, nothing of the demo corporate's.
      await db()
        .updateTable('companies')
        .set({ spei_balance: '5000.00' })
        .where('rfc', '=', 'CNO190101AB1')
        .execute();
      const other = await page(CORPORATE_PATH, otherCorporate);
      expect(other.count).toBe(0);
      expect(other.results).toEqual([]);
      expect(other.indicators).toMatchObject({
        count: 0,
        total: '0.00',
        providers: 0,
        suppliers_customers: 0,
        cut_off_dates: [],
        payment_date: null,
        total_by_date: '0.00',
        spei_balance: '5000.00',
        has_cost_center: false,
      });
    });
  });

  describe('POST …/account/statement/ (report)', () => {
    async function openReport(body: unknown) {
      expect(is(body, StatementReportResponse)).toBe(true);
      const { file_data: data, file_name: name } = body as StatementReportResponse;
      expect(name).toBe(statementReportName(today()));
      const workbook = new ExcelJS.Workbook();
      // exceljs types its input as the Buffer of older @types/node; the bytes are the same.
      await workbook.xlsx.load(Buffer.from(data, 'base64') as unknown as ArrayBuffer);
      return workbook;
    }

    it('gives the provider an XLSX of the selected invoices and their movements', async () => {
      const res = await postJson(ctx.app, PROVIDER_PATH, provider, {
        invoices_ids: [advancedId, factoredId, advancedId],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const workbook = await openReport(res.json());
      const invoices = workbook.getWorksheet('Facturas')!;
      expect(invoices.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
      const header = invoices.getRow(1).values as unknown[];
      expect(header).toEqual(
        expect.arrayContaining(['Folio fiscal', 'Cliente', 'Fecha de pago', 'Monto MXN', 'Pendiente MXN']),
      );
      expect(invoices.rowCount).toBe(3);
      const uuidColumn = header.indexOf('Folio fiscal');
      const stored = await db()
        .selectFrom('invoices')
        .select(['id', 'cfdi_uuid'])
        .where('id', 'in', [advancedId, factoredId])
        .execute();
      const uuids = [2, 3].map((row) => invoices.getRow(row).getCell(uuidColumn).value);
      expect(uuids.sort()).toEqual(stored.map((row) => row.cfdi_uuid).sort());
      const factoredRow = [2, 3].find(
        (row) =>
          invoices.getRow(row).getCell(uuidColumn).value ===
          stored.find((item) => item.id === factoredId)!.cfdi_uuid,
      )!;
      const cell = (name: string) => invoices.getRow(factoredRow).getCell(header.indexOf(name));
      expect(cell('Monto MXN').value).toBe(100000);
      expect(cell('Monto MXN').numFmt).toContain('#,##0.00');
      expect(cell('Pendiente MXN').value).toBe(69250);
      expect(cell('Estado').value).toBe('Factoraje');
      expect(cell('Fecha de emisión').value).toBeInstanceOf(Date);
      expect(cell('Cliente').value).toBe(DEMO_CORPORATE.name);

      const movements = workbook.getWorksheet('Movimientos')!;
      expect(movements.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
      const concepts: unknown[] = [];
      movements.eachRow((row, number) => {
        if (number > 1) concepts.push(row.getCell(5).value);
      });
      expect(concepts).toHaveLength(2 + 5);
      expect(concepts).toContain('Parcialidad 2 de 3');
      expect(concepts).toContain('Depósito del adelanto (referencia REF-EDO-1)');
      expect(movements.getRow(2).getCell(3).value).toBeInstanceOf(Date);
      expect(typeof movements.getRow(2).getCell(6).value).toBe('number');
    });

    it('gives the corporate the report of its received advanced invoices', async () => {
      const res = await postJson(ctx.app, CORPORATE_PATH, corporate, { invoices_ids: [advancedId] });
      expect(res.statusCode, res.body).toBe(200);
      const workbook = await openReport(res.json());
      const invoices = workbook.getWorksheet('Facturas')!;
      expect(invoices.rowCount).toBe(2);
      const header = invoices.getRow(1).values as unknown[];
      expect(invoices.getRow(2).getCell(header.indexOf('Proveedor')).value).toBe(DEMO_PROVIDER.name);
      expect(invoices.getRow(2).getCell(header.indexOf('Estado')).value).toBe('Adelantada');
    });

    it('refuses an empty list, too many ids and anything but integer ids (400, Spanish)', async () => {
      const empty = await postJson(ctx.app, PROVIDER_PATH, provider, { invoices_ids: [] });
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toEqual({ invoices_ids: [STATEMENT_MESSAGES.empty] });
      const many = Array.from({ length: MAX_REPORT_INVOICES + 1 }, (_, index) => index + 1);
      const tooMany = await postJson(ctx.app, PROVIDER_PATH, provider, { invoices_ids: many });
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.json()).toEqual({ invoices_ids: [STATEMENT_MESSAGES.tooMany] });
      const missing = await postJson(ctx.app, PROVIDER_PATH, provider, {});
      expect(missing.statusCode).toBe(400);
      const text = await postJson(ctx.app, PROVIDER_PATH, provider, { invoices_ids: ['x'] });
      expect(text.statusCode).toBe(400);
    });

    it('never reports another company’s invoice or one outside the statement (404, names none)', async () => {
      for (const ids of [
        [advancedId, siblingAdvancedId],
        [availableId],
        [2_147_483_648],
        [factoredId, 999_999],
      ]) {
        const res = await postJson(ctx.app, PROVIDER_PATH, provider, { invoices_ids: ids });
        expect(res.statusCode, JSON.stringify(ids)).toBe(404);
        expect(res.json().detail).toBe(STATEMENT_MESSAGES.notInStatement(1));
        expect(res.body).not.toContain(DEMO_PROVIDERS[1].rfc);
      }
      // The corporate's statement does not hold factored invoices; another corporate holds none of these.
      expect(
        (await postJson(ctx.app, CORPORATE_PATH, corporate, { invoices_ids: [factoredId] })).statusCode,
      ).toBe(404);
      const foreign = await postJson(ctx.app, CORPORATE_PATH, otherCorporate, { invoices_ids: [advancedId] });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.body).not.toContain(DEMO_PROVIDER.rfc);
    });

    it('needs a session (401) and, on the corporate path, a corporate account (403)', async () => {
      expect((await postJson(ctx.app, PROVIDER_PATH, null, { invoices_ids: [advancedId] })).statusCode).toBe(
        401,
      );
      expect((await postJson(ctx.app, CORPORATE_PATH, null, { invoices_ids: [advancedId] })).statusCode).toBe(
        401,
      );
      const wrongRole = await postJson(ctx.app, CORPORATE_PATH, provider, { invoices_ids: [advancedId] });
      expect(wrongRole.statusCode).toBe(403);
    });
  });
});
