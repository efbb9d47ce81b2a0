// @postgresql: two runs of the job at once must store and e-mail each statement once (the UNIQUE key decides)
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { is } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthlyStatementsJob } from '../../server/modules/statements/monthly-statements.job';
import { produceMonthlyStatements } from '../../server/modules/statements/monthly-statements.service';
import { DEMO_CORPORATE, DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { formatMoneyAmount, parseMoney } from '../../src/domain/money';
import {
  CFDI_PENDING_TEXT,
  MONTHLY_KIND_LABELS,
  MONTHLY_STATEMENT_MESSAGES,
} from '../../src/domain/monthly-statements';
import {
  MonthlyStatementList as ListStruct,
  type MonthlyStatementList,
} from '../../src/domain/schemas/monthly-statements';
import { bearer, type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { addUserToCompany, DEMO_PROVIDER, getJson, importInvoice } from '../support/pronto-pago';

const PROVIDER_PATH = '/api/providers/account/statement/monthly/';
const CORPORATE_PATH = '/api/corporates/account/statement/monthly/';
const MONTH = '2026-07';
// Any day of August acts on July; the 1st is when the job starts acting.
const AS_OF = '2026-08-01';
const COMMISSION_UUID = '7A1B2C3D-0000-4000-8000-00000000A001';

describe('monthly statements (estados de cuenta mensuales, LIVA art. 1-C)', () => {
  let ctx: ApiTestContext;
  let provider: Session;
  let corporate: Session;
  let otherProvider: Session;
  let providerId: number;
  let corporateId: number;
  const db = () => ctx.database.db;
  const folios: string[] = [];

  async function company(rfc: string): Promise<number> {
    const row = await db()
      .selectFrom('companies')
      .select('id')
      .where('rfc', '=', rfc)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** An invoice of the demo provider to the demo corporate, advanced (disbursed) at `at` with these costs. */
  async function advanced(options: {
    at: string;
    usd?: boolean;
    costs?: [string, string];
    buyerPays?: boolean;
  }): Promise<number> {
    const id = await importInvoice(db(), {
      daysAgo: 1,
      ...(options.usd ? { currency: 'USD', exchangeRate: '17.2450', subtotal: '2000.00' } : {}),
    });
    const invoice = await db()
      .updateTable('invoices')
      .set({
        status: InvoiceStatus.PAID,
        cost_financing: options.costs?.[0] ?? null,
        cost_consultancy: options.costs?.[1] ?? null,
        buyer_funds_advance: options.buyerPays ?? false,
      })
      .where('id', '=', id)
      .returning(['amount_with_exchange_rate', 'serie', 'folio'])
      .executeTakeFirstOrThrow();
    folios.push(`${invoice.serie}-${invoice.folio}`);
    const costs = parseMoney(options.costs?.[0] ?? '0') + parseMoney(options.costs?.[1] ?? '0');
    await db()
      .insertInto('disbursements')
      .values({
        invoice_id: id,
        amount: formatMoneyAmount(
          parseMoney(invoice.amount_with_exchange_rate) - (options.buyerPays ? 0 : costs),
        ),
        reference: `MS-${id}`,
        at: options.at,
        due_on: '2026-09-01',
      })
      .execute();
    return id;
  }

  async function collect(invoiceId: number, amount: string, fecha: string): Promise<void> {
    const user = await db().selectFrom('users').select('id').orderBy('id').executeTakeFirstOrThrow();
    await db()
      .insertInto('collections')
      .values({
        invoice_id: invoiceId,
        programme_id: null,
        amount,
        clave_rastreo: `MSCOBRO${invoiceId}${fecha.replaceAll('-', '')}`,
        fecha,
        recorded_by: user.id,
      })
      .execute();
  }

  /** The balance by SQL alone: MXN value of advances disbursed up to a Mexico City day, less collections. */
  async function sqlBalance(
    side: 'emitter' | 'receiver',
    companyId: number,
    through: string,
  ): Promise<string> {
    const column = sql.ref(`i.${side}_company_id`);
    const { rows } = await sql<{ balance: string }>`
      select (
        (select coalesce(sum(i.amount_with_exchange_rate), 0) from invoices i
           join disbursements d on d.invoice_id = i.id
          where ${column} = ${companyId}
            and (d.at at time zone 'America/Mexico_City')::date <= ${through}::date)
        - (select coalesce(sum(co.amount), 0) from collections co
           join invoices i on i.id = co.invoice_id
          where ${column} = ${companyId} and co.fecha <= ${through}::date)
      )::text as balance`.execute(db());
    return formatMoneyAmount(parseMoney(Number(rows[0]?.balance ?? '0').toFixed(2)));
  }

  async function stored(companyId: number, kind: 'provider' | 'corporate') {
    return db()
      .selectFrom('monthly_statements')
      .select(['opening', 'closing', 'movements'])
      .where('company_id', '=', companyId)
      .where('kind', '=', kind)
      .where('month', '=', MONTH)
      .execute();
  }

  async function mailCount(): Promise<number> {
    const rows = await db()
      .selectFrom('mail_outbox')
      .select('id')
      .where('subject', '=', 'Tu estado de cuenta de julio de 2026 está listo')
      .execute();
    return rows.length;
  }

  beforeAll(async () => {
    ctx = await createApiApp();
    provider = await sessionFor(ctx.app, 'proveedor.demo');
    corporate = await sessionFor(ctx.app, 'corporativo.demo');
    await addUserToCompany(db(), { rfc: DEMO_PROVIDERS[1]!.rfc, username: 'otro.proveedor.mensual' });
    otherProvider = await sessionFor(ctx.app, 'otro.proveedor.mensual');
    providerId = await company(DEMO_PROVIDER.rfc);
    corporateId = await company(DEMO_CORPORATE.rfc);

    // June: one advance, partly collected (the opening balance of July).
    const june = await advanced({ at: '2026-06-15T17:00:00Z', costs: ['1500.00', '500.00'] });
    await collect(june, '30000.00', '2026-06-29');
    // July: a peso advance whose commission has its CFDI, a dollar one, one whose costs the buyer pays,
    // collections of June's rest and part of July's; one advance at 23:30 on 31 July in Mexico City (05:30 UTC on
    // 1 August) is July's.
    const july = await advanced({ at: '2026-07-08T16:00:00Z', costs: ['2100.00', '700.00'] });
    await db().insertInto('commission_cfdis').values({ invoice_id: july, uuid: COMMISSION_UUID }).execute();
    await advanced({ at: '2026-07-20T16:00:00Z', usd: true, costs: ['900.00', '300.00'] });
    await advanced({ at: '2026-08-01T05:30:00Z', costs: ['400.00', '100.00'], buyerPays: true });
    await collect(june, '70000.00', '2026-07-15');
    await collect(july, '10000.00', '2026-07-31');
    // August: outside July's statement.
    await collect(july, '5000.00', '2026-08-02');
    await advanced({ at: '2026-08-03T16:00:00Z', costs: ['100.00', '0.00'] });
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('produces each company’s statement once, even run twice at once and again by the job', async () => {
    const [first, second] = await Promise.all([
      produceMonthlyStatements(db(), AS_OF),
      produceMonthlyStatements(db(), AS_OF),
    ]);
    expect(first.month).toBe(MONTH);
    // The demo provider as supplier and the demo corporate as buyer; nobody else moved money in July.
    expect(first.generated + second.generated).toBe(2);
    const again = await monthlyStatementsJob(db(), { appBaseUrl: 'https://flujo.example', queue: true }).run(
      new Date('2026-08-09T15:00:00Z'),
    );
    expect(again).toBeUndefined();
    expect(await stored(providerId, 'provider')).toHaveLength(1);
    expect(await stored(corporateId, 'corporate')).toHaveLength(1);
    expect(await stored(providerId, 'corporate')).toHaveLength(0);
  });

  it('computes opening and closing balances that equal an independent SQL sum', async () => {
    const [supplier] = await stored(providerId, 'provider');
    const [buyer] = await stored(corporateId, 'corporate');
    expect(supplier?.opening).toBe(await sqlBalance('emitter', providerId, '2026-06-30'));
    expect(supplier?.closing).toBe(await sqlBalance('emitter', providerId, '2026-07-31'));
    expect(buyer?.opening).toBe(await sqlBalance('receiver', corporateId, '2026-06-30'));
    expect(buyer?.closing).toBe(await sqlBalance('receiver', corporateId, '2026-07-31'));
    // June's advance less its 30,000.00 collection is July's opening; something was still owed.
    expect(parseMoney(buyer?.opening ?? '0')).toBeGreaterThan(0);
    // Supplier: 3 advances, 3 deposits, 2 commissions (the buyer pays the third), 2 collections.
    expect(supplier?.movements).toBe(10);
    // Buyer: 3 advances, the commission it pays, 2 collections.
    expect(buyer?.movements).toBe(6);
  });

  it('queues one e-mail per user of each company once, with the link to the statement page', async () => {
    const users = await db()
      .selectFrom('users')
      .select('email')
      .where('company_id', 'in', [providerId, corporateId])
      .where('is_active', '=', true)
      .execute();
    expect(await mailCount()).toBe(users.length);
    const mail = await db()
      .selectFrom('mail_outbox')
      .select('body_text')
      .where('subject', '=', 'Tu estado de cuenta de julio de 2026 está listo')
      .executeTakeFirstOrThrow();
    expect(mail.body_text).toContain('/dashboard/estado-de-cuenta/');
    await produceMonthlyStatements(db(), '2026-08-20');
    expect(await mailCount()).toBe(users.length);
  });

  it('lists the months of the signed-in company, per role', async () => {
    const res = await getJson(ctx.app, PROVIDER_PATH, provider);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<MonthlyStatementList>();
    expect(is(body, ListStruct)).toBe(true);
    const july = body.results.find((item) => item.month === MONTH);
    expect(july).toMatchObject({
      label: 'julio de 2026',
      closing: await sqlBalance('emitter', providerId, '2026-07-31'),
      formats: ['pdf', 'xlsx'],
    });
    const other = await getJson(ctx.app, PROVIDER_PATH, otherProvider);
    expect(other.json<MonthlyStatementList>().results.some((item) => item.month === MONTH)).toBe(false);
    const buyer = await getJson(ctx.app, CORPORATE_PATH, corporate);
    expect(buyer.json<MonthlyStatementList>().results.map((item) => item.month)).toContain(MONTH);
    // A provider has no buyer's statements to list.
    expect((await getJson(ctx.app, CORPORATE_PATH, provider)).statusCode).toBe(403);
  });

  it('downloads its own PDF; another company’s month is a 404 like a missing one', async () => {
    const pdf = await ctx.app.inject({
      method: 'GET',
      url: `${PROVIDER_PATH}${MONTH}.pdf`,
      headers: bearer(provider),
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain('estado-de-cuenta-2026-07.pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    for (const url of [`${PROVIDER_PATH}${MONTH}.pdf`, `${PROVIDER_PATH}${MONTH}.xlsx`]) {
      const refused = await ctx.app.inject({ method: 'GET', url, headers: bearer(otherProvider) });
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ detail: MONTHLY_STATEMENT_MESSAGES.notFound });
    }
    for (const file of ['2026-06.pdf', '2026-13.pdf', `${MONTH}.csv`, 'x']) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `${PROVIDER_PATH}${file}`,
        headers: bearer(provider),
      });
      expect(res.statusCode, file).toBe(404);
    }
    const anonymous = await ctx.app.inject({ method: 'GET', url: `${PROVIDER_PATH}${MONTH}.pdf` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('the XLSX opens with exceljs and holds the month’s movements with the commissions’ CFDI', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `${PROVIDER_PATH}${MONTH}.xlsx`,
      headers: bearer(provider),
    });
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Movimientos');
    if (!sheet) throw new Error('no Movimientos sheet');
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toContain('Monto MXN');
    const rows: Record<string, unknown>[] = [];
    sheet.eachRow((row, number) => {
      if (number === 1) return;
      const values = (row.values as unknown[]).slice(1);
      rows.push(Object.fromEntries(header.map((name, index) => [String(name), values[index]])));
    });
    expect(rows).toHaveLength(10);
    const labels = MONTHLY_KIND_LABELS.provider;
    const commissions = rows.filter((row) => row.Movimiento === labels.commission);
    expect(commissions.map((row) => row['CFDI de la comisión']).sort()).toEqual(
      [COMMISSION_UUID, CFDI_PENDING_TEXT].sort(),
    );
    // July's invoices only (June's appears through its collection; August's not at all).
    const invoices = new Set(rows.map((row) => row.Factura));
    expect(invoices.has(folios[4])).toBe(false);
    expect([...invoices].sort()).toEqual([folios[0], folios[1], folios[2], folios[3]].sort());
    // The dollar invoice says so, with its rate, next to its pesos.
    const dollar = rows.find((row) => row['Moneda de la factura'] === 'USD');
    expect(dollar).toMatchObject({ 'Tipo de cambio': 17.245 });
    // The last running balance is the closing balance.
    const [supplier] = await stored(providerId, 'provider');
    expect(rows.at(-1)?.['Saldo MXN']).toBe(parseMoney(supplier?.closing ?? '0') / 100);
    const summary = workbook.getWorksheet('Resumen');
    expect(summary?.getCell('A2').value).toBe('Empresa');
  });
});
