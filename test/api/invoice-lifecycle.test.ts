import dayjs from 'dayjs';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/transaction';
import { businessDate } from '../../server/http/business-date';
import type { Mailer } from '../../server/mail/mailer';
import type { AuthenticatedUser } from '../../server/modules/auth/authenticate';
import { rejectRequests } from '../../server/modules/corporates/corporates.service';
import {
  InvoiceRequestError,
  invoiceCaller,
  lifecycleActor,
} from '../../server/modules/invoices/invoice-access';
import {
  applyInvoiceEvent,
  applyInvoiceEvents,
  IllegalTransitionError,
  InvoiceNotFoundError,
} from '../../server/modules/invoices/lifecycle.service';
import { requestAuthorization } from '../../server/modules/providers/providers.service';
import { DEMO_PROVIDERS, DEMO_SEED, seedDemoWorld } from '../../server/seed/demo-world';
import { InvoiceStatus, PROVIDER_STATUSES } from '../../src/domain/invoice-status';
import { isInPeriods, PERIOD_CODES } from '../../src/domain/period';
import { SatStatus, type SatStatusCode } from '../../src/domain/sat-status';
import type { LifecycleActor } from '../../src/machines/invoice-lifecycle.machine';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { testAuthenticity } from '../support/demo-authority';
import {
  advanceTo,
  DEMO_PROVIDER,
  eventCount as eventsOf,
  importInvoice,
  invoicesIn,
  statusOf,
} from '../support/pronto-pago';

// NOTE: CFDI Fecha is the issuer's wall-clock time without an offset; the demo issuers are in Mexico
// City. sv-SE formats as 'YYYY-MM-DD HH:MM:SS', the text form of a timestamp column.
const MEXICO_CITY_WALL_TIME = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'America/Mexico_City',
  dateStyle: 'short',
  timeStyle: 'medium',
});

describe('invoice lifecycle on the server', () => {
  let ctx: ApiTestContext;
  beforeAll(async () => {
    ctx = await createApiApp();
  });
  afterAll(() => ctx.close());

  const db = () => ctx.database.db;
  const invoiceIn = async (status: number) =>
    db()
      .selectFrom('invoices')
      .selectAll()
      .where('status', '=', status)
      .orderBy('id')
      .executeTakeFirstOrThrow();
  // The instant the demo world was seeded, from its seeds row.
  const seedInstant = async () => {
    const seed = await db()
      .selectFrom('seeds')
      .select('applied_at')
      .where('name', '=', DEMO_SEED)
      .executeTakeFirstOrThrow();
    return new Date(seed.applied_at);
  };
  const eventCount = async (invoiceId: number) =>
    (await db().selectFrom('invoice_events').select('id').where('invoice_id', '=', invoiceId).execute())
      .length;

  it('the demo world has every status of spec §4 for every provider, in MXN and USD', async () => {
    const rows = await db().selectFrom('invoices').select(['emitter_rfc', 'status', 'currency']).execute();
    for (const provider of DEMO_PROVIDERS) {
      const statuses = new Set(rows.filter((r) => r.emitter_rfc === provider.rfc).map((r) => r.status));
      expect([...statuses].sort()).toEqual([...PROVIDER_STATUSES].sort());
    }
    expect(new Set(rows.map((r) => r.currency))).toEqual(new Set(['MXN', 'USD']));
  });

  it('every demo status has MXN and USD invoices, and every demo invoice matches a period option', async () => {
    const rows = await db()
      .selectFrom('invoices')
      .select(['status', 'currency', 'date_of_emission'])
      .execute();
    expect(rows).toHaveLength(48);
    for (const status of PROVIDER_STATUSES) {
      const currencies = new Set(rows.filter((r) => r.status === status).map((r) => r.currency));
      expect(currencies, `status ${status}`).toEqual(new Set(['MXN', 'USD']));
    }
    // The business day the demo world was seeded on, from its seeds row.
    const seededOn = businessDate(await seedInstant());
    const outside = rows
      .map((r) => r.date_of_emission)
      .filter((date) => !PERIOD_CODES.some((code) => isInPeriods(date, [code], seededOn)));
    expect(outside, `seeded on ${seededOn}`).toEqual([]);
  });

  it('no demo CFDI is issued after the instant the demo world was seeded', async () => {
    const seededAt = MEXICO_CITY_WALL_TIME.format(await seedInstant());
    const rows = await db().selectFrom('invoices').select(['folio', 'issued_at']).execute();
    expect(rows).toHaveLength(48);
    const future = rows.filter((r) => r.issued_at > seededAt);
    expect(future, `seeded at ${seededAt} Mexico City`).toEqual([]);
  });

  it('every demo status change has its audit event, from import to the current status', async () => {
    const paid = await invoiceIn(InvoiceStatus.PAID);
    const events = await db()
      .selectFrom('invoice_events')
      .select(['event', 'from_status', 'to_status', 'actor'])
      .where('invoice_id', '=', paid.id)
      .orderBy('id')
      .execute();
    expect(events.map((e) => [e.event, e.from_status, e.to_status])).toEqual([
      ['invoice.imported', null, 60],
      ['invoice.preAuthorize', 60, 30],
      ['invoice.approveAdvance', 30, 50],
      ['invoice.disburse', 50, 10],
    ]);
    expect(events.map((e) => e.actor)).toContain('corporativo.demo');
  });

  it('a second seed run changes nothing', async () => {
    const before = await db().selectFrom('invoices').select('id').execute();
    const result = await seedDemoWorld(db(), testAuthenticity(db()));
    expect(result.created).toBe(false);
    expect((await db().selectFrom('invoices').select('id').execute()).length).toBe(before.length);
  });

  it('refuses an event the machine does not allow, writing nothing (409)', async () => {
    const paid = await invoiceIn(InvoiceStatus.PAID);
    const events = await eventCount(paid.id);
    const actor: LifecycleActor = {
      kind: 'provider',
      companyId: paid.emitter_company_id,
      satAuthorized: true,
    };
    const attempt = applyInvoiceEvent(
      db(),
      paid.id,
      { type: 'invoice.requestAuthorization', actor },
      { userId: null, label: 't' },
    );
    await expect(attempt).rejects.toBeInstanceOf(IllegalTransitionError);
    await expect(attempt).rejects.toMatchObject({ statusCode: 409 });
    expect((await invoiceIn(InvoiceStatus.PAID)).id).toBe(paid.id);
    expect(await eventCount(paid.id)).toBe(events);
  });

  it("refuses another company's invoice: the guard checks the actor is the emitter", async () => {
    const available = await invoiceIn(InvoiceStatus.AVAILABLE);
    const stranger: LifecycleActor = {
      kind: 'provider',
      companyId: available.emitter_company_id + 999,
      satAuthorized: true,
    };
    await expect(
      applyInvoiceEvent(
        db(),
        available.id,
        { type: 'invoice.requestAuthorization', actor: stranger },
        { userId: null, label: 't' },
      ),
    ).rejects.toBeInstanceOf(IllegalTransitionError);
  });

  it('a failed audit insert rolls the status back: both are written or neither', async () => {
    const available = await invoiceIn(InvoiceStatus.AVAILABLE);
    const events = await eventCount(available.id);
    const actor: LifecycleActor = {
      kind: 'provider',
      companyId: available.emitter_company_id,
      satAuthorized: true,
    };
    // actor_user_id references users(id): an unknown user makes the event insert fail after the status update.
    await expect(
      applyInvoiceEvent(
        db(),
        available.id,
        { type: 'invoice.requestAuthorization', actor },
        { userId: 987_654, label: 'x' },
      ),
    ).rejects.toThrow();
    const after = await db()
      .selectFrom('invoices')
      .select('status')
      .where('id', '=', available.id)
      .executeTakeFirstOrThrow();
    expect(after.status).toBe(InvoiceStatus.AVAILABLE);
    expect(await eventCount(available.id)).toBe(events);
  });

  it('a legal event moves the invoice and records who did it', async () => {
    const available = await invoiceIn(InvoiceStatus.AVAILABLE);
    const actor: LifecycleActor = {
      kind: 'provider',
      companyId: available.emitter_company_id,
      satAuthorized: true,
    };
    const result = await applyInvoiceEvent(
      db(),
      available.id,
      { type: 'invoice.requestAuthorization', actor },
      { userId: null, label: 'proveedor de prueba' },
    );
    expect(result).toEqual({ invoiceId: available.id, from: 60, to: 40 });
    const last = await db()
      .selectFrom('invoice_events')
      .selectAll()
      .where('invoice_id', '=', available.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(last).toMatchObject({ from_status: 60, to_status: 40, actor: 'proveedor de prueba' });
  });

  describe('applyInvoiceEvents: a batch in a few statements, all or nothing', () => {
    const AUDIT = { userId: null, label: 'corporativo de prueba' };
    const paymentDate = dayjs().add(30, 'day').format('YYYY-MM-DD');

    async function pendingInvoices(count: number): Promise<number[]> {
      const ids: number[] = [];
      for (let i = 0; i < count; i += 1) {
        const id = await importInvoice(db());
        await advanceTo(db(), id, 'pending');
        ids.push(id);
      }
      return ids;
    }

    async function receiver(invoiceId: number): Promise<LifecycleActor> {
      const row = await db()
        .selectFrom('invoices')
        .select('receiver_company_id')
        .where('id', '=', invoiceId)
        .executeTakeFirstOrThrow();
      return { kind: 'corporate', companyId: row.receiver_company_id, satAuthorized: true };
    }

    async function auditRows(ids: readonly number[]) {
      return db()
        .selectFrom('invoice_events')
        .select(['invoice_id', 'event', 'from_status', 'to_status', 'actor', 'reason'])
        .where('invoice_id', 'in', ids)
        .where('event', 'in', ['invoice.authorize', 'invoice.reject'])
        .orderBy('invoice_id')
        .execute();
    }

    it('moves N invoices and writes their N audit rows in three statements', async () => {
      const ids = await pendingInvoices(5);
      const actor = await receiver(ids[0] as number);
      let statements = 0;
      const counter: KyselyPlugin = {
        transformQuery: (args) => {
          statements += 1;
          return args.node;
        },
        transformResult: async (args) => args.result,
      };
      const applied = await applyInvoiceEvents(
        db().withPlugin(counter),
        ids.map((invoiceId) => ({
          invoiceId,
          event: { type: 'invoice.reject', actor, reason: `motivo ${invoiceId}` },
        })),
        AUDIT,
      );
      // One SELECT … FOR UPDATE, one UPDATE … FROM (VALUES …), one multi-row INSERT: not 3 × 5.
      expect(statements).toBe(3);
      expect(applied).toEqual(ids.map((invoiceId) => ({ invoiceId, from: 40, to: 20 })));
      for (const id of ids) expect(await statusOf(db(), id)).toBe(InvoiceStatus.REJECTED);
      expect(await auditRows(ids)).toEqual(
        ids.map((invoiceId) => ({
          invoice_id: invoiceId,
          event: 'invoice.reject',
          from_status: 40,
          to_status: 20,
          actor: AUDIT.label,
          reason: `motivo ${invoiceId}`,
        })),
      );
    });

    it('writes each payment date the batch carries', async () => {
      const ids = await pendingInvoices(3);
      const actor = await receiver(ids[0] as number);
      const dates = ids.map((_, i) =>
        dayjs()
          .add(10 + i, 'day')
          .format('YYYY-MM-DD'),
      );
      await applyInvoiceEvents(
        db(),
        ids.map((invoiceId, i) => ({
          invoiceId,
          event: { type: 'invoice.authorize', actor, paymentDate: dates[i] as string },
        })),
        AUDIT,
      );
      const rows = await db()
        .selectFrom('invoices')
        .select(['id', 'status', 'payment_date'])
        .where('id', 'in', ids)
        .orderBy('id')
        .execute();
      expect(rows).toEqual(
        ids.map((id, i) => ({ id, status: InvoiceStatus.APPROVED, payment_date: dates[i] })),
      );
      expect((await auditRows(ids)).map((row) => row.to_status)).toEqual([30, 30, 30]);
    });

    it('one refused item refuses the batch: no status changes and no audit rows', async () => {
      const ids = await pendingInvoices(4);
      const actor = await receiver(ids[0] as number);
      const approved = await invoiceIn(InvoiceStatus.APPROVED);
      const batch = [...ids.slice(0, 2), approved.id, ...ids.slice(2)];
      const before = await eventCount(approved.id);
      const attempt = applyInvoiceEvents(
        db(),
        batch.map((invoiceId) => ({ invoiceId, event: { type: 'invoice.reject', actor } })),
        AUDIT,
      );
      await expect(attempt).rejects.toBeInstanceOf(IllegalTransitionError);
      await expect(attempt).rejects.toMatchObject({
        statusCode: 409,
        invoiceId: approved.id,
        message: expect.stringMatching(/no tiene una solicitud pendiente: su estado es «Autorizada»\.$/),
      });
      for (const id of ids) expect(await statusOf(db(), id)).toBe(InvoiceStatus.PENDING);
      expect(await auditRows(ids)).toEqual([]);
      expect(await eventCount(approved.id)).toBe(before);
    });

    it('a date the 150-day guard refuses refuses the batch, naming the invoice, and writes nothing', async () => {
      const ids = await pendingInvoices(2);
      const actor = await receiver(ids[0] as number);
      const attempt = applyInvoiceEvents(
        db(),
        [
          { invoiceId: ids[0] as number, event: { type: 'invoice.authorize', actor, paymentDate } },
          {
            invoiceId: ids[1] as number,
            event: {
              type: 'invoice.authorize',
              actor,
              paymentDate: dayjs().add(200, 'day').format('YYYY-MM-DD'),
            },
          },
        ],
        AUDIT,
      );
      await expect(attempt).rejects.toMatchObject({
        statusCode: 409,
        reason: 'paymentDate',
        message: expect.stringMatching(
          /^La fecha de pago de la factura T-\d+ excede el rango permitido de 150 días/,
        ),
      });
      for (const id of ids) expect(await statusOf(db(), id)).toBe(InvoiceStatus.PENDING);
      expect(await auditRows(ids)).toEqual([]);
    });

    it('an unknown invoice refuses the batch (404), writing nothing', async () => {
      const ids = await pendingInvoices(1);
      const actor = await receiver(ids[0] as number);
      const attempt = applyInvoiceEvents(
        db(),
        [ids[0] as number, 987_654].map((invoiceId) => ({
          invoiceId,
          event: { type: 'invoice.reject', actor },
        })),
        AUDIT,
      );
      await expect(attempt).rejects.toBeInstanceOf(InvoiceNotFoundError);
      expect(await statusOf(db(), ids[0] as number)).toBe(InvoiceStatus.PENDING);
      expect(await auditRows(ids)).toEqual([]);
    });
  });

  describe("the caller's SAT link reaches the lifecycle machine", () => {
    // The after-commit mail is never run here: the services only return it.
    const noMail: Mailer = { send: async () => 'outbox' };
    const deps = () => ({ db: db(), mailer: noMail, appBaseUrl: 'http://localhost' });

    async function userOf(username: string, satStatus: SatStatusCode): Promise<AuthenticatedUser> {
      const row = await db()
        .selectFrom('users')
        .innerJoin('companies', 'companies.id', 'users.company_id')
        .select(['users.id', 'users.username', 'users.email', 'users.company_id', 'companies.is_corporate'])
        .where('users.username', '=', username)
        .executeTakeFirstOrThrow();
      return {
        id: row.id,
        username: row.username,
        email: row.email,
        companyId: row.company_id,
        isCorporate: row.is_corporate,
        corporateRefusal: null,
        hasFactoring: false,
        corporateCanPayCosts: false,
        satStatus,
        sessionFamilyId: 'test',
        operatorRoles: [],
        mfaVerified: false,
      };
    }

    it('invoiceCaller carries the real SAT-link status and still answers 403 when it is not authorized', async () => {
      const caller = invoiceCaller(await userOf('proveedor.demo', SatStatus.AUTHORIZED), 'provider');
      expect(caller.satAuthorized).toBe(true);
      expect(lifecycleActor(caller, 'provider')).toMatchObject({ kind: 'provider', satAuthorized: true });
      for (const status of [SatStatus.SENT, SatStatus.DONT_SENT, SatStatus.UNAUTHORIZED]) {
        const user = await userOf('proveedor.demo', status);
        expect(() => invoiceCaller(user, 'provider')).toThrow(InvoiceRequestError);
        expect(() => invoiceCaller(user, 'provider')).toThrow(/vinculación con el SAT no está autorizada/);
      }
    });

    it('a provider caller without an authorized link moves nothing: the machine guard refuses (409)', async () => {
      const [id] = await invoicesIn(db(), DEMO_PROVIDER.rfc, InvoiceStatus.AVAILABLE);
      if (id === undefined) throw new Error('no AVAILABLE invoice');
      const events = await eventsOf(db(), id);
      const caller = invoiceCaller(await userOf('proveedor.demo', SatStatus.AUTHORIZED), 'provider');
      const unlinked = { ...caller, satAuthorized: false };
      expect(lifecycleActor(unlinked, 'provider').satAuthorized).toBe(false);
      await expect(
        inTransaction(db(), (trx) => requestAuthorization(deps(), trx, unlinked, id)),
      ).rejects.toBeInstanceOf(IllegalTransitionError);
      expect(await statusOf(db(), id)).toBe(InvoiceStatus.AVAILABLE);
      expect(await eventsOf(db(), id)).toBe(events);
      // The same call with the link authorized goes through: the flag alone made the difference.
      await inTransaction(db(), (trx) => requestAuthorization(deps(), trx, caller, id));
      expect(await statusOf(db(), id)).toBe(InvoiceStatus.PENDING);
    });

    it('a corporate caller without an authorized link cannot reject a request either', async () => {
      const [id] = await invoicesIn(db(), DEMO_PROVIDER.rfc, InvoiceStatus.PENDING);
      if (id === undefined) throw new Error('no PENDING invoice');
      const events = await eventsOf(db(), id);
      const caller = invoiceCaller(await userOf('corporativo.demo', SatStatus.AUTHORIZED), 'corporate');
      await expect(
        inTransaction(db(), (trx) =>
          rejectRequests(deps(), trx, { ...caller, satAuthorized: false }, [{ invoice_id: id }]),
        ),
      ).rejects.toBeInstanceOf(IllegalTransitionError);
      expect(await statusOf(db(), id)).toBe(InvoiceStatus.PENDING);
      expect(await eventsOf(db(), id)).toBe(events);
    });
  });
});
