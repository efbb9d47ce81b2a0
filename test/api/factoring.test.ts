// @postgresql: concurrent factoring requests and transfers: one record and one held line under concurrent connections.
import dayjs from 'dayjs';
import { is } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDate } from '../../server/http/business-date';
import { FACTORING_MESSAGES } from '../../server/modules/factoring/factoring.service';
import { enableFactoringLine } from '../../server/modules/factoring/factoring-line.service';
import { DEMO_CORPORATE, DEMO_PROVIDERS } from '../../server/seed/demo-world';
import {
  FACTORING_ALREADY_ENABLED,
  FACTORING_NOT_ENABLED,
  FACTORING_REQUEST_PENDING,
} from '../../src/domain/factoring-messages';
import { InvoiceStatus, PROVIDER_STATUSES } from '../../src/domain/invoice-status';
import {
  FactoringQuote,
  FactoringRecord,
  type FactoringRequest,
  FactoringTransferResponse,
} from '../../src/domain/schemas/factoring';
import { InvoicePage } from '../../src/domain/schemas/invoices';
import { type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import {
  addCompanyWithUser,
  addUserToCompany,
  advanceTo,
  DEMO_PROVIDER,
  eventCount,
  getJson,
  importInvoice,
  invoicesIn,
  postJson,
  statusOf,
} from '../support/pronto-pago';
import { rowCount } from '../support/test-database';

const ENABLE = '/api/factoring-enable/';
const TRANSFER = '/api/factoring/';
const LIST = '/api/providers/factoring/';
const calculations = (id: number | string) => `/api/factoring-calculations/${id}/`;
const recordUrl = (id: number | string) => `/api/factoring-request/${id}/`;
const CONCURRENT = 50;

const SAT_NOT_AUTHORIZED = 'Tu vinculación con el SAT no está autorizada. Vincula tu cuenta para continuar.';

describe('factoring: enable, quote, transfer, record, list', () => {
  let ctx: ApiTestContext;
  let provider: Session;
  let corporate: Session;
  let keySequence = 0;
  const key = () => `factoring-${++keySequence}`;
  const db = () => ctx.database.db;
  // A fixed business day, so quotes and due dates do not depend on when the suite runs.
  const NOW = new Date('2026-03-10T18:00:00Z');
  const today = () => businessDate(NOW);
  const inDays = (days: number) => dayjs(today()).add(days, 'day').format('YYYY-MM-DD');

  beforeAll(async () => {
    ctx = await createApiApp({ now: () => NOW });
    provider = await sessionFor(ctx.app, 'proveedor.demo');
    corporate = await sessionFor(ctx.app, 'corporativo.demo');
  }, 120_000);
  afterAll(() => ctx.close());

  const companyOf = async (rfc: string) =>
    db()
      .selectFrom('companies')
      .select(['id', 'has_factoring', 'credit_line', 'credit_used', 'factoring_rate'])
      .where('rfc', '=', rfc)
      .executeTakeFirstOrThrow();

  /** The demo provider with a line of `line` MXN on top of what it already uses. */
  async function grantDemoLine(extra = '5000000', rate?: string): Promise<void> {
    const used = Number((await companyOf(DEMO_PROVIDER.rfc)).credit_used);
    await enableFactoringLine(db(), DEMO_PROVIDER.rfc, {
      line: (used + Number(extra)).toFixed(2),
      ...(rate ? { rate } : {}),
    });
  }

  async function quoteOf(id: number, session: Session = provider): Promise<FactoringQuote> {
    const res = await getJson(ctx.app, calculations(id), session);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<FactoringQuote>();
  }

  /** What the client sends for the quote's option of `installments` payments. */
  function requestFrom(quote: FactoringQuote, installments = 1): FactoringRequest {
    const option = quote.options.find((item) => item.installments === installments);
    if (!option) throw new Error(`no option ${installments}`);
    return {
      invoice_id: quote.invoice_id,
      rate: quote.rate,
      installments,
      factoringConsultingFee: quote.advisory_fee,
      installmentPayment: option.installment_payment,
      totalPayment: option.total_payment,
      invoiceFolio: quote.fiscal_folio,
    };
  }

  const transferEvents = async (id: number) =>
    (
      await db()
        .selectFrom('invoice_events')
        .selectAll()
        .where('invoice_id', '=', id)
        .where('event', '=', 'invoice.transferToFactoring')
        .execute()
    ).length;

  const recordsOf = (invoiceId: number) =>
    db().selectFrom('factoring_requests').selectAll().where('invoice_id', '=', invoiceId).execute();

  describe('POST factoring-enable/', () => {
    it('needs a session (401)', async () => {
      const res = await postJson(ctx.app, ENABLE, null, undefined);
      expect(res.statusCode).toBe(401);
    });

    it('files one request and answers the spec’s text; a second click while pending files nothing', async () => {
      const { companyId } = await addCompanyWithUser(db(), {
        rfc: 'AAL200101AB1',
        name: 'Alimentos Alfa',
        username: 'alfa.enable',
      });
      const session = await sessionFor(ctx.app, 'alfa.enable');
      const first = await postJson(ctx.app, ENABLE, session, undefined);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ message: FACTORING_NOT_ENABLED, message_type: 'info' });
      const second = await postJson(ctx.app, ENABLE, session, undefined);
      expect(second.statusCode).toBe(200);
      expect(second.json()).toEqual({ message: FACTORING_REQUEST_PENDING, message_type: 'info' });
      const rows = await db()
        .selectFrom('factoring_enrolments')
        .selectAll()
        .where('company_id', '=', companyId)
        .execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 'requested', requested_by: expect.any(Number) });
    });

    it('concurrent clicks file exactly one request and never fail', async () => {
      const { companyId } = await addCompanyWithUser(db(), {
        rfc: 'BBE200101AB2',
        name: 'Bebidas Beta',
        username: 'beta.enable',
      });
      const session = await sessionFor(ctx.app, 'beta.enable');
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => postJson(ctx.app, ENABLE, session, undefined)),
      );
      expect(answers.map((res) => res.statusCode)).toEqual(Array(20).fill(200));
      const messages = answers.map((res) => res.json().message);
      expect(messages.filter((m) => m === FACTORING_NOT_ENABLED)).toHaveLength(1);
      expect(messages.filter((m) => m === FACTORING_REQUEST_PENDING)).toHaveLength(19);
      const rows = await db()
        .selectFrom('factoring_enrolments')
        .select('id')
        .where('company_id', '=', companyId)
        .execute();
      expect(rows).toHaveLength(1);
    });

    it('a company with its line answers ALREADY_ENABLED and files nothing', async () => {
      await addCompanyWithUser(db(), { rfc: 'CCA200101AB3', name: 'Cárnicos Gama', username: 'gama.enable' });
      const session = await sessionFor(ctx.app, 'gama.enable');
      await enableFactoringLine(db(), 'CCA200101AB3', { line: '100000' });
      const before = await rowCount(db(), 'factoring_enrolments');
      const res = await postJson(ctx.app, ENABLE, session, undefined);
      expect(res.json()).toEqual({ message: FACTORING_ALREADY_ENABLED, message_type: 'info' });
      expect(await rowCount(db(), 'factoring_enrolments')).toBe(before);
    });

    it('needs an authorized SAT link (403 with the dialog’s fields)', async () => {
      await addCompanyWithUser(db(), {
        rfc: 'DDE200101AB4',
        name: 'Dulces Delta',
        username: 'delta.enable',
        satStatus: 10,
      });
      const session = await sessionFor(ctx.app, 'delta.enable');
      const res = await postJson(ctx.app, ENABLE, session, undefined);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        detail: SAT_NOT_AUTHORIZED,
        message: SAT_NOT_AUTHORIZED,
        message_type: 'error',
      });
    });
  });

  describe('GET factoring-calculations/{id}/', () => {
    it('needs a session (401)', async () => {
      expect((await getJson(ctx.app, calculations(1), null)).statusCode).toBe(401);
    });

    it('refuses a company without its line (403, dialog style), the corporate login too', async () => {
      const id = await importInvoice(db(), { today: today() });
      for (const session of [provider, corporate]) {
        const res = await getJson(ctx.app, calculations(id), session);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({
          detail: FACTORING_MESSAGES.notEnabled,
          message: FACTORING_MESSAGES.notEnabled,
          message_type: 'error',
        });
      }
    });

    it('quotes every option at the line’s rate, in MXN, with the domain’s figures', async () => {
      await grantDemoLine('5000000', '18.5');
      const id = await importInvoice(db(), { today: today() });
      const quote = await quoteOf(id);
      expect(is(quote, FactoringQuote)).toBe(true);
      const company = await companyOf(DEMO_PROVIDER.rfc);
      expect(quote).toMatchObject({
        max_rate: 18.5,
        rate: 18.5,
        days: 30,
        invoice_id: id,
        amount: '100000.00',
        // 100,000.00 × 18.5 % × 30/360 = 1,541.67; 1 % + IVA = 1,160.00.
        cost_financing: '1541.67',
        cost_consultancy: '1160.00',
        advisory_fee: '1160.00',
        total: '98840.00',
        amount_to_transfer: '98840.00',
        now: today(),
        available_credit: (Number(company.credit_line) - Number(company.credit_used)).toFixed(2),
      });
      expect(quote.options).toEqual([
        { installments: 1, days: 30, installment_payment: '101541.67', total_payment: '101541.67' },
        { installments: 2, days: 60, installment_payment: '51541.67', total_payment: '103083.33' },
        { installments: 3, days: 90, installment_payment: '34875.00', total_payment: '104625.00' },
        { installments: 4, days: 120, installment_payment: '26541.67', total_payment: '106166.67' },
      ]);
    });

    it('quotes a USD invoice on its MXN value at the CFDI exchange rate', async () => {
      const id = await importInvoice(db(), {
        today: today(),
        currency: 'USD',
        exchangeRate: '17.2450',
        subtotal: '5000.00',
      });
      // 5,000.00 + IVA = 5,800.00 USD × 17.2450 = 100,021.00 MXN.
      expect((await quoteOf(id)).amount).toBe('100021.00');
    });

    it('quotes invoices in every status the machine lets go to factoring; 409 for the others', async () => {
      for (const status of PROVIDER_STATUSES) {
        const [id] = await invoicesIn(db(), DEMO_PROVIDER.rfc, status);
        if (id === undefined) throw new Error(`no demo invoice in ${status}`);
        const res = await getJson(ctx.app, calculations(id), provider);
        const closed = [
          InvoiceStatus.PAID,
          InvoiceStatus.PROCESS,
          InvoiceStatus.FACTORING,
          InvoiceStatus.DISABLED,
        ] as number[];
        if (closed.includes(status)) {
          expect(res.statusCode, `status ${status}`).toBe(409);
          expect(res.json()).toMatchObject({
            message: expect.stringContaining('No puedes enviar esta factura a factoraje'),
            message_type: 'error',
          });
        } else {
          expect(res.statusCode, `status ${status}: ${res.body}`).toBe(200);
        }
      }
    });

    it('answers 404 for another company’s invoice, a missing one or a malformed id', async () => {
      const [theirs] = await invoicesIn(db(), DEMO_PROVIDERS[1].rfc, InvoiceStatus.AVAILABLE);
      for (const id of [theirs as number, 99_999_999, 'abc', '3000000000']) {
        const res = await getJson(ctx.app, calculations(id), provider);
        expect(res.statusCode, String(id)).toBe(404);
        expect(res.json()).toMatchObject({ detail: 'Factura no encontrada.', message_type: 'error' });
      }
    });
  });

  describe('POST factoring/', () => {
    it('needs a session (401)', async () => {
      const res = await postJson(ctx.app, TRANSFER, null, { invoice_id: 1 });
      expect(res.statusCode).toBe(401);
    });

    it('answers 400 per field in Spanish and writes nothing', async () => {
      const before = await rowCount(db(), 'factoring_requests');
      const missing = await postJson(ctx.app, TRANSFER, provider, {}, key());
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({
        invoice_id: ['Este campo es obligatorio'],
        rate: ['Este campo es obligatorio'],
        // integerBetween (src/domain/schemas/fields.ts) names any non-choice, a missing one too.
        installments: ['Valor no válido'],
        factoringConsultingFee: ['Este campo es obligatorio'],
        installmentPayment: ['Este campo es obligatorio'],
        totalPayment: ['Este campo es obligatorio'],
        invoiceFolio: ['Este campo es obligatorio'],
      });
      const bad = await postJson(
        ctx.app,
        TRANSFER,
        provider,
        {
          invoice_id: 'uno',
          rate: '18.5',
          installments: 5,
          factoringConsultingFee: '1160',
          installmentPayment: 12,
          totalPayment: '1,000.00',
          invoiceFolio: 'X',
        },
        key(),
      );
      expect(bad.statusCode).toBe(400);
      const fields = bad.json();
      for (const field of [
        'invoice_id',
        'rate',
        'installments',
        'factoringConsultingFee',
        'installmentPayment',
        'totalPayment',
      ]) {
        expect(fields[field], field).toEqual([expect.any(String)]);
        expect(fields[field][0]).not.toMatch(/Expected|received/);
      }
      expect(await rowCount(db(), 'factoring_requests')).toBe(before);
    });

    it('transfers an invoice: FACTORING with its audit row, the line held, the record and its schedule', async () => {
      await grantDemoLine();
      const id = await importInvoice(db(), { today: today() });
      await advanceTo(db(), id, 'approved', inDays(40));
      const quote = await quoteOf(id);
      const usedBefore = Number((await companyOf(DEMO_PROVIDER.rfc)).credit_used);

      const res = await postJson(ctx.app, TRANSFER, provider, requestFrom(quote, 3), key());
      expect(res.statusCode, res.body).toBe(200);
      const answer = res.json<FactoringTransferResponse>();
      expect(is(answer, FactoringTransferResponse)).toBe(true);
      expect(answer.message_type).toBe('success');
      expect(answer.message).toContain('$98,840.00 MXN');
      expect(answer.message).toContain('3 pagos mensuales de $34,875.00 MXN');

      expect(await statusOf(db(), id)).toBe(InvoiceStatus.FACTORING);
      const trail = await getJson(ctx.app, `/api/invoices/${id}/events/`, provider);
      expect(trail.json().at(-1)).toMatchObject({
        event: 'invoice.transferToFactoring',
        from_status: InvoiceStatus.APPROVED,
        to_status: InvoiceStatus.FACTORING,
        actor: 'proveedor.demo',
      });
      expect(Number((await companyOf(DEMO_PROVIDER.rfc)).credit_used)).toBeCloseTo(usedBefore + 100_000, 2);
      const invoice = await db()
        .selectFrom('invoices')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(invoice).toMatchObject({
        factoring_date: today(),
        factoring_rate: '18.5000',
        cost_consultancy: '1160.00',
        cost_financing: '4625.00',
      });

      const record = await getJson(ctx.app, recordUrl(answer.factoring_request_id), provider);
      expect(record.statusCode).toBe(200);
      const body = record.json<FactoringRecord>();
      expect(is(body, FactoringRecord)).toBe(true);
      expect(body).toMatchObject({
        id: answer.factoring_request_id,
        invoice_id: id,
        fiscal_folio: quote.fiscal_folio,
        receiver_name: DEMO_CORPORATE.name,
        rate: 18.5,
        installments: 3,
        installment_payment: '34875.00',
        total_payment: '104625.00',
        advisory_fee: '1160.00',
        amount_to_transfer: '98840.00',
        line_amount: '100000.00',
        status: 'active',
      });
      expect(body.schedule).toEqual([
        { number: 1, due_date: inDays(30), amount: '34875.00', paid_at: null },
        { number: 2, due_date: inDays(60), amount: '34875.00', paid_at: null },
        { number: 3, due_date: inDays(90), amount: '34875.00', paid_at: null },
      ]);
      const releases = await db()
        .selectFrom('factoring_instalments')
        .select('line_release')
        .where('factoring_request_id', '=', answer.factoring_request_id)
        .orderBy('number')
        .execute();
      expect(releases.map((row) => row.line_release)).toEqual(['33333.33', '33333.33', '33333.34']);
    });

    it('replays the first answer for the same key, and refuses the key with another body (422)', async () => {
      await grantDemoLine();
      const [a, b] = [
        await importInvoice(db(), { today: today() }),
        await importInvoice(db(), { today: today() }),
      ];
      const body = requestFrom(await quoteOf(a));
      const first = await postJson(ctx.app, TRANSFER, provider, body, 'factoring-replay');
      const again = await postJson(ctx.app, TRANSFER, provider, body, 'factoring-replay');
      expect(first.statusCode).toBe(200);
      expect(again.statusCode).toBe(200);
      expect(again.body).toBe(first.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(await recordsOf(a)).toHaveLength(1);
      expect(await transferEvents(a)).toBe(1);
      const other = await postJson(
        ctx.app,
        TRANSFER,
        provider,
        requestFrom(await quoteOf(b)),
        'factoring-replay',
      );
      expect(other.statusCode).toBe(422);
      expect(other.json()).toMatchObject({ message_type: 'error' });
      expect(await statusOf(db(), b)).toBe(InvoiceStatus.AVAILABLE);
    });

    it('refuses figures that are not the current quote (409) and writes nothing', async () => {
      await grantDemoLine('5000000', '18.5');
      const id = await importInvoice(db(), { today: today() });
      const quote = await quoteOf(id);
      // The operator changes the rate after the quote was shown.
      await grantDemoLine('5000000', '21');
      const stale = await postJson(ctx.app, TRANSFER, provider, requestFrom(quote, 2), key());
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toEqual({
        detail: FACTORING_MESSAGES.quoteChanged,
        message: FACTORING_MESSAGES.quoteChanged,
        message_type: 'error',
      });
      const fresh = requestFrom(await quoteOf(id), 2);
      for (const tampered of [
        { ...fresh, totalPayment: '1.00' },
        { ...fresh, installmentPayment: '0.00' },
        { ...fresh, factoringConsultingFee: '0.00' },
        { ...fresh, rate: 1 },
        { ...fresh, installments: 3 },
      ]) {
        const res = await postJson(ctx.app, TRANSFER, provider, tampered, key());
        expect(res.statusCode).toBe(409);
      }
      expect(await statusOf(db(), id)).toBe(InvoiceStatus.AVAILABLE);
      expect(await recordsOf(id)).toEqual([]);
      await grantDemoLine('5000000', '18.5');
    });

    it('refuses an invoice the machine does not let go to factoring (409) and one factored already', async () => {
      await grantDemoLine();
      const [paid] = await invoicesIn(db(), DEMO_PROVIDER.rfc, InvoiceStatus.PAID);
      const id = await importInvoice(db(), { today: today() });
      const body = requestFrom(await quoteOf(id));
      const refused = await postJson(ctx.app, TRANSFER, provider, { ...body, invoice_id: paid }, key());
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toContain('No puedes enviar esta factura a factoraje');
      expect((await postJson(ctx.app, TRANSFER, provider, body, key())).statusCode).toBe(200);
      const twice = await postJson(ctx.app, TRANSFER, provider, body, key());
      expect(twice.statusCode).toBe(409);
      expect(await recordsOf(id)).toHaveLength(1);
    });

    it('answers 404 for another company’s invoice and 403 without a line', async () => {
      await grantDemoLine();
      const [theirs] = await invoicesIn(db(), DEMO_PROVIDERS[1].rfc, InvoiceStatus.AVAILABLE);
      const id = await importInvoice(db(), { today: today() });
      const body = requestFrom(await quoteOf(id));
      const notYours = await postJson(ctx.app, TRANSFER, provider, { ...body, invoice_id: theirs }, key());
      expect(notYours.statusCode).toBe(404);
      expect(await statusOf(db(), theirs as number)).toBe(InvoiceStatus.AVAILABLE);
      const asCorporate = await postJson(ctx.app, TRANSFER, corporate, body, key());
      expect(asCorporate.statusCode).toBe(403);
      expect(asCorporate.json().message).toBe(FACTORING_MESSAGES.notEnabled);
      expect(await statusOf(db(), id)).toBe(InvoiceStatus.AVAILABLE);
    });

    it('refuses an invoice the line cannot hold (409 naming both amounts) and writes nothing', async () => {
      const used = Number((await companyOf(DEMO_PROVIDER.rfc)).credit_used);
      await enableFactoringLine(db(), DEMO_PROVIDER.rfc, { line: (used + 60_000).toFixed(2) });
      const id = await importInvoice(db(), { today: today() });
      const res = await postJson(ctx.app, TRANSFER, provider, requestFrom(await quoteOf(id)), key());
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        message:
          'Tu línea de factoraje no alcanza para esta factura: tienes $60,000.00 MXN disponibles y se necesitan $100,000.00 MXN.',
        message_type: 'error',
      });
      expect(Number((await companyOf(DEMO_PROVIDER.rfc)).credit_used)).toBeCloseTo(used, 2);
      expect(await statusOf(db(), id)).toBe(InvoiceStatus.AVAILABLE);
      expect(await eventCount(db(), id)).toBe(1);
      expect(await recordsOf(id)).toEqual([]);
    });

    it(`${CONCURRENT} concurrent transfers of one invoice (different keys): one 200, one record, one event, line held once`, async () => {
      await grantDemoLine();
      const id = await importInvoice(db(), { today: today() });
      const body = requestFrom(await quoteOf(id), 4);
      const usedBefore = Number((await companyOf(DEMO_PROVIDER.rfc)).credit_used);
      const answers = await Promise.all(
        Array.from({ length: CONCURRENT }, (_, i) =>
          postJson(ctx.app, TRANSFER, provider, body, `race-one-invoice-${i}`),
        ),
      );
      const codes = answers.map((res) => res.statusCode);
      expect(codes.filter((code) => code === 200)).toHaveLength(1);
      expect(codes.filter((code) => code === 409)).toHaveLength(CONCURRENT - 1);
      expect(await statusOf(db(), id)).toBe(InvoiceStatus.FACTORING);
      expect(await recordsOf(id)).toHaveLength(1);
      expect(await transferEvents(id)).toBe(1);
      expect(Number((await companyOf(DEMO_PROVIDER.rfc)).credit_used)).toBeCloseTo(usedBefore + 100_000, 2);
    }, 120_000);

    it('two invoices racing for the last of the line: exactly one wins, the line is never exceeded', async () => {
      const used = Number((await companyOf(DEMO_PROVIDER.rfc)).credit_used);
      await enableFactoringLine(db(), DEMO_PROVIDER.rfc, { line: (used + 150_000).toFixed(2) });
      const ids = [
        await importInvoice(db(), { today: today() }),
        await importInvoice(db(), { today: today() }),
      ];
      const bodies = await Promise.all(ids.map(async (id) => requestFrom(await quoteOf(id))));
      const answers = await Promise.all(
        bodies.flatMap((body, i) =>
          Array.from({ length: 5 }, (_, j) =>
            postJson(ctx.app, TRANSFER, provider, body, `race-line-${i}-${j}`),
          ),
        ),
      );
      expect(answers.filter((res) => res.statusCode === 200)).toHaveLength(1);
      expect(answers.every((res) => res.statusCode === 200 || res.statusCode === 409)).toBe(true);
      const statuses = await Promise.all(ids.map((id) => statusOf(db(), id)));
      expect(statuses.filter((status) => status === InvoiceStatus.FACTORING)).toHaveLength(1);
      const company = await companyOf(DEMO_PROVIDER.rfc);
      expect(Number(company.credit_used)).toBeCloseTo(used + 100_000, 2);
      expect(Number(company.credit_used)).toBeLessThanOrEqual(Number(company.credit_line));
    }, 120_000);
  });

  describe('GET factoring-request/{id}/', () => {
    it('needs a session (401) and answers 404 for a missing or malformed id', async () => {
      expect((await getJson(ctx.app, recordUrl(1), null)).statusCode).toBe(401);
      for (const id of [99_999_999, 'abc', '0', '3000000000']) {
        const res = await getJson(ctx.app, recordUrl(id), provider);
        expect(res.statusCode, String(id)).toBe(404);
        expect(res.json()).toMatchObject({
          message: FACTORING_MESSAGES.recordNotFound,
          message_type: 'error',
        });
      }
    });
  });

  describe('GET providers/factoring/', () => {
    it('needs a session (401) and answers 400 for bad filters', async () => {
      expect((await getJson(ctx.app, LIST, null)).statusCode).toBe(401);
      const bad = await getJson(ctx.app, `${LIST}?period=99&page=0`, provider);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ period: ['Valor no válido'], page: ['Valor no válido'] });
    });

    it('lists the provider’s invoices with their record, the line on the first page', async () => {
      await grantDemoLine();
      const id = await importInvoice(db(), { today: today() });
      const transfer = await postJson(ctx.app, TRANSFER, provider, requestFrom(await quoteOf(id)), key());
      const recordId = transfer.json<FactoringTransferResponse>().factoring_request_id;

      const res = await getJson(ctx.app, `${LIST}?page_size=100`, provider);
      expect(res.statusCode).toBe(200);
      const page = res.json<InvoicePage>();
      expect(is(page, InvoicePage)).toBe(true);
      expect(page.results.every((row) => row.emitter_rfc === DEMO_PROVIDER.rfc)).toBe(true);
      expect(page.results.find((row) => row.id === id)).toMatchObject({
        status: InvoiceStatus.FACTORING,
        factoring_request_id: recordId,
        factoring_rate: 18.5,
        cost_consultancy: '1160.00',
      });
      expect(page.results.filter((row) => row.status !== InvoiceStatus.FACTORING)).not.toHaveLength(0);
      for (const row of page.results.filter((item) => item.status !== InvoiceStatus.FACTORING)) {
        expect(row.factoring_request_id).toBeNull();
      }
      const company = await companyOf(DEMO_PROVIDER.rfc);
      expect(page.has_factoring).toBe(true);
      expect(page.indicators).toEqual({
        count: page.count,
        count_is_estimate: false,
        suppliers_customers: 1,
        total: expect.stringMatching(/^\d+\.\d{2}$/),
        credit_line: company.credit_line,
        credit_used: company.credit_used,
        available_credit: (Number(company.credit_line) - Number(company.credit_used)).toFixed(2),
        spei_balance: expect.stringMatching(/^\d+\.\d{2}$/),
      });

      const factored = await getJson(
        ctx.app,
        `${LIST}?status=${InvoiceStatus.FACTORING}&page_size=1`,
        provider,
      );
      const first = factored.json<InvoicePage>();
      expect(first.results.every((row) => row.status === InvoiceStatus.FACTORING)).toBe(true);
      expect(first.next).not.toBeNull();
      const second = await getJson(
        ctx.app,
        `${LIST}?status=${InvoiceStatus.FACTORING}&page_size=1&page=2`,
        provider,
      );
      expect(second.json()).not.toHaveProperty('indicators');
    });
  });

  describe('tenant isolation', () => {
    it('another provider with its own line gets 404 for the demo provider’s invoices and records', async () => {
      await grantDemoLine();
      const id = await importInvoice(db(), { today: today() });
      const mine = await postJson(ctx.app, TRANSFER, provider, requestFrom(await quoteOf(id)), key());
      const recordId = mine.json<FactoringTransferResponse>().factoring_request_id;
      const other = await importInvoice(db(), { today: today() });
      const body = requestFrom(await quoteOf(other));

      await addCompanyWithUser(db(), {
        rfc: 'PFL200115K34',
        name: 'Proveedora Flores',
        username: 'flores.f',
      });
      await enableFactoringLine(db(), 'PFL200115K34', { line: '5000000' });
      const stranger = await sessionFor(ctx.app, 'flores.f');
      // A second user of another demo provider: same customer, different company.
      await addUserToCompany(db(), {
        rfc: DEMO_PROVIDERS[1].rfc,
        username: 'sierra.f',
        firstName: 'Tomás',
        lastName: 'Sierra',
      });
      await enableFactoringLine(db(), DEMO_PROVIDERS[1].rfc, { line: '5000000' });
      const siblingSession = await sessionFor(ctx.app, 'sierra.f');

      for (const session of [stranger, siblingSession]) {
        expect((await getJson(ctx.app, calculations(other), session)).statusCode).toBe(404);
        expect((await postJson(ctx.app, TRANSFER, session, body, key())).statusCode).toBe(404);
        expect((await getJson(ctx.app, recordUrl(recordId), session)).statusCode).toBe(404);
        const list = (await getJson(ctx.app, `${LIST}?page_size=100`, session)).json<InvoicePage>();
        expect(list.results.some((row) => row.id === id || row.id === other)).toBe(false);
      }
      expect(await statusOf(db(), other)).toBe(InvoiceStatus.AVAILABLE);
      expect((await getJson(ctx.app, recordUrl(recordId), provider)).statusCode).toBe(200);
    });
  });
});
