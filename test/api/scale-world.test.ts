// @postgresql: the 100,000-invoice world is bulk-inserted with engine-level SQL and read back through its indexes.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transition } from 'xstate';
import { parseCfdi } from '../../server/cfdi/parse-cfdi';
import { applyInvoiceEvent } from '../../server/modules/invoices/lifecycle.service';
import { DEMO_CORPORATE } from '../../server/seed/demo-world';
import { seedScaleWorld } from '../../server/seed/scale-world';
import { INVOICE_STATUS_CODES, InvoiceStatus } from '../../src/domain/invoice-status';
import { checkRfc } from '../../src/domain/rfc';
import type { CorporateSummaryPage } from '../../src/domain/schemas/corporates';
import type { InvoicePage } from '../../src/domain/schemas/invoices';
import { type InvoiceLifecycleSnapshot, resolveInvoiceSnapshot } from '../../src/machines/invoice-actions';
import {
  type InvoiceLifecycleEvent,
  type InvoiceLifecycleEventType,
  invoiceLifecycleMachine,
  type LifecycleActor,
  STATUS_BY_STATE,
} from '../../src/machines/invoice-lifecycle.machine';
import { type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { testAuthenticity } from '../support/demo-authority';
import { getJson } from '../support/pronto-pago';

// A small generated world (2,000 invoices for the demo supplier, 500 among 5 other suppliers) on the file's
// own database: what demo:scale writes must be what the lifecycle machine would have written, and a second
// run must add nothing.
const INVOICES = 2_000;
const OTHERS = 500;
const PROVIDERS = 5;
const CORPORATES = 3;

interface EventRow {
  invoice_id: number;
  event: string;
  from_status: number | null;
  to_status: number;
  actor: string;
  at: string;
}

interface InvoiceFacts {
  id: number;
  status: number;
  emitter_company_id: number;
  receiver_company_id: number;
  date_of_emission: string;
  payment_date: string | null;
  buyer_funds_advance: boolean;
}

/** Who an audit row names, as the lifecycle machine's actor of that invoice. */
function actorOf(label: string, invoice: InvoiceFacts): LifecycleActor {
  if (label === 'operador Flujo') return { kind: 'operator', companyId: null, satAuthorized: true };
  if (label === 'SAT') return { kind: 'sat', companyId: null, satAuthorized: true };
  if (label.startsWith('proveedor'))
    return { kind: 'provider', companyId: invoice.emitter_company_id, satAuthorized: true };
  if (label.startsWith('corporativo'))
    return { kind: 'corporate', companyId: invoice.receiver_company_id, satAuthorized: true };
  throw new Error(`unknown actor ${label}`);
}

/**
 * Null when the machine, fed the audit rows one by one from a fresh import, accepts each with the recorded
 * from/to statuses and ends in the invoice's status and context; else what went wrong. An authorization's
 * buyerFunds is not recorded in the row, so both values are tried.
 */
function replayProblem(invoice: InvoiceFacts, events: readonly EventRow[]): string | null {
  const [imported, ...steps] = events;
  if (imported?.event !== 'invoice.imported' || imported.from_status !== null || imported.to_status !== 60)
    return 'does not start with its import';
  const walk = (snapshot: InvoiceLifecycleSnapshot, index: number): string | null => {
    const status = STATUS_BY_STATE[String(snapshot.value)];
    const step = steps[index];
    if (!step) {
      if (status !== invoice.status) return `ends in ${status}, stored ${invoice.status}`;
      if ((snapshot.context.buyerFundsAdvance === true) !== invoice.buyer_funds_advance)
        return 'buyer_funds_advance differs from the machine';
      return null;
    }
    if (step.from_status !== status) return `row ${index + 1} from ${step.from_status}, machine at ${status}`;
    const type = step.event as InvoiceLifecycleEventType;
    const actor = actorOf(step.actor, invoice);
    const dated = type === 'invoice.authorize' || type === 'invoice.preAuthorize';
    const candidates: InvoiceLifecycleEvent[] = dated
      ? [false, true].map(
          (buyerFunds) =>
            ({ type, actor, paymentDate: invoice.payment_date ?? '', buyerFunds }) as InvoiceLifecycleEvent,
        )
      : [{ type, actor } as InvoiceLifecycleEvent];
    let problem: string | null = `row ${index + 1} (${type}) refused in ${status}`;
    for (const event of candidates) {
      if (!snapshot.can(event)) continue;
      const [next] = transition(invoiceLifecycleMachine, snapshot, event);
      if (STATUS_BY_STATE[String(next.value)] !== step.to_status) {
        problem = `row ${index + 1} to ${step.to_status}, machine to ${String(next.value)}`;
        continue;
      }
      problem = walk(next as InvoiceLifecycleSnapshot, index + 1);
      if (problem === null) return null;
    }
    return problem;
  };
  const start = resolveInvoiceSnapshot({
    status: InvoiceStatus.AVAILABLE,
    emitterCompanyId: invoice.emitter_company_id,
    receiverCompanyId: invoice.receiver_company_id,
    dateOfEmission: invoice.date_of_emission,
  });
  return walk(start, 0);
}

describe('npm run ops -- demo:scale (seedScaleWorld)', () => {
  let ctx: ApiTestContext;
  let provider: Session;
  let corporate: Session;
  const db = () => ctx.database.db;
  let demoSupplierId: number;

  const tableCounts = async () => {
    const { rows } = await sql<Record<string, number | string>>`
      select (select count(*) from invoices) as invoices, (select count(*) from invoice_events) as events,
        (select count(*) from companies) as companies, (select count(*) from alliances) as alliances`.execute(
      db(),
    );
    return Object.fromEntries(Object.entries(rows[0] ?? {}).map(([key, value]) => [key, Number(value)]));
  };

  beforeAll(async () => {
    ctx = await createApiApp();
    const result = await seedScaleWorld(db(), {
      authenticity: testAuthenticity(db()),
      invoices: INVOICES,
      providers: PROVIDERS,
      corporates: CORPORATES,
    });
    expect(result).toMatchObject({
      invoices: INVOICES + OTHERS,
      companies: PROVIDERS + CORPORATES,
      skipped: 0,
    });
    provider = await sessionFor(ctx.app, 'proveedor.demo');
    corporate = await sessionFor(ctx.app, 'corporativo.demo');
    const row = await db()
      .selectFrom('users')
      .select('company_id')
      .where('username', '=', 'proveedor.demo')
      .executeTakeFirstOrThrow();
    demoSupplierId = row.company_id as number;
  }, 240_000);
  afterAll(() => ctx.close());

  it('gives the demo supplier its invoices in every status, and the list counts them per status as the table does', async () => {
    const rows = await db()
      .selectFrom('invoices')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('emitter_company_id', '=', demoSupplierId)
      .where('serie', '=', 'B')
      .groupBy('status')
      .execute();
    const byStatus = new Map(rows.map((row) => [row.status, Number(row.n)]));
    expect([...byStatus.values()].reduce((a, b) => a + b, 0)).toBe(INVOICES);
    for (const status of INVOICE_STATUS_CODES) {
      expect(byStatus.get(status) ?? 0, `status ${status}`).toBeGreaterThan(0);
    }
    // The demo world's own 16 invoices come on top, one per status pair.
    const demo = await db()
      .selectFrom('invoices')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('emitter_company_id', '=', demoSupplierId)
      .groupBy('status')
      .execute();
    for (const { status, n } of demo) {
      const res = await getJson(ctx.app, `/api/providers/alliances/?status=${status}&page_size=1`, provider);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<InvoicePage>().count, `status ${status}`).toBe(Number(n));
    }
    const all = (
      await getJson(ctx.app, '/api/providers/alliances/?page_size=1', provider)
    ).json<InvoicePage>();
    expect(all.count).toBe(INVOICES + 16);
    expect(all.indicators?.count).toBe(INVOICES + 16);
  });

  it("writes each invoice's audit trail as a walk the lifecycle machine accepts, ending in its status", async () => {
    const invoices = await db()
      .selectFrom('invoices')
      .select([
        'id',
        'status',
        'emitter_company_id',
        'receiver_company_id',
        'date_of_emission',
        'payment_date',
        'buyer_funds_advance',
      ])
      .where('serie', 'in', ['B', 'F'])
      .execute();
    expect(invoices).toHaveLength(INVOICES + OTHERS);
    const events = await db()
      .selectFrom('invoice_events')
      .innerJoin('invoices', 'invoices.id', 'invoice_events.invoice_id')
      .select([
        'invoice_events.invoice_id',
        'invoice_events.event',
        'invoice_events.from_status',
        'invoice_events.to_status',
        'invoice_events.actor',
        'invoice_events.at',
      ])
      .where('invoices.serie', 'in', ['B', 'F'])
      .orderBy('invoice_events.id')
      .execute();
    const trails = new Map<number, EventRow[]>();
    for (const event of events)
      trails.set(event.invoice_id, [...(trails.get(event.invoice_id) ?? []), event]);
    const now = new Date().toISOString();
    const problems: string[] = [];
    for (const invoice of invoices) {
      const trail = trails.get(invoice.id) ?? [];
      const problem = replayProblem(invoice, trail);
      if (problem) problems.push(`invoice ${invoice.id}: ${problem}`);
      const times = trail.map((event) => event.at);
      if (times.some((at, i) => at > now || (i > 0 && at < (times[i - 1] as string))))
        problems.push(`invoice ${invoice.id}: audit times out of order or in the future`);
    }
    expect(problems.slice(0, 10)).toEqual([]);
  });

  it('stores CFDI XML that reads back as the row, and valid RFCs for the generated companies', async () => {
    const rows = await db()
      .selectFrom('invoices')
      .select([
        'cfdi_uuid',
        'cfdi_xml',
        'amount',
        'currency',
        'emitter_rfc',
        'receiver_rfc',
        'serie',
        'folio',
      ])
      .where('serie', 'in', ['B', 'F'])
      .orderBy('id')
      .limit(200)
      .execute();
    for (const row of rows) {
      const parsed = parseCfdi(row.cfdi_xml);
      if (!parsed.ok) throw new Error(parsed.reason);
      expect(parsed.cfdi).toMatchObject({
        uuid: row.cfdi_uuid,
        total: row.amount,
        currency: row.currency,
        serie: row.serie,
        folio: row.folio,
        issuer: { rfc: row.emitter_rfc },
        receiver: { rfc: row.receiver_rfc },
      });
    }
    const companies = await db().selectFrom('companies').select('rfc').execute();
    for (const { rfc } of companies) {
      const check = checkRfc(rfc ?? '');
      expect(check.ok && check.checkDigitValid, rfc ?? '').toBe(true);
    }
    const uuids = await db()
      .selectFrom('invoices')
      .select((eb) => [eb.fn.countAll<number>().as('n'), sql<number>`count(distinct cfdi_uuid)`.as('u')])
      .executeTakeFirstOrThrow();
    expect(Number(uuids.u)).toBe(Number(uuids.n));
  });

  it('keeps the invoice totals in step with the invoices through a status change (what the lists count)', async () => {
    const available = await db()
      .selectFrom('invoices')
      .select('id')
      .where('emitter_company_id', '=', demoSupplierId)
      .where('status', '=', InvoiceStatus.AVAILABLE)
      .where('serie', '=', 'B')
      .executeTakeFirstOrThrow();
    await applyInvoiceEvent(
      db(),
      available.id,
      {
        type: 'invoice.requestAuthorization',
        actor: { kind: 'provider', companyId: demoSupplierId, satAuthorized: true },
      },
      { userId: null, label: 'prueba' },
    );
    const { rows: drift } = await sql<{ company_id: number }>`
      with actual as (
        select emitter_company_id as company_id, 'emitter' as side, status, receiver_company_id as counterpart_id,
          count(*) as invoices, sum(amount_with_exchange_rate) as amount_mxn
        from invoices group by 1, 2, 3, 4
        union all
        select receiver_company_id, 'receiver', status, emitter_company_id, count(*), sum(amount_with_exchange_rate)
        from invoices group by 1, 2, 3, 4
      ), kept as (select * from invoice_totals where invoices <> 0)
      select company_id from (
        (select company_id, side, status, counterpart_id, invoices, amount_mxn from actual
         except all select company_id, side, status, counterpart_id, invoices, amount_mxn from kept)
        union all
        (select company_id, side, status, counterpart_id, invoices, amount_mxn from kept
         except all select company_id, side, status, counterpart_id, invoices, amount_mxn from actual)
      ) as d`.execute(db());
    expect(drift).toEqual([]);
    const summary = (
      await getJson(ctx.app, '/api/corporates/summary/?page_size=1', corporate)
    ).json<CorporateSummaryPage>();
    const received = await db()
      .selectFrom('invoices')
      .innerJoin('companies', 'companies.id', 'invoices.receiver_company_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('companies.rfc', '=', DEMO_CORPORATE.rfc)
      .executeTakeFirstOrThrow();
    expect(summary.indicators?.count).toBe(Number(received.n));
  });

  it('adds nothing when run again', async () => {
    const before = await tableCounts();
    const again = await seedScaleWorld(db(), {
      authenticity: testAuthenticity(db()),
      invoices: INVOICES,
      providers: PROVIDERS,
      corporates: CORPORATES,
    });
    expect(again).toMatchObject({
      invoices: 0,
      events: 0,
      companies: 0,
      alliances: 0,
      skipped: INVOICES + OTHERS,
    });
    expect(await tableCounts()).toEqual(before);
  }, 240_000);
});
