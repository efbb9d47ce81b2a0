// @postgresql: a cap shared by two buyers is protected by its own row lock across concurrent connections, which PGlite (one connection) cannot race.
import dayjs from 'dayjs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDate } from '../../server/http/business-date';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { formatMoneyAmount, parseMoney } from '../../src/domain/money';
import type { CapView, ExposureAnswer, ExposureRow } from '../../src/domain/schemas/exposure';
import { type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { createOperatorSession } from '../support/operator';
import {
  addCompanyWithUser,
  advanceTo,
  DEMO_PROVIDER,
  getJson,
  importInvoice,
  postJson,
  statusOf,
} from '../support/pronto-pago';

// Issue 34, decision 0069: exposure per buyer, economic group and supplier (outstanding from disbursements
// less collections, reserved from the programme ledger), concentration caps set with four eyes, enforced at
// 'Adelantar pago' under a lock (concurrent advances of two buyers of one group never pass the group's cap)
// and by the desk's 'Concentración' check.

const EXPOSURE = '/api/operator/exposure/';
const CAPS = '/api/operator/exposure/caps/';
const DESK = '/api/operator/desk/';
const ADVANCE = '/api/providers/forward-payment/';
// 8,620.69 + 16 % IVA = 10,000.00 MXN, what each advance reserves.
const INVOICE_SUBTOTAL = '8620.69';
const INVOICE_AMOUNT = 10_000_00;
const GROUP = 'Grupo Concentración de Prueba';

describe('exposure and concentration caps', () => {
  let ctx: ApiTestContext;
  let provider: Session;
  let analista: Session & { userId: number };
  let aprobador: Session & { userId: number };
  let otherAprobador: Session & { userId: number };
  let auditor: Session & { userId: number };
  const buyers: { id: number; rfc: string; name: string }[] = [];
  let providerId: number;
  const db = () => ctx.database.db;
  const NOW = new Date('2026-03-10T18:00:00Z');
  const today = () => businessDate(NOW);
  const inDays = (days: number) => dayjs(today()).add(days, 'day').format('YYYY-MM-DD');

  beforeAll(async () => {
    ctx = await createApiApp({ now: () => NOW });
    provider = await sessionFor(ctx.app, 'proveedor.demo');
    analista = await createOperatorSession(ctx, { roles: ['analista'], username: 'exp.analista' });
    aprobador = await createOperatorSession(ctx, { roles: ['aprobador'], username: 'exp.aprobador' });
    otherAprobador = await createOperatorSession(ctx, { roles: ['aprobador'], username: 'exp.aprobador2' });
    auditor = await createOperatorSession(ctx, { roles: ['auditor'], username: 'exp.auditor' });
    providerId = (
      await db()
        .selectFrom('companies')
        .select('id')
        .where('rfc', '=', DEMO_PROVIDER.rfc)
        .executeTakeFirstOrThrow()
    ).id;
    // Two buyers of one economic group, each with an active programme (the fixture's) and an alliance.
    for (const [rfc, name, username] of [
      ['CGA150312AB1', 'Corporativo Grupo A, S.A. de C.V.', 'corporativo.grupo.a'],
      ['CGB150312AB2', 'Corporativo Grupo B, S.A. de C.V.', 'corporativo.grupo.b'],
    ] as const) {
      const { companyId } = await addCompanyWithUser(db(), { rfc, name, username, isCorporate: true });
      await db()
        .insertInto('alliances')
        .values({ corporate_id: companyId, provider_id: providerId, max_rate: '18.0000' })
        .execute();
      buyers.push({ id: companyId, rfc, name });
    }
  }, 120_000);
  afterAll(() => ctx.close());

  /** An Autorizada invoice of the demo provider to `buyer`, for 10,000.00 MXN. */
  async function approvedInvoice(buyer: { rfc: string; name: string }): Promise<number> {
    const id = await importInvoice(db(), {
      today: today(),
      receiver: { rfc: buyer.rfc, name: buyer.name },
      subtotal: INVOICE_SUBTOTAL,
    });
    await advanceTo(db(), id, 'approved', inDays(45));
    return id;
  }

  const advance = (id: number) => postJson(ctx.app, ADVANCE, provider, { id_execute_factoring: id });

  async function exposure(): Promise<ExposureAnswer> {
    const answer = await getJson(ctx.app, EXPOSURE, auditor);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as ExposureAnswer;
  }

  /** Proposed by the aprobador, approved by the other one: the cap in force. */
  async function capInForce(body: Record<string, unknown>): Promise<CapView> {
    const proposed = await postJson(ctx.app, CAPS, aprobador, body);
    expect(proposed.statusCode, proposed.body).toBe(201);
    const approved = await postJson(ctx.app, `${CAPS}${proposed.json().id}/approve/`, otherAprobador, {});
    expect(approved.statusCode, approved.body).toBe(200);
    return approved.json() as CapView;
  }

  /**
   * The same figures computed another way: per invoice, with correlated subqueries rather than the
   * repository's grouped joins, summed per buyer, group and supplier.
   */
  async function independentExposure() {
    const { rows } = await sql<{
      buyer_id: number;
      supplier_id: number;
      grp: string | null;
      outstanding: string;
      reserved: string;
    }>`
      select i.receiver_company_id as buyer_id, i.emitter_company_id as supplier_id, b.economic_group as grp,
        (case when exists (select 1 from disbursements d where d.invoice_id = i.id)
          then greatest(i.amount_with_exchange_rate
            - coalesce((select sum(c.amount) from collections c where c.invoice_id = i.id), 0), 0)
          else 0 end)::numeric(18,2)::text as outstanding,
        greatest(
          coalesce((select sum(l.amount) from programme_ledger l where l.invoice_id = i.id and l.kind = 'reserve'), 0)
          - coalesce((select sum(l.amount) from programme_ledger l where l.invoice_id = i.id and l.kind in ('use', 'cancel')), 0),
          0)::numeric(18,2)::text as reserved
      from invoices i join companies b on b.id = i.receiver_company_id`.execute(db());
    const sums = {
      buyer: new Map<number, number>(),
      group: new Map<string, number>(),
      supplier: new Map<number, number>(),
      outstanding: 0,
      reserved: 0,
    };
    const add = <K>(map: Map<K, number>, key: K, amount: number) =>
      map.set(key, (map.get(key) ?? 0) + amount);
    for (const row of rows) {
      const outstanding = parseMoney(row.outstanding);
      const reserved = parseMoney(row.reserved);
      if (outstanding + reserved === 0) continue;
      sums.outstanding += outstanding;
      sums.reserved += reserved;
      add(sums.buyer, row.buyer_id, outstanding + reserved);
      add(sums.supplier, row.supplier_id, outstanding + reserved);
      if (row.grp !== null) add(sums.group, row.grp, outstanding + reserved);
    }
    return sums;
  }

  const byKey = (rows: readonly ExposureRow[], key: (row: ExposureRow) => number | string) =>
    new Map(rows.map((row) => [key(row), parseMoney(row.exposure)]));

  it('sets the economic group on the corporate file, and refuses it to other roles', async () => {
    for (const buyer of buyers) {
      const answer = await postJson(
        ctx.app,
        `/api/operator/corporates/${buyer.id}/economic-group/`,
        analista,
        {
          economic_group: `  ${GROUP} `,
        },
      );
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json()).toEqual({ id: buyer.id, economic_group: GROUP });
    }
    const detail = await getJson(ctx.app, `/api/operator/corporates/${buyers[0]!.id}/`, auditor);
    expect(detail.json()).toMatchObject({ economic_group: GROUP });
    const refused = await postJson(
      ctx.app,
      `/api/operator/corporates/${buyers[0]!.id}/economic-group/`,
      auditor,
      {
        economic_group: 'Otro',
      },
    );
    expect(refused.statusCode).toBe(403);
  });

  it('reports outstanding and reserved per buyer, group and supplier as an independent SQL sum finds them', async () => {
    // Something in every column: a reservation in flight, and a partial collection on a disbursed invoice.
    expect((await advance(await approvedInvoice(buyers[0]!))).statusCode).toBe(200);
    const disbursed = await db()
      .selectFrom('disbursements as d')
      .innerJoin('invoices as i', 'i.id', 'd.invoice_id')
      .select(['i.id', 'i.amount_with_exchange_rate'])
      .where('i.amount_with_exchange_rate', '>', '2000')
      .orderBy('i.id')
      .executeTakeFirst();
    if (disbursed) {
      await db()
        .insertInto('collections')
        .values({
          invoice_id: disbursed.id,
          amount: '1000.00',
          clave_rastreo: 'EXPOSICION0001',
          fecha: today(),
          recorded_by: aprobador.userId,
        })
        .execute();
    }
    const report = await exposure();
    const expected = await independentExposure();
    expect(parseMoney(report.total_outstanding)).toBe(expected.outstanding);
    expect(parseMoney(report.total_reserved)).toBe(expected.reserved);
    expect(parseMoney(report.total_exposure)).toBe(expected.outstanding + expected.reserved);
    expect(byKey(report.buyers, (row) => row.company_id ?? 0)).toEqual(expected.buyer);
    expect(byKey(report.suppliers, (row) => row.company_id ?? 0)).toEqual(expected.supplier);
    expect(byKey(report.groups, (row) => row.name)).toEqual(expected.group);
    expect(expected.group.get(GROUP)).toBe(INVOICE_AMOUNT);
    // The ladder holds every outstanding peso once.
    const ladder = report.ladder.reduce((sum, rung) => sum + parseMoney(rung.outstanding), 0);
    expect(ladder).toBe(expected.outstanding);
    expect(report.ladder.map((rung) => rung.label)).toEqual([
      'Vencido',
      'Próximos 7 días',
      '8 a 30 días',
      '31 a 60 días',
      '61 a 90 días',
      'Más de 90 días',
    ]);
    const programme = report.programmes.find((row) => row.corporate_id === buyers[0]!.id);
    expect(programme).toMatchObject({ reserved: '10000.00' });
  });

  it('takes a cap into effect only when a different aprobador approves it', async () => {
    const bad = await postJson(ctx.app, CAPS, analista, { scope: 'buyer', kind: 'percent', value: '120' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ company_id: ['Indica el comprador o proveedor del tope.'] });
    const tooMuch = await postJson(ctx.app, CAPS, analista, {
      scope: 'buyer',
      kind: 'percent',
      value: '120',
      company_id: buyers[1]!.id,
    });
    expect(tooMuch.json()).toMatchObject({ value: ['Un porcentaje no puede pasar de 100.'] });
    expect(
      (await postJson(ctx.app, CAPS, auditor, { scope: 'group', kind: 'amount', value: '1', group: GROUP }))
        .statusCode,
    ).toBe(403);

    const proposed = await postJson(ctx.app, CAPS, aprobador, {
      scope: 'buyer',
      kind: 'amount',
      value: '25000',
      company_id: buyers[1]!.id,
    });
    expect(proposed.statusCode, proposed.body).toBe(201);
    const cap = proposed.json() as CapView;
    expect(cap).toMatchObject({
      status: 'propuesto',
      status_label: 'Propuesto',
      limit_text: '$25,000.00 MXN',
    });
    const again = await postJson(ctx.app, CAPS, analista, {
      scope: 'buyer',
      kind: 'amount',
      value: '30000',
      company_id: buyers[1]!.id,
    });
    expect(again.statusCode).toBe(409);

    const self = await postJson(ctx.app, `${CAPS}${cap.id}/approve/`, aprobador, {});
    expect(self.statusCode).toBe(403);
    expect(self.json().detail).toBe(
      'Otro aprobador debe aprobar este tope: quien lo propone no puede aprobarlo.',
    );
    expect((await postJson(ctx.app, `${CAPS}${cap.id}/approve/`, analista, {})).statusCode).toBe(403);
    const approved = await postJson(ctx.app, `${CAPS}${cap.id}/approve/`, otherAprobador, {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'vigente', decided_by: otherAprobador.userId });
    const list = (await getJson(ctx.app, CAPS, auditor)).json() as { results: CapView[] };
    expect(list.results.find((row) => row.id === cap.id)).toMatchObject({ status: 'vigente' });
  });

  it("refuses the advance that would pass a buyer's cap, with the cap named in Spanish", async () => {
    // Buyer B: cap 25,000.00 (the previous test), nothing held: two advances of 10,000.00 pass, the third not.
    const ids = [
      await approvedInvoice(buyers[1]!),
      await approvedInvoice(buyers[1]!),
      await approvedInvoice(buyers[1]!),
    ];
    expect((await advance(ids[0]!)).statusCode).toBe(200);
    expect((await advance(ids[1]!)).statusCode).toBe(200);
    const refused = await advance(ids[2]!);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      `Se rebasaría el tope de concentración del comprador «${buyers[1]!.name}» (máximo $25,000.00 MXN): su exposición pasaría a $30,000.00 MXN.`,
    );
    expect(await statusOf(db(), ids[2]!)).toBe(InvoiceStatus.APPROVED);
    const row = (await exposure()).buyers.find((item) => item.company_id === buyers[1]!.id);
    expect(row?.cap).toMatchObject({ utilisation_percentage: 80, room: '5000.00', exceeded: false });
  });

  it("never lets concurrent advances of two buyers pass their group's cap", async () => {
    const before = (await exposure()).groups.find((row) => row.name === GROUP);
    const held = parseMoney(before?.exposure ?? '0.00');
    // Room for exactly three more advances of 10,000.00 in the group, whichever buyer makes them.
    const cap = await capInForce({
      scope: 'group',
      kind: 'amount',
      value: formatMoneyAmount(held + 3 * INVOICE_AMOUNT + 5_000_00),
      group: GROUP,
    });
    expect(cap.subject).toBe(GROUP);
    // Buyer B's own cap would stop it first: raise it out of the way (a new cap replaces the one in force).
    await capInForce({ scope: 'buyer', kind: 'amount', value: '1000000', company_id: buyers[1]!.id });
    const ids: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      ids.push(await approvedInvoice(buyers[0]!));
      ids.push(await approvedInvoice(buyers[1]!));
    }
    const answers = await Promise.all(ids.map((id) => advance(id)));
    const accepted = answers.filter((answer) => answer.statusCode === 200);
    const refused = answers.filter((answer) => answer.statusCode === 409);
    expect(accepted).toHaveLength(3);
    expect(refused).toHaveLength(ids.length - 3);
    for (const answer of refused)
      expect(answer.json().message).toMatch(
        /^Se rebasaría el tope de concentración del grupo económico «Grupo Concentración de Prueba»/,
      );
    const after = (await exposure()).groups.find((row) => row.name === GROUP);
    expect(parseMoney(after!.exposure)).toBe(held + 3 * INVOICE_AMOUNT);
    expect(after!.cap).toMatchObject({ exceeded: false, room: '5000.00' });
    // The caps stay in force: a previous cap on buyer B was replaced, not kept beside the new one.
    const caps = (await getJson(ctx.app, CAPS, auditor)).json() as { results: CapView[] };
    expect(
      caps.results.filter((row) => row.scope === 'buyer' && row.company_id === buyers[1]!.id),
    ).toHaveLength(1);
  });

  it("holds an advance at the desk with 'Concentración' when a lowered cap would be exceeded", async () => {
    const queued = await db()
      .selectFrom('invoices')
      .select('id')
      .where('receiver_company_id', '=', buyers[0]!.id)
      .where('status', '=', InvoiceStatus.PROCESS)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const before = await getJson(ctx.app, `${DESK}${queued.id}/`, auditor);
    expect(before.json().checks.find((check: { id: string }) => check.id === 'concentration')).toMatchObject({
      label: 'Concentración',
      ok: true,
    });
    // The buyer's cap lowered below what it already holds: its reservations stay, the desk holds them.
    await capInForce({ scope: 'buyer', kind: 'amount', value: '5000', company_id: buyers[0]!.id });
    const item = await getJson(ctx.app, `${DESK}${queued.id}/`, auditor);
    const check = item.json().checks.find((entry: { id: string }) => entry.id === 'concentration');
    expect(check.ok).toBe(false);
    expect(check.reason).toMatch(
      new RegExp(
        `^Se rebasaría el tope de concentración del comprador «${buyers[0]!.name.replace(/[.]/g, '\\.')}» \\(máximo \\$5,000\\.00 MXN\\)`,
      ),
    );
    const approve = await postJson(ctx.app, `${DESK}${queued.id}/approve/`, aprobador, {});
    expect(approve.statusCode).toBe(409);
    expect(JSON.stringify(approve.json())).toContain('Concentración: Se rebasaría el tope de concentración');
  });
});
