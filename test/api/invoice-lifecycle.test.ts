import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyInvoiceEvent, IllegalTransitionError } from '../../server/modules/invoices/lifecycle.service';
import { DEMO_PROVIDERS, seedDemoWorld } from '../../server/seed/demo-world';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import type { LifecycleActor } from '../../src/machines/invoice-lifecycle.machine';
import { type ApiTestContext, createApiApp } from '../support/api-app';

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
  const eventCount = async (invoiceId: number) =>
    (await db().selectFrom('invoice_events').select('id').where('invoice_id', '=', invoiceId).execute())
      .length;

  it('the demo world has every status of spec §4 for every provider, in MXN and USD', async () => {
    const rows = await db().selectFrom('invoices').select(['emitter_rfc', 'status', 'currency']).execute();
    for (const provider of DEMO_PROVIDERS) {
      const statuses = new Set(rows.filter((r) => r.emitter_rfc === provider.rfc).map((r) => r.status));
      expect([...statuses].sort()).toEqual(
        [10, 20, 30, 40, 50, 60, 70, 90].filter((s) => s !== InvoiceStatus.ALL),
      );
    }
    expect(new Set(rows.map((r) => r.currency))).toEqual(new Set(['MXN', 'USD']));
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
    const result = await seedDemoWorld(db());
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
});
