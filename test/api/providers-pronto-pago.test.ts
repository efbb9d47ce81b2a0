import dayjs from 'dayjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDate } from '../../server/http/business-date';
import { disburseInvoice } from '../../server/modules/control-desk/disbursement.service';
import { runIdempotent } from '../../server/modules/idempotency/idempotency.service';
import { approveForwardPayment } from '../../server/modules/invoices/forward-payment.service';
import { dialogRefusal } from '../../server/modules/invoices/refusals';
import { DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { InvoiceStatus, type InvoiceStatusCode, PROVIDER_STATUSES } from '../../src/domain/invoice-status';
import { parseMoney } from '../../src/domain/money';
import { advanceQuote, advanceQuoteResponse } from '../../src/domain/quote';
import { SatStatus } from '../../src/domain/sat-status';
import { type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { testAuthenticity } from '../support/demo-authority';
import {
  advanceTo,
  DEMO_PROVIDER,
  eventCount,
  getJson,
  importInvoice,
  invoicesIn,
  postJson,
  statusOf,
} from '../support/pronto-pago';

const REQUEST = '/api/providers/request-payment/';
const ADVANCE = '/api/providers/forward-payment/';
const quoteUrl = (id: number | string) => `/api/providers/forward-payment/${id}/`;

const SAT_NOT_AUTHORIZED = 'Tu vinculación con el SAT no está autorizada. Vincula tu cuenta para continuar.';

describe('provider pronto pago: request authorization, quote, advance', () => {
  let ctx: ApiTestContext;
  let provider: Session;
  let corporate: Session;
  const db = () => ctx.database.db;
  // The app's injectable clock: a fixed business day, so quotes do not depend on when the suite runs.
  const NOW = new Date('2026-03-10T18:00:00Z');
  const today = () => businessDate(NOW);
  const inDays = (days: number) => dayjs(today()).add(days, 'day').format('YYYY-MM-DD');

  beforeAll(async () => {
    ctx = await createApiApp({ now: () => NOW });
    provider = await sessionFor(ctx.app, 'proveedor.demo');
    corporate = await sessionFor(ctx.app, 'corporativo.demo');
  });
  afterAll(() => ctx.close());

  /** A demo-provider invoice in each status (from the demo world, or imported and walked there). */
  async function invoiceInStatus(status: InvoiceStatusCode): Promise<number> {
    if (status === InvoiceStatus.AVAILABLE) return importInvoice(db(), { today: today() });
    if (status === InvoiceStatus.PENDING) {
      const id = await importInvoice(db(), { today: today() });
      await advanceTo(db(), id, 'pending');
      return id;
    }
    if (status === InvoiceStatus.APPROVED) {
      const id = await importInvoice(db(), { today: today() });
      await advanceTo(db(), id, 'approved', inDays(30));
      return id;
    }
    const [id] = await invoicesIn(db(), DEMO_PROVIDER.rfc, status);
    if (id === undefined) throw new Error(`no demo invoice in ${status}`);
    return id;
  }

  it('walks one invoice from AVAILABLE to PAID, each step in the audit trail with its actor', async () => {
    const id = await importInvoice(db(), { today: today() });
    const paymentDate = inDays(45);

    const requested = await postJson(ctx.app, REQUEST, provider, { id_request_factoring: id });
    expect(requested.statusCode).toBe(200);
    expect(requested.json()).toEqual({
      message:
        'Solicitud enviada correctamente. Tu cliente fue notificado y responderá en un plazo máximo de 24 horas.',
      message_type: 'success',
    });
    expect(await statusOf(db(), id)).toBe(InvoiceStatus.PENDING);
    const mail = await db()
      .selectFrom('mail_outbox')
      .selectAll()
      .where('recipient', '=', 'corporativo.demo@flujo.mx')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toContain('solicita autorizar la factura T-');
    expect(mail.body_text).toContain('24 horas');

    const authorized = await postJson(ctx.app, '/api/corporates/manually-requests/authorize/', corporate, [
      { invoice_id: id, payment_date: paymentDate },
    ]);
    expect(authorized.statusCode).toBe(200);
    expect(await statusOf(db(), id)).toBe(InvoiceStatus.APPROVED);

    const quote = await getJson(ctx.app, quoteUrl(id), provider);
    expect(quote.statusCode).toBe(200);
    // The 100,000.00 MXN invoice 45 days before its payment date: exactly the domain functions' figures.
    expect(quote.json()).toEqual(
      advanceQuoteResponse({
        amount: parseMoney('100000.00'),
        maxRate: '17.4000',
        paymentDate,
        today: today(),
      }),
    );
    expect(quote.json()).toEqual({
      max_rate: 17.4,
      days: 45,
      cost_financing: '2175.00',
      cost_consultancy: '1160.00',
      total: '96665.00',
      now: today(),
    });

    const advanced = await postJson(ctx.app, ADVANCE, provider, { id_execute_factoring: id });
    expect(advanced.statusCode).toBe(200);
    expect(advanced.json()).toEqual({
      message: expect.stringContaining('$96,665.00 MXN'),
      message_type: 'success',
    });
    const stored = await db()
      .selectFrom('invoices')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      status: InvoiceStatus.PROCESS,
      cost_financing: '2175.00',
      cost_consultancy: '1160.00',
      factoring_rate: '17.4000',
      factoring_date: today(),
      payment_date: paymentDate,
    });

    const paid = await disburseInvoice(db(), String(id), {
      account: 'pruebas',
      authenticity: testAuthenticity(db()),
      today: today(),
      force: true,
    });
    expect(paid).toMatchObject({ invoiceId: id, amount: '96665.00' });
    expect(await statusOf(db(), id)).toBe(InvoiceStatus.PAID);
    const disbursement = await db()
      .selectFrom('disbursements')
      .selectAll()
      .where('invoice_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(disbursement.amount).toBe('96665.00');

    for (const session of [provider, corporate]) {
      const trail = await getJson(ctx.app, `/api/invoices/${id}/events/`, session);
      expect(trail.statusCode).toBe(200);
      expect(
        trail.json().map((e: Record<string, unknown>) => [e.event, e.from_status, e.to_status, e.actor]),
      ).toEqual([
        ['invoice.imported', null, 60, 'prueba'],
        ['invoice.requestAuthorization', 60, 40, 'proveedor.demo'],
        ['invoice.authorize', 40, 30, 'corporativo.demo'],
        ['invoice.approveAdvance', 30, 50, 'proveedor.demo'],
        ['invoice.disburse', 50, 10, 'operador Flujo'],
      ]);
      for (const event of trail.json()) {
        expect(event).toEqual({
          event: expect.any(String),
          from_status: expect.toSatisfy((v: unknown) => v === null || typeof v === 'number'),
          to_status: expect.any(Number),
          actor: expect.any(String),
          reason: expect.toSatisfy((v: unknown) => v === null || typeof v === 'string'),
          at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        });
      }
    }

    const list = await getJson(ctx.app, '/api/providers/alliances/?status=10&search=T-', provider);
    const row = list.json().results.find((item: { id: number }) => item.id === id);
    expect(row).toMatchObject({
      status: 10,
      cost_consultancy: '1160.00',
      factoring_rate: 17.4,
      factoring_date: today(),
    });
  });

  it('quotes a USD invoice on its MXN value at the CFDI exchange rate', async () => {
    const id = await importInvoice(db(), {
      today: today(),
      currency: 'USD',
      exchangeRate: '17.2450',
      subtotal: '5000.00',
    });
    await advanceTo(db(), id, 'approved', inDays(20));
    const quote = await getJson(ctx.app, quoteUrl(id), provider);
    // 5,000.00 + IVA = 5,800.00 USD × 17.2450 = 100,021.00 MXN.
    const expected = advanceQuote({ amount: parseMoney('100021.00'), maxRate: '17.4000', days: 20 });
    expect(quote.json()).toMatchObject({ days: 20, total: (expected.total / 100).toFixed(2) });
  });

  it('a failed audit insert during the advance rolls back the status, the stored quote and the key', async () => {
    const id = await invoiceInStatus(InvoiceStatus.APPROVED);
    const user = await db()
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'proveedor.demo')
      .executeTakeFirstOrThrow();
    const company = await db()
      .selectFrom('companies')
      .select('id')
      .where('rfc', '=', DEMO_PROVIDER.rfc)
      .executeTakeFirstOrThrow();
    // invoice_events.actor_user_id references users(id): an unknown user makes the event insert fail after
    // the status update, inside the call's transaction.
    const ghost = {
      userId: 987_654,
      username: 'fantasma',
      companyId: company.id,
      isCorporate: false,
      hasFactoring: false,
      satAuthorized: true,
    };
    const call = {
      userId: user.id,
      key: 'ghost-advance',
      method: 'POST',
      path: ADVANCE,
      body: { id_execute_factoring: id },
    };
    await expect(
      runIdempotent(db(), call, (trx) => approveForwardPayment(trx, ghost, id, today()), dialogRefusal),
    ).rejects.toThrow();
    const row = await db().selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: InvoiceStatus.APPROVED, cost_financing: null, factoring_rate: null });
    expect(
      await db().selectFrom('idempotency_keys').select('key').where('key', '=', 'ghost-advance').execute(),
    ).toEqual([]);
    const retry = await postJson(ctx.app, ADVANCE, provider, { id_execute_factoring: id }, 'ghost-advance');
    expect(retry.statusCode).toBe(200);
  });

  describe('POST providers/request-payment/', () => {
    it('needs a session (401)', async () => {
      const res = await postJson(ctx.app, REQUEST, null, { id_request_factoring: 1 });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: expect.any(String) });
    });

    it('answers 400 per field for a missing or malformed id, writing nothing', async () => {
      const missing = await postJson(ctx.app, REQUEST, provider, {});
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual({ id_request_factoring: ['Este campo es obligatorio'] });
      const text = await postJson(ctx.app, REQUEST, provider, { id_request_factoring: 'uno' });
      expect(text.statusCode).toBe(400);
      expect(text.json()).toEqual({ id_request_factoring: ['Valor no válido'] });
      const array = await postJson(ctx.app, REQUEST, provider, [1]);
      expect(array.statusCode).toBe(400);
      const broken = await ctx.app.inject({
        method: 'POST',
        url: REQUEST,
        headers: { authorization: `Bearer ${provider.access}`, 'content-type': 'application/json' },
        payload: '{"id_request_factoring":',
      });
      expect(broken.statusCode).toBe(400);
      expect(broken.json()).toEqual({ detail: 'El cuerpo de la solicitud no es JSON válido.' });
    });

    it('answers 404 for an unknown id and for another provider’s invoice', async () => {
      const [other] = await invoicesIn(db(), DEMO_PROVIDERS[1].rfc, InvoiceStatus.AVAILABLE);
      for (const id of [987_654, 99_999_999_999, other]) {
        const res = await postJson(ctx.app, REQUEST, provider, { id_request_factoring: id });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({
          detail: 'Factura no encontrada.',
          message: 'Factura no encontrada.',
          message_type: 'error',
        });
      }
      expect(await statusOf(db(), other as number)).toBe(InvoiceStatus.AVAILABLE);
    });

    it('answers 409 with a Spanish message for every status but AVAILABLE, and writes nothing', async () => {
      for (const status of PROVIDER_STATUSES.filter((s) => s !== InvoiceStatus.AVAILABLE)) {
        const id = await invoiceInStatus(status);
        const events = await eventCount(db(), id);
        const res = await postJson(ctx.app, REQUEST, provider, { id_request_factoring: id });
        expect(res.statusCode, `status ${status}`).toBe(409);
        expect(res.json()).toEqual({
          detail: expect.stringMatching(/Ya solicitaste|No puedes solicitar/),
          message: res.json().detail,
          message_type: 'error',
        });
        expect(await statusOf(db(), id)).toBe(status);
        expect(await eventCount(db(), id)).toBe(events);
      }
    });

    it('answers 409 when the customer has no active alliance with the provider', async () => {
      const id = await importInvoice(db(), { today: today() });
      await db().updateTable('alliances').set({ is_active: false }).execute();
      try {
        const res = await postJson(ctx.app, REQUEST, provider, { id_request_factoring: id });
        expect(res.statusCode).toBe(409);
        expect(res.json().message).toContain('alianza de pronto pago');
        expect(await statusOf(db(), id)).toBe(InvoiceStatus.AVAILABLE);
      } finally {
        await db().updateTable('alliances').set({ is_active: true }).execute();
      }
    });

    it('answers 403 while the SAT link is not authorized', async () => {
      const id = await importInvoice(db(), { today: today() });
      await db()
        .updateTable('companies')
        .set({ sat_status: SatStatus.SENT })
        .where('rfc', '=', DEMO_PROVIDER.rfc)
        .execute();
      try {
        for (const res of [
          await postJson(ctx.app, REQUEST, provider, { id_request_factoring: id }),
          await postJson(ctx.app, ADVANCE, provider, { id_execute_factoring: id }),
          await getJson(ctx.app, quoteUrl(id), provider),
          await getJson(ctx.app, '/api/providers/alliances/', provider),
          await getJson(ctx.app, `/api/invoices/${id}/events/`, provider),
        ]) {
          expect(res.statusCode).toBe(403);
          expect(res.json().detail).toBe(SAT_NOT_AUTHORIZED);
        }
        expect(await statusOf(db(), id)).toBe(InvoiceStatus.AVAILABLE);
      } finally {
        await db()
          .updateTable('companies')
          .set({ sat_status: SatStatus.AUTHORIZED })
          .where('rfc', '=', DEMO_PROVIDER.rfc)
          .execute();
      }
    });
  });

  describe('GET providers/forward-payment/<id>/', () => {
    it('answers 409 for every status but APPROVED', async () => {
      for (const status of PROVIDER_STATUSES.filter((s) => s !== InvoiceStatus.APPROVED)) {
        const id = await invoiceInStatus(status);
        const res = await getJson(ctx.app, quoteUrl(id), provider);
        expect(res.statusCode, `status ${status}`).toBe(409);
        expect(res.json()).toMatchObject({
          message_type: 'error',
          message: expect.stringMatching(/adelant/),
        });
      }
    });

    it('answers 404 for an unknown id, a malformed id and another provider’s approved invoice', async () => {
      const [other] = await invoicesIn(db(), DEMO_PROVIDERS[2].rfc, InvoiceStatus.APPROVED);
      for (const id of ['987654', 'abc', '0', '-3', '99999999999', String(other)]) {
        const res = await getJson(ctx.app, quoteUrl(id), provider);
        expect(res.statusCode, id).toBe(404);
      }
    });

    it('answers 409 when the payment date has come', async () => {
      const id = await importInvoice(db(), { today: today(), daysAgo: 20 });
      await advanceTo(db(), id, 'approved', today());
      const res = await getJson(ctx.app, quoteUrl(id), provider);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(
        'La fecha de pago de esta factura ya llegó; no es posible adelantarla.',
      );
    });

    it('answers 409, not 500, when the costs would exceed the amount (data the importer now refuses)', async () => {
      const id = await invoiceInStatus(InvoiceStatus.APPROVED);
      await db()
        .updateTable('invoices')
        .set({ amount_with_exchange_rate: '0.00' })
        .where('id', '=', id)
        .execute();
      for (const res of [
        await getJson(ctx.app, quoteUrl(id), provider),
        await postJson(ctx.app, ADVANCE, provider, { id_execute_factoring: id }, `cero-${id}`),
      ]) {
        expect(res.statusCode).toBe(409);
        expect(res.json().message).toBe(
          'No es posible cotizar el adelanto de esta factura: sus costos superarían su importe. Escríbenos para revisarla.',
        );
      }
      expect(await statusOf(db(), id)).toBe(InvoiceStatus.APPROVED);
    });

    it('is the provider’s call only: the corporate gets 404 for its own received invoice', async () => {
      const id = await invoiceInStatus(InvoiceStatus.APPROVED);
      const res = await getJson(ctx.app, quoteUrl(id), corporate);
      expect(res.statusCode).toBe(404);
    });
  });

  describe('POST providers/forward-payment/', () => {
    it('answers 400 for a missing id', async () => {
      const res = await postJson(ctx.app, ADVANCE, provider, { id_request_factoring: 3 });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ id_execute_factoring: ['Este campo es obligatorio'] });
    });

    it('answers 409 for every status but APPROVED, and writes nothing', async () => {
      for (const status of PROVIDER_STATUSES.filter((s) => s !== InvoiceStatus.APPROVED)) {
        const id = await invoiceInStatus(status);
        const before = await db()
          .selectFrom('invoices')
          .selectAll()
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        const events = await eventCount(db(), id);
        const res = await postJson(ctx.app, ADVANCE, provider, { id_execute_factoring: id });
        expect(res.statusCode, `status ${status}`).toBe(409);
        expect(res.json()).toMatchObject({ message_type: 'error' });
        const after = await db()
          .selectFrom('invoices')
          .selectAll()
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        expect(after).toEqual(before);
        expect(await eventCount(db(), id)).toBe(events);
      }
    });

    it('answers 404 for another provider’s approved invoice', async () => {
      const [other] = await invoicesIn(db(), DEMO_PROVIDERS[1].rfc, InvoiceStatus.APPROVED);
      const res = await postJson(ctx.app, ADVANCE, provider, { id_execute_factoring: other });
      expect(res.statusCode).toBe(404);
      expect(await statusOf(db(), other as number)).toBe(InvoiceStatus.APPROVED);
    });

    it('a second advance of the same invoice is a 409 (the guarded transition)', async () => {
      const id = await invoiceInStatus(InvoiceStatus.APPROVED);
      const first = await postJson(ctx.app, ADVANCE, provider, { id_execute_factoring: id });
      const second = await postJson(ctx.app, ADVANCE, provider, { id_execute_factoring: id });
      expect(first.statusCode).toBe(200);
      expect(second.statusCode).toBe(409);
      expect(second.json().message).toBe('El adelanto de esta factura ya está en trámite.');
    });
  });
});
