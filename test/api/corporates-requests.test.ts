import dayjs from 'dayjs';
import { is } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDate } from '../../server/http/business-date';
import { DEMO_CORPORATE, DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { InvoiceStatus, type InvoiceStatusCode, PROVIDER_STATUSES } from '../../src/domain/invoice-status';
import { SatStatus } from '../../src/domain/sat-status';
import { InvoicePage } from '../../src/domain/schemas/invoices';
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

const LIST = '/api/corporates/manually-requests/';
const AUTHORIZE = '/api/corporates/manually-requests/authorize/';
const REJECT = '/api/corporates/manually-requests/reject/';

describe('corporate requests: list, authorize, reject', () => {
  let ctx: ApiTestContext;
  let corporate: Session;
  let provider: Session;
  // The app's injectable clock: payment dates and the 150-day rule do not depend on when the suite runs.
  const NOW = new Date('2026-03-10T18:00:00Z');
  const today = businessDate(NOW);
  const inDays = (days: number, from = today) => dayjs(from).add(days, 'day').format('YYYY-MM-DD');
  const db = () => ctx.database.db;

  beforeAll(async () => {
    ctx = await createApiApp({ now: () => NOW });
    corporate = await sessionFor(ctx.app, 'corporativo.demo');
    provider = await sessionFor(ctx.app, 'proveedor.demo');
  });
  afterAll(() => ctx.close());

  async function pending(daysAgo = 5): Promise<number> {
    const id = await importInvoice(db(), { daysAgo, today });
    await advanceTo(db(), id, 'pending');
    return id;
  }

  async function invoiceInStatus(status: InvoiceStatusCode): Promise<number> {
    if (status === InvoiceStatus.PENDING) return pending();
    if (status === InvoiceStatus.AVAILABLE) return importInvoice(db(), { today });
    const [id] = await invoicesIn(db(), DEMO_PROVIDERS[0].rfc, status);
    return id as number;
  }

  describe('GET corporates/manually-requests/', () => {
    it('lists the PENDING invoices the corporate received, in the paged shape', async () => {
      const mine = await pending();
      const res = await getJson(ctx.app, `${LIST}?page_size=100`, corporate);
      expect(res.statusCode).toBe(200);
      const page = res.json<InvoicePage>();
      expect(is(page, InvoicePage)).toBe(true);
      expect(page.results.map((r) => r.id)).toContain(mine);
      expect(page.results.every((r) => r.status === InvoiceStatus.PENDING)).toBe(true);
      expect(page.results.every((r) => r.receiver_rfc === DEMO_CORPORATE.rfc)).toBe(true);
      const pendingCount = (await invoicesIn(db(), DEMO_CORPORATE.rfc, InvoiceStatus.PENDING, 'receiver'))
        .length;
      expect(page.count).toBe(pendingCount);
      expect(page.indicators).toMatchObject({ count: pendingCount, suppliers_customers: 3 });
      expect(page.has_factoring).toBe(false);
    });

    it('searches the provider’s RFC and name, and ignores a status filter', async () => {
      const byRfc = await getJson(ctx.app, `${LIST}?search=${DEMO_PROVIDERS[1].rfc}&status=60`, corporate);
      expect(byRfc.json().results.length).toBeGreaterThan(0);
      expect(
        byRfc
          .json()
          .results.every(
            (r: { emitter_rfc: string; status: number }) =>
              r.emitter_rfc === DEMO_PROVIDERS[1].rfc && r.status === 40,
          ),
      ).toBe(true);
      const byName = await getJson(ctx.app, `${LIST}?search=sierra madre`, corporate);
      expect(byName.json().count).toBe(byRfc.json().count);
      const bad = await getJson(ctx.app, `${LIST}?period=70`, corporate);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ period: ['Valor no válido'] });
    });

    it('is for corporate accounts with an authorized SAT link (403 otherwise)', async () => {
      const res = await getJson(ctx.app, LIST, provider);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: 'Esta operación es solo para cuentas corporativas.' });
      expect((await getJson(ctx.app, LIST, null)).statusCode).toBe(401);
      await db()
        .updateTable('companies')
        .set({ sat_status: SatStatus.UNAUTHORIZED })
        .where('rfc', '=', DEMO_CORPORATE.rfc)
        .execute();
      try {
        const blocked = await getJson(ctx.app, LIST, corporate);
        expect(blocked.statusCode).toBe(403);
        expect(blocked.json().detail).toContain('SAT');
      } finally {
        await db()
          .updateTable('companies')
          .set({ sat_status: SatStatus.AUTHORIZED })
          .where('rfc', '=', DEMO_CORPORATE.rfc)
          .execute();
      }
    });
  });

  describe('POST corporates/manually-requests/authorize/', () => {
    it('authorizes every listed request with its payment date and tells the providers', async () => {
      const [a, b] = [await pending(), await pending()];
      const res = await postJson(ctx.app, AUTHORIZE, corporate, [
        { invoice_id: a, payment_date: inDays(40) },
        { invoice_id: b, payment_date: inDays(40) },
      ]);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        message: 'Se aprobaron correctamente las facturas',
        payment_date_message: `La fecha de pago de las facturas es el ${dayjs(inDays(40)).format('DD/MM/YYYY')}.`,
      });
      for (const id of [a, b]) {
        const row = await db()
          .selectFrom('invoices')
          .select(['status', 'payment_date'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        expect(row).toEqual({ status: InvoiceStatus.APPROVED, payment_date: inDays(40) });
      }
      const mail = await db()
        .selectFrom('mail_outbox')
        .selectAll()
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(mail.recipient).toBe('proveedor.demo@flujo.mx');
      expect(mail.subject).toContain('autorizó tu solicitud de adelanto');
    });

    it('accepts the folio fiscal as invoice_id and names each date when they differ', async () => {
      const [a, b] = [await pending(), await pending()];
      const uuid = (
        await db().selectFrom('invoices').select('cfdi_uuid').where('id', '=', a).executeTakeFirstOrThrow()
      ).cfdi_uuid;
      const res = await postJson(ctx.app, AUTHORIZE, corporate, [
        { invoice_id: uuid.toLowerCase(), payment_date: inDays(10) },
        { invoice_id: String(b), payment_date: inDays(20) },
      ]);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        message: 'Se aprobaron correctamente las facturas',
        payment_date_message: expect.stringMatching(
          /^Fechas de pago: T-\d+ el \d{2}\/\d{2}\/\d{4}; T-\d+ el/,
        ),
      });
      expect(await statusOf(db(), a)).toBe(InvoiceStatus.APPROVED);
    });

    it('enforces the 150-day rule through the lifecycle guard, naming the folio; nothing is written', async () => {
      const ok = await pending(5);
      const far = await pending(20);
      const label = `T-${(await db().selectFrom('invoices').select('folio').where('id', '=', far).executeTakeFirstOrThrow()).folio}`;
      const events = await eventCount(db(), ok);
      // Emitted 20 days ago: 131 days from today is 151 days after emission.
      const res = await postJson(ctx.app, AUTHORIZE, corporate, [
        { invoice_id: ok, payment_date: inDays(60) },
        { invoice_id: far, payment_date: inDays(131) },
      ]);
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toBe(
        `La fecha de pago de la factura ${label} excede el rango permitido de 150 días desde su emisión (${dayjs(inDays(-20)).format('DD/MM/YYYY')}).`,
      );
      // All or nothing: the first invoice was authorized inside the transaction and rolled back.
      expect(await statusOf(db(), ok)).toBe(InvoiceStatus.PENDING);
      expect(await eventCount(db(), ok)).toBe(events);
      const exactly150 = await postJson(ctx.app, AUTHORIZE, corporate, [
        { invoice_id: far, payment_date: inDays(130) },
      ]);
      expect(exactly150.statusCode).toBe(200);
      expect(exactly150.json().message).toBe('Se aprobó correctamente la factura');
    });

    it('a batch is all or nothing: one refused item writes no status and no audit row; then all five are recorded', async () => {
      const ids = [await pending(), await pending(), await pending(), await pending(), await pending()];
      const [approved] = await invoicesIn(db(), DEMO_PROVIDERS[0].rfc, InvoiceStatus.APPROVED);
      const before = await Promise.all(ids.map((id) => eventCount(db(), id)));
      const refused = await postJson(ctx.app, AUTHORIZE, corporate, [
        ...ids.slice(0, 3).map((id) => ({ invoice_id: id, payment_date: inDays(30) })),
        { invoice_id: approved, payment_date: inDays(30) },
        ...ids.slice(3).map((id) => ({ invoice_id: id, payment_date: inDays(30) })),
      ]);
      expect(refused.statusCode).toBe(409);
      for (const id of ids) expect(await statusOf(db(), id)).toBe(InvoiceStatus.PENDING);
      expect(await Promise.all(ids.map((id) => eventCount(db(), id)))).toEqual(before);

      const res = await postJson(
        ctx.app,
        AUTHORIZE,
        corporate,
        ids.map((id) => ({ invoice_id: id, payment_date: inDays(30) })),
      );
      expect(res.statusCode).toBe(200);
      const audit = await db()
        .selectFrom('invoice_events')
        .select(['invoice_id', 'event', 'from_status', 'to_status', 'actor'])
        .where('invoice_id', 'in', ids)
        .where('event', '=', 'invoice.authorize')
        .orderBy('invoice_id')
        .execute();
      expect(audit).toEqual(
        [...ids]
          .sort((a, b) => a - b)
          .map((id) => ({
            invoice_id: id,
            event: 'invoice.authorize',
            from_status: InvoiceStatus.PENDING,
            to_status: InvoiceStatus.APPROVED,
            actor: 'corporativo.demo',
          })),
      );
    });

    it('refuses a payment date that is not after today', async () => {
      const id = await pending();
      for (const date of [today, inDays(-3)]) {
        const res = await postJson(ctx.app, AUTHORIZE, corporate, [{ invoice_id: id, payment_date: date }]);
        expect(res.statusCode).toBe(400);
        expect(res.json().detail).toMatch(
          /^La fecha de pago de la factura T-\d+ debe ser posterior a hoy\.$/,
        );
      }
      expect(await statusOf(db(), id)).toBe(InvoiceStatus.PENDING);
    });

    it('answers 400 per field for a malformed list, never a 500', async () => {
      const id = await pending();
      const cases: [unknown, Record<string, string[]>][] = [
        [[], { _form: ['Selecciona al menos una factura.'] }],
        [{ invoice_id: id, payment_date: inDays(5) }, { _form: ['Valor no válido'] }],
        [[{ invoice_id: id }], { '0.payment_date': ['Requerido'] }],
        [
          [{ invoice_id: id, payment_date: '2026-02-30' }],
          { '0.payment_date': ['Debe ser una fecha válida'] },
        ],
        [[{ payment_date: inDays(5) }], { '0.invoice_id': ['Valor no válido'] }],
        [[{ invoice_id: true, payment_date: inDays(5) }], { '0.invoice_id': ['Valor no válido'] }],
        [
          [
            { invoice_id: id, payment_date: inDays(5) },
            { invoice_id: id, payment_date: inDays(6) },
          ],
          {
            _form: [
              expect.stringMatching(/^La factura T-\d+ aparece más de una vez\.$/),
            ] as unknown as string[],
          },
        ],
      ];
      for (const [payload, errors] of cases) {
        const res = await postJson(ctx.app, AUTHORIZE, corporate, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json()).toEqual(errors);
      }
      const many = Array.from({ length: 501 }, (_, i) => ({ invoice_id: i + 1, payment_date: inDays(5) }));
      const tooMany = await postJson(ctx.app, AUTHORIZE, corporate, many);
      expect(tooMany.json()).toEqual({ _form: ['Puedes enviar como máximo 500 facturas por solicitud.'] });
      expect(await statusOf(db(), id)).toBe(InvoiceStatus.PENDING);
    });

    it('answers 409 for every status but PENDING, naming the invoice, and writes nothing', async () => {
      for (const status of PROVIDER_STATUSES.filter((s) => s !== InvoiceStatus.PENDING)) {
        const id = await invoiceInStatus(status);
        const events = await eventCount(db(), id);
        const res = await postJson(ctx.app, AUTHORIZE, corporate, [
          { invoice_id: id, payment_date: inDays(10) },
        ]);
        expect(res.statusCode, `status ${status}`).toBe(409);
        expect(res.json().detail).toMatch(
          /^La factura .+ no tiene una solicitud pendiente: su estado es «.+»\.$/,
        );
        expect(await statusOf(db(), id)).toBe(status);
        expect(await eventCount(db(), id)).toBe(events);
      }
    });

    it('answers 404 for an unknown invoice and for one the corporate did not receive; 403 for a provider', async () => {
      const id = await pending();
      const unknown = await postJson(ctx.app, AUTHORIZE, corporate, [
        { invoice_id: id, payment_date: inDays(10) },
        { invoice_id: 987_654, payment_date: inDays(10) },
      ]);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ detail: 'Factura no encontrada: 987654.' });
      expect(await statusOf(db(), id)).toBe(InvoiceStatus.PENDING);
      const asProvider = await postJson(ctx.app, AUTHORIZE, provider, [
        { invoice_id: id, payment_date: inDays(10) },
      ]);
      expect(asProvider.statusCode).toBe(403);
      expect((await postJson(ctx.app, AUTHORIZE, null, [])).statusCode).toBe(401);
    });
  });

  describe('POST corporates/manually-requests/reject/', () => {
    it('rejects every listed request, keeps the reason in the audit trail and tells the provider', async () => {
      const [a, b] = [await pending(), await pending()];
      const res = await postJson(ctx.app, REJECT, corporate, [
        { invoice_id: a, reason: 'Sin presupuesto este mes' },
        { invoice_id: b },
      ]);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        message: 'Se rechazaron correctamente las facturas',
        payment_date_message:
          'Tus proveedores fueron notificados; las facturas rechazadas no se adelantarán.',
      });
      expect(await statusOf(db(), a)).toBe(InvoiceStatus.REJECTED);
      expect(await statusOf(db(), b)).toBe(InvoiceStatus.REJECTED);
      const trail = await getJson(ctx.app, `/api/invoices/${a}/events/`, corporate);
      expect(trail.json().at(-1)).toMatchObject({
        event: 'invoice.reject',
        from_status: 40,
        to_status: 20,
        actor: 'corporativo.demo',
        reason: 'Sin presupuesto este mes',
      });
      const mail = await db()
        .selectFrom('mail_outbox')
        .selectAll()
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(mail.subject).toContain('no autorizó tu solicitud de adelanto');
    });

    it('is all or nothing, and a REJECTED invoice cannot be requested again by the provider', async () => {
      const a = await pending();
      const [approved] = await invoicesIn(db(), DEMO_PROVIDERS[0].rfc, InvoiceStatus.APPROVED);
      const res = await postJson(ctx.app, REJECT, corporate, [{ invoice_id: a }, { invoice_id: approved }]);
      expect(res.statusCode).toBe(409);
      expect(await statusOf(db(), a)).toBe(InvoiceStatus.PENDING);
      const single = await postJson(ctx.app, REJECT, corporate, [{ invoice_id: a }]);
      expect(single.json().message).toBe('Se rechazó correctamente la factura');
      const again = await postJson(ctx.app, '/api/providers/request-payment/', provider, {
        id_request_factoring: a,
      });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toContain('«Rechazada»');
    });

    it('answers 409 for every status but PENDING and 400 for a malformed list', async () => {
      for (const status of PROVIDER_STATUSES.filter((s) => s !== InvoiceStatus.PENDING)) {
        const id = await invoiceInStatus(status);
        const res = await postJson(ctx.app, REJECT, corporate, [{ invoice_id: id }]);
        expect(res.statusCode, `status ${status}`).toBe(409);
        expect(await statusOf(db(), id)).toBe(status);
      }
      const bad = await postJson(ctx.app, REJECT, corporate, [{ invoice_id: 1, reason: 'x'.repeat(501) }]);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ '0.reason': ['Valor no válido'] });
    });
  });

  it('a corporate that also sells reaches the provider calls for the invoices it issued only', async () => {
    const { companyId } = await addCompanyWithUser(db(), {
      rfc: 'CNO100823HX5',
      name: 'Corporativo Norteño',
      username: 'corporativo.norte',
      isCorporate: true,
    });
    const other = await sessionFor(ctx.app, 'corporativo.norte');
    const list = await getJson(ctx.app, LIST, other);
    expect(list.statusCode).toBe(200);
    expect(list.json().count).toBe(0);
    const ownList = await getJson(ctx.app, '/api/providers/alliances/', other);
    expect(ownList.json().count).toBe(0);
    expect(companyId).toBeGreaterThan(0);
  });
});
