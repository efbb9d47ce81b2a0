// @postgresql: 50 concurrent accepts with one Idempotency-Key: the idempotency row and the invoice lock racing across connections.
import dayjs from 'dayjs';
import { sql } from 'kysely';
import { is } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDate } from '../../server/http/business-date';
import { DEMO_CORPORATE, DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { corporateQuoteLine, quoteResume } from '../../src/domain/corporate-quote';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { parseMoney } from '../../src/domain/money';
import { PAYMENT_DATE_INVALID } from '../../src/domain/payment-date';
import {
  AcceptedQuotationResponse,
  CorporateQuotation,
  CorporateSummaryPage,
  MAX_QUOTATION_INVOICES,
  PreApprovedQuotationResponse,
  PreAuthorizationPage,
  QUOTATION_BATCH_MESSAGES,
  QuotationOutcomeResponse,
} from '../../src/domain/schemas/corporates';
import type { ForwardPaymentQuote } from '../../src/domain/schemas/invoices';
import { type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import {
  addCompanyWithUser,
  advanceTo,
  eventCount,
  getJson,
  importInvoice,
  invoicesIn,
  postJson,
  statusOf,
} from '../support/pronto-pago';

const SUMMARY = '/api/corporates/summary/';
const PRE_AUTHORIZATION = '/api/corporates/pre-authorization/';
const QUOTES = '/api/corporates/quotes/';
const PRE_APPROVED = '/api/corporates/quotes/pre-approved/';
const ACCEPTED = '/api/corporates/quotes/accepted/';
const REJECTED = '/api/corporates/quotes/rejected/';
const FULL_PAYMENT = '/api/corporates/full-payment/qoute/';
const POSTS = [QUOTES, PRE_APPROVED, ACCEPTED, REJECTED, FULL_PAYMENT];

describe('corporate quotation flow: summary, pre-authorization, quote, pre-approve, accept, pay, reject', () => {
  let ctx: ApiTestContext;
  let corporate: Session;
  let provider: Session;
  // The app's injectable clock: dates and the 150-day rule do not depend on when the suite runs.
  const NOW = new Date('2026-03-10T18:00:00Z');
  const today = businessDate(NOW);
  const inDays = (days: number) => dayjs(today).add(days, 'day').format('YYYY-MM-DD');
  const db = () => ctx.database.db;

  beforeAll(async () => {
    ctx = await createApiApp({ now: () => NOW });
    corporate = await sessionFor(ctx.app, 'corporativo.demo');
    provider = await sessionFor(ctx.app, 'proveedor.demo');
  });
  afterAll(() => ctx.close());

  const available = (daysAgo = 5) => importInvoice(db(), { daysAgo, today });
  async function pending(): Promise<number> {
    const id = await available();
    await advanceTo(db(), id, 'pending');
    return id;
  }
  async function labelOf(id: number): Promise<string> {
    const row = await db()
      .selectFrom('invoices')
      .select('folio')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return `T-${row.folio}`;
  }
  async function invoice(id: number) {
    return db()
      .selectFrom('invoices')
      .select(['status', 'payment_date', 'buyer_funds_advance', 'cost_financing', 'cost_consultancy'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  }
  async function lastMail() {
    return db().selectFrom('mail_outbox').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
  }
  const quotationCount = async () =>
    Number((await sql<{ n: number }>`select count(*)::int as n from quotations`.execute(db())).rows[0]?.n);

  describe('GET corporates/summary/', () => {
    it('lists the received invoices with the three indicators on the first page, per currency', async () => {
      const res = await getJson(ctx.app, `${SUMMARY}?page_size=100`, corporate);
      expect(res.statusCode).toBe(200);
      const page = res.json<CorporateSummaryPage>();
      expect(is(page, CorporateSummaryPage)).toBe(true);
      const rows = await db()
        .selectFrom('invoices')
        .select(['amount', 'currency'])
        .where('receiver_rfc', '=', DEMO_CORPORATE.rfc)
        .execute();
      const sum = (currency: string) =>
        rows
          .filter((row) => row.currency === currency)
          .reduce((total, row) => total + Math.round(Number(row.amount) * 100), 0);
      expect(page.count).toBe(rows.length);
      expect(page.indicators).toEqual({
        count: rows.length,
        count_is_estimate: false,
        suppliers_customers: DEMO_PROVIDERS.length,
        total: (sum('MXN') / 100).toFixed(2),
        total_usd: (sum('USD') / 100).toFixed(2),
      });
      expect(page.results.every((row) => row.receiver_rfc === DEMO_CORPORATE.rfc)).toBe(true);
      const second = await getJson(ctx.app, `${SUMMARY}?page=2&page_size=10`, corporate);
      expect(second.json().indicators).toBeUndefined();
    });

    it('adds a euro invoice to the MXN line by its peso value, never its euros (issue 33)', async () => {
      const indicators = async () =>
        (await getJson(ctx.app, `${SUMMARY}?page_size=1`, corporate)).json<CorporateSummaryPage>().indicators;
      const before = await indicators();
      // 1,000.00 + IVA = 1,160.00 EUR at 20.5 pesos: 23,780.00 MXN.
      await importInvoice(db(), { today, currency: 'EUR', exchangeRate: '20.5000', subtotal: '1000.00' });
      const after = await indicators();
      expect(parseMoney(after?.total ?? '') - parseMoney(before?.total ?? '')).toBe(2_378_000);
      expect(after?.total_usd).toBe(before?.total_usd);
      // The same figure without the kept totals (a filter reads the invoices themselves).
      const filtered = (
        await getJson(ctx.app, `${SUMMARY}?page_size=1&status=${InvoiceStatus.AVAILABLE}`, corporate)
      ).json<CorporateSummaryPage>();
      const rows = await db()
        .selectFrom('invoices')
        .select(['amount_with_exchange_rate', 'currency'])
        .where('receiver_rfc', '=', DEMO_CORPORATE.rfc)
        .where('status', '=', InvoiceStatus.AVAILABLE)
        .where('currency', '<>', 'USD')
        .execute();
      expect(parseMoney(filtered.indicators?.total ?? '')).toBe(
        rows.reduce((sum, row) => sum + parseMoney(String(row.amount_with_exchange_rate)), 0),
      );
    });

    it('filters by status, refusing the statuses the corporate filter does not offer', async () => {
      const res = await getJson(ctx.app, `${SUMMARY}?status=${InvoiceStatus.REJECTED}`, corporate);
      expect(res.json<CorporateSummaryPage>().results.every((r) => r.status === InvoiceStatus.REJECTED)).toBe(
        true,
      );
      for (const status of [InvoiceStatus.PROCESS, InvoiceStatus.FACTORING]) {
        const refused = await getJson(ctx.app, `${SUMMARY}?status=${status}`, corporate);
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toEqual({ status: ['Valor no válido'] });
      }
    });
  });

  describe('GET corporates/pre-authorization/', () => {
    it('lists only Por Autorizar, Solicitado and Rechazada received invoices', async () => {
      const res = await getJson(ctx.app, `${PRE_AUTHORIZATION}?page_size=100`, corporate);
      expect(res.statusCode).toBe(200);
      const page = res.json<PreAuthorizationPage>();
      expect(is(page, PreAuthorizationPage)).toBe(true);
      const expected = (
        await Promise.all(
          [InvoiceStatus.AVAILABLE, InvoiceStatus.PENDING, InvoiceStatus.REJECTED].map((status) =>
            invoicesIn(db(), DEMO_CORPORATE.rfc, status, 'receiver'),
          ),
        )
      ).flat();
      expect(page.count).toBe(expected.length);
      expect(page.results.map((row) => row.id).sort()).toEqual([...expected].sort());
    });
  });

  describe('POST corporates/quotes/', () => {
    it('quotes each invoice with the domain functions at its alliance rate, with totals per currency', async () => {
      const mxn = await available();
      const usd = await importInvoice(db(), {
        today,
        currency: 'USD',
        exchangeRate: '17.2450',
        subtotal: '2150.00',
      });
      const res = await postJson(ctx.app, QUOTES, corporate, [
        { invoice_id: mxn, payment_date: inDays(45) },
        { invoice_id: usd, payment_date: inDays(30) },
      ]);
      expect(res.statusCode).toBe(200);
      const quotation = res.json<CorporateQuotation>();
      expect(is(quotation, CorporateQuotation)).toBe(true);
      const [first, second] = quotation.quotes;
      expect(first).toEqual(
        corporateQuoteLine(
          {
            id: mxn,
            fiscal_folio: first?.fiscal_folio ?? '',
            serie_folio: await labelOf(mxn),
            emitter_name: DEMO_PROVIDERS[0].name,
            emitter_rfc: DEMO_PROVIDERS[0].rfc,
            description: 'Servicio de prueba',
            currency: 'MXN',
            amount: '100000.00',
          },
          DEMO_PROVIDERS[0].rate,
          inDays(45),
          today,
        ),
      );
      expect(first).toMatchObject({
        remaining_days: 45,
        annual_rate: '15.00',
        cost_financing: '2175.00',
        cost_consultancy: '1160.00',
        iva: '160.00',
        net_amount: '96665.00',
      });
      expect(second).toMatchObject({ currency: 'USD', amount: '2494.00', remaining_days: 30 });
      expect(quotation.resume).toEqual(quoteResume(quotation.quotes));
      expect(quotation.resume).toMatchObject({
        total_quote: '100000.00',
        total_quote_usd: '2494.00',
        total_invoices: 2,
      });
      // A quote changes nothing.
      expect(await statusOf(db(), mxn)).toBe(InvoiceStatus.AVAILABLE);
    });

    it('answers 400 per line with its index and field, 404 for an invoice not received, 409 naming the state', async () => {
      const a = await available(5);
      const far = await available(20);
      const bad = await postJson(ctx.app, QUOTES, corporate, [
        { invoice_id: a, payment_date: '2026-02-31' },
        { invoice_id: a, payment_date: '' },
      ]);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({
        '0.payment_date': [PAYMENT_DATE_INVALID],
        '1.payment_date': ['Requerido'],
      });
      const dates = await postJson(ctx.app, QUOTES, corporate, [
        { invoice_id: a, payment_date: today },
        { invoice_id: far, payment_date: inDays(131) },
      ]);
      expect(dates.statusCode).toBe(400);
      expect(dates.json()).toEqual({
        '0.payment_date': ['La fecha de pago debe ser posterior a hoy.'],
        '1.payment_date': [
          `La fecha de pago de la factura ${await labelOf(far)} excede el rango permitido de 150 días desde su emisión (${dayjs(today).subtract(20, 'day').format('DD/MM/YYYY')}).`,
        ],
      });
      expect((await postJson(ctx.app, QUOTES, corporate, [])).json()).toEqual({
        _form: [QUOTATION_BATCH_MESSAGES.empty],
      });
      const missing = await postJson(ctx.app, QUOTES, corporate, [
        { invoice_id: 99_999_999, payment_date: inDays(9) },
      ]);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ detail: 'Factura no encontrada: 99999999.' });
      const [paid] = await invoicesIn(db(), DEMO_CORPORATE.rfc, InvoiceStatus.PAID, 'receiver');
      const refused = await postJson(ctx.app, QUOTES, corporate, [
        { invoice_id: a, payment_date: inDays(9) },
        { invoice_id: paid, payment_date: inDays(9) },
      ]);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().detail).toMatch(
        /^La factura A-\d+ no puede autorizarse: su estado es «Pagada»\.$/,
      );
    });
  });

  describe('POST corporates/quotes/pre-approved/ (the provider absorbs the cost)', () => {
    it('authorizes every line with its date, records the quotation and e-mails the provider', async () => {
      const [a, b] = [await available(), await pending()];
      const quotations = await quotationCount();
      const res = await postJson(ctx.app, PRE_APPROVED, corporate, [
        { invoice_id: a, payment_date: inDays(40) },
        { invoice_id: b, payment_date: inDays(40) },
      ]);
      expect(res.statusCode).toBe(200);
      expect(is(res.json(), PreApprovedQuotationResponse)).toBe(true);
      expect(res.json()).toEqual({
        message: 'Se aprobaron correctamente las facturas',
        payment_date_message: `La fecha de pago de las facturas es el ${dayjs(inDays(40)).format('DD/MM/YYYY')}.`,
        total_quote: '200000.00',
        total_invoices: 2,
      });
      for (const id of [a, b]) {
        expect(await invoice(id)).toMatchObject({
          status: InvoiceStatus.APPROVED,
          payment_date: inDays(40),
          buyer_funds_advance: false,
        });
      }
      expect(await quotationCount()).toBe(quotations + 1);
      const mail = await lastMail();
      expect(mail.recipient).toBe('proveedor.demo@flujo.mx');
      expect(mail.subject).toContain('pre-autorizó tus facturas');
      // The provider is quoted the usual cost.
      const quote = await getJson(ctx.app, `/api/providers/forward-payment/${a}/`, provider);
      expect(quote.json<ForwardPaymentQuote>().cost_financing).not.toBe('0.00');
    });

    it('refuses a line whose state changed (409 naming invoice and state) and writes nothing', async () => {
      const a = await available();
      const [approved] = await invoicesIn(db(), DEMO_CORPORATE.rfc, InvoiceStatus.APPROVED, 'receiver');
      const events = await eventCount(db(), a);
      const res = await postJson(ctx.app, PRE_APPROVED, corporate, [
        { invoice_id: a, payment_date: inDays(20) },
        { invoice_id: approved, payment_date: inDays(20) },
      ]);
      expect(res.statusCode).toBe(409);
      expect(res.json().detail).toMatch(/^La factura .+ no puede autorizarse: su estado es «Autorizada»\.$/);
      expect(await statusOf(db(), a)).toBe(InvoiceStatus.AVAILABLE);
      expect(await eventCount(db(), a)).toBe(events);
    });
  });

  describe('the buyer absorbs the cost: accepted, then Pagar a Proveedores or Rechazar Cotización', () => {
    it('accepted authorizes with the buyer paying; the provider is quoted no cost; full payment puts it En trámite at no cost', async () => {
      const [a, b] = [await available(), await pending()];
      const res = await postJson(ctx.app, ACCEPTED, corporate, [
        { invoice_id: a, payment_date: inDays(45) },
        { invoice_id: b, payment_date: inDays(45) },
      ]);
      expect(res.statusCode).toBe(200);
      const accepted = res.json<AcceptedQuotationResponse>();
      expect(is(accepted, AcceptedQuotationResponse)).toBe(true);
      expect(accepted.message).toBe(
        'Se aceptó la cotización: tu empresa absorbe el costo financiero de las facturas.',
      );
      expect(accepted.resume).toEqual({
        rate: 17.4,
        total_invoices: 2,
        total_financing: '4350.00',
        total_consultancy: '2320.00',
        total: '6670.00',
        total_financing_usd: '0.00',
        total_consultancy_usd: '0.00',
        total_usd: '0.00',
      });
      expect(await invoice(a)).toMatchObject({ status: InvoiceStatus.APPROVED, buyer_funds_advance: true });
      expect((await lastMail()).body_text).toContain('absorbe el costo financiero');

      const quote = await getJson(ctx.app, `/api/providers/forward-payment/${a}/`, provider);
      expect(quote.json<ForwardPaymentQuote>()).toMatchObject({
        days: 45,
        cost_financing: '0.00',
        cost_consultancy: '0.00',
        total: '100000.00',
      });

      const wrongDate = await postJson(ctx.app, FULL_PAYMENT, corporate, [
        { invoice_id: a, payment_date: inDays(45) },
        { invoice_id: b, payment_date: inDays(46) },
      ]);
      expect(wrongDate.statusCode).toBe(400);
      expect(wrongDate.json()).toEqual({
        '1.payment_date': [
          `La fecha de pago no coincide con la de la cotización aceptada (${dayjs(inDays(45)).format('DD/MM/YYYY')}).`,
        ],
      });
      const paid = await postJson(ctx.app, FULL_PAYMENT, corporate, [
        { invoice_id: a, payment_date: inDays(45) },
        { invoice_id: b, payment_date: inDays(45) },
      ]);
      expect(paid.statusCode).toBe(200);
      expect(is(paid.json(), QuotationOutcomeResponse)).toBe(true);
      expect(paid.json().message).toBe(
        'Se programó el pago a tus proveedores: recibirán el monto completo de las facturas.',
      );
      for (const id of [a, b]) {
        expect(await invoice(id)).toMatchObject({
          status: InvoiceStatus.PROCESS,
          cost_financing: '0.00',
          cost_consultancy: '0.00',
        });
      }
      expect((await lastMail()).subject).toContain('pagará el adelanto de tus facturas');
      const trail = await getJson(ctx.app, `/api/invoices/${a}/events/`, provider);
      expect(trail.json().at(-1)).toMatchObject({
        event: 'invoice.fundAdvance',
        from_status: InvoiceStatus.APPROVED,
        to_status: InvoiceStatus.PROCESS,
        actor: 'corporativo.demo',
      });
    });

    it('full payment refuses an invoice whose cost the provider absorbs (409 naming it)', async () => {
      const a = await available();
      await postJson(ctx.app, PRE_APPROVED, corporate, [{ invoice_id: a, payment_date: inDays(30) }]);
      const res = await postJson(ctx.app, FULL_PAYMENT, corporate, [
        { invoice_id: a, payment_date: inDays(30) },
      ]);
      expect(res.statusCode).toBe(409);
      expect(res.json().detail).toBe(
        `La factura ${await labelOf(a)} está «Autorizada» con el costo a cargo de tu proveedor; acepta una cotización absorbiendo el costo antes de pagarla.`,
      );
      expect(await statusOf(db(), a)).toBe(InvoiceStatus.APPROVED);
    });

    it('rejected withdraws an accepted quotation: Rechazada, the provider told; refuses what the buyer did not accept as payer', async () => {
      const [a, b] = [await available(), await pending()];
      await postJson(ctx.app, ACCEPTED, corporate, [
        { invoice_id: a, payment_date: inDays(30) },
        { invoice_id: b, payment_date: inDays(30) },
      ]);
      const res = await postJson(ctx.app, REJECTED, corporate, [
        { invoice_id: a, reason: 'Sin presupuesto' },
        { invoice_id: b },
      ]);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        message: 'Se rechazó la cotización de las facturas',
        payment_date_message:
          'Tus proveedores fueron notificados; las facturas rechazadas no se adelantarán.',
      });
      for (const id of [a, b]) {
        expect(await invoice(id)).toMatchObject({
          status: InvoiceStatus.REJECTED,
          buyer_funds_advance: false,
        });
      }
      const trail = await getJson(ctx.app, `/api/invoices/${a}/events/`, provider);
      expect(trail.json().at(-1)).toMatchObject({
        event: 'invoice.rejectQuotation',
        from_status: InvoiceStatus.APPROVED,
        to_status: InvoiceStatus.REJECTED,
        actor: 'corporativo.demo',
        reason: 'Sin presupuesto',
      });
      const statuses = await sql<{ status: string }>`
        select q.status from quotations q join quotation_lines l on l.quotation_id = q.id
        where l.invoice_id = ${a}`.execute(db());
      expect(statuses.rows).toEqual([{ status: 'rejected' }]);
      expect((await lastMail()).subject).toContain('no autorizó el adelanto de tus facturas');

      const notAccepted = await available();
      await postJson(ctx.app, PRE_APPROVED, corporate, [
        { invoice_id: notAccepted, payment_date: inDays(30) },
      ]);
      const refused = await postJson(ctx.app, REJECTED, corporate, [{ invoice_id: notAccepted }]);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().detail).toBe(
        `La factura ${await labelOf(notAccepted)} está «Autorizada» y su adelanto no lo paga tu empresa; no puede rechazarse.`,
      );
      const fresh = await available();
      const refusedFresh = await postJson(ctx.app, REJECTED, corporate, [{ invoice_id: fresh }]);
      expect(refusedFresh.statusCode).toBe(409);
      expect(refusedFresh.json().detail).toMatch(/no puede rechazarse: su estado es «Por Autorizar»\.$/);
    });
  });

  describe('batches of up to 1,000, all or nothing', () => {
    it('a 1,000-line pre-approval with one bad line writes nothing; fixed, all 1,000 are authorized', async () => {
      const template = await available(3);
      const { rows } = await sql<{ id: number }>`
        insert into invoices (cfdi_uuid, serie, folio, emitter_company_id, receiver_company_id, emitter_rfc,
          emitter_name, receiver_rfc, receiver_name, issued_at, date_of_emission, subtotal, amount, currency,
          amount_with_exchange_rate, payment_method, description, cfdi_xml)
        select upper(gen_random_uuid()::text), 'L', (20000 + n)::text, emitter_company_id, receiver_company_id,
          emitter_rfc, emitter_name, receiver_rfc, receiver_name, issued_at, date_of_emission, subtotal, amount,
          currency, amount_with_exchange_rate, payment_method, description, cfdi_xml
        from invoices, generate_series(1, ${MAX_QUOTATION_INVOICES - 1}) as n
        where id = ${template}
        returning id`.execute(db());
      const ids = [template, ...rows.map((row) => row.id)];
      expect(ids).toHaveLength(MAX_QUOTATION_INVOICES);
      const lines = ids.map((id) => ({ invoice_id: id, payment_date: inDays(30) }));
      const quotations = await quotationCount();

      const tooMany = await postJson(ctx.app, PRE_APPROVED, corporate, [...lines, lines[0]]);
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.json()).toEqual({ _form: [QUOTATION_BATCH_MESSAGES.tooMany] });

      const oneBad = lines.map((line, i) => (i === 777 ? { ...line, payment_date: inDays(200) } : line));
      const refused = await postJson(ctx.app, PRE_APPROVED, corporate, oneBad);
      expect(refused.statusCode).toBe(400);
      expect(Object.keys(refused.json())).toEqual(['777.payment_date']);
      const approvedCount = async () =>
        Number(
          (
            await sql<{ n: number }>`select count(*)::int as n from invoices
              where id in (${sql.join(ids)}) and status = ${InvoiceStatus.APPROVED}`.execute(db())
          ).rows[0]?.n,
        );
      expect(await approvedCount()).toBe(0);
      expect(await quotationCount()).toBe(quotations);

      const ok = await postJson(ctx.app, PRE_APPROVED, corporate, lines);
      expect(ok.statusCode).toBe(200);
      expect(ok.json().total_invoices).toBe(MAX_QUOTATION_INVOICES);
      expect(await approvedCount()).toBe(MAX_QUOTATION_INVOICES);
    }, 120_000);
  });

  describe('tenant isolation', () => {
    it('another corporate gets 404 on every call for these invoices and sees none of them; providers get 403', async () => {
      const a = await available();
      await addCompanyWithUser(db(), {
        rfc: 'OCO200101AB1',
        name: 'Otro Corporativo, S.A. de C.V.',
        username: 'otro.corporativo',
        isCorporate: true,
      });
      await addCompanyWithUser(db(), {
        rfc: 'OPR200101AB2',
        name: 'Otro Proveedor',
        username: 'otro.proveedor',
      });
      const other = await sessionFor(ctx.app, 'otro.corporativo');
      const otherProvider = await sessionFor(ctx.app, 'otro.proveedor');
      for (const url of POSTS) {
        const body = [{ invoice_id: a, payment_date: inDays(30) }];
        const res = await postJson(ctx.app, url, other, body);
        expect(res.statusCode, url).toBe(404);
        expect(res.json(), url).toEqual({ detail: `Factura no encontrada: ${a}.` });
        for (const session of [provider, otherProvider]) {
          const refused = await postJson(ctx.app, url, session, body);
          expect(refused.statusCode, url).toBe(403);
          expect(refused.json(), url).toEqual({
            detail: 'Esta operación es solo para cuentas corporativas.',
          });
        }
        expect((await postJson(ctx.app, url, null, body)).statusCode, url).toBe(401);
      }
      for (const url of [SUMMARY, PRE_AUTHORIZATION]) {
        const res = await getJson(ctx.app, url, other);
        expect(res.statusCode, url).toBe(200);
        expect(res.json().count, url).toBe(0);
        for (const session of [provider, otherProvider]) {
          expect((await getJson(ctx.app, url, session)).statusCode, url).toBe(403);
        }
      }
      expect(await statusOf(db(), a)).toBe(InvoiceStatus.AVAILABLE);
    });
  });

  describe('idempotency', () => {
    it('50 concurrent identical accepts with one Idempotency-Key: one transition per invoice, one answer', async () => {
      const [a, b] = [await available(), await pending()];
      const before = await Promise.all([a, b].map((id) => eventCount(db(), id)));
      const quotations = await quotationCount();
      const body = [
        { invoice_id: a, payment_date: inDays(30) },
        { invoice_id: b, payment_date: inDays(30) },
      ];
      const responses = await Promise.all(
        Array.from({ length: 50 }, () => postJson(ctx.app, ACCEPTED, corporate, body, 'accept-once-0001')),
      );
      expect(responses.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
      // The same answer (a replay comes from jsonb, which orders keys its own way).
      for (const r of responses) expect(r.json()).toEqual(responses[0]?.json());
      expect(responses.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(49);
      expect(await Promise.all([a, b].map((id) => eventCount(db(), id)))).toEqual(before.map((n) => n + 1));
      expect(await quotationCount()).toBe(quotations + 1);
      for (const id of [a, b]) expect(await statusOf(db(), id)).toBe(InvoiceStatus.APPROVED);
    }, 60_000);
  });
});
