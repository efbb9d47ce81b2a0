// @postgresql: concurrent advances reserve a programme's limit under row locks and serialization, which PGlite (one connection) cannot race.
import dayjs from 'dayjs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDate } from '../../server/http/business-date';
import { disburseInvoice } from '../../server/modules/control-desk/disbursement.service';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { parseMoney } from '../../src/domain/money';
import { type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { testAuthenticity } from '../support/demo-authority';
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

// Issue 19, decision 0052: a corporate's credit programme — four-eyes limits, the reservation made by
// 'Adelantar pago' in the advance's own transaction (50 concurrent advances, room for 3), freeze, collections.
// Runs on PGlite by default and on PostgreSQL with TEST_DATABASE_URL (test/support/test-database.ts), where
// the 50 advances really run on concurrent connections and queue on the programme row's lock.

const PROGRAMMES = '/api/operator/programmes/';
const COLLECTIONS = '/api/operator/collections/';
const ADVANCE = '/api/providers/forward-payment/';
const approveUrl = (id: number) => `${PROGRAMMES}${id}/approve/`;

// 8,620.69 + 16 % IVA = 10,000.00, the invoice's MXN amount (its face value) that an advance reserves.
const INVOICE_SUBTOTAL = '8620.69';
const INVOICE_AMOUNT = '10000.00';
const CONCURRENT_ADVANCES = 50;
const ROOM_FOR = 3;

describe('credit programmes', () => {
  let ctx: ApiTestContext;
  let provider: Session;
  let analista: Session & { userId: number };
  let aprobador: Session & { userId: number };
  let otherAprobador: Session & { userId: number };
  let tesoreria: Session & { userId: number };
  let auditor: Session & { userId: number };
  let corporateId: number;
  let corporateUser: Session;
  let programmeId: number;
  const db = () => ctx.database.db;
  const NOW = new Date('2026-03-10T18:00:00Z');
  const today = () => businessDate(NOW);
  const inDays = (days: number) => dayjs(today()).add(days, 'day').format('YYYY-MM-DD');
  const RFC = 'CPR150312AB1';
  const NAME = 'Corporativo del Programa, S.A. de C.V.';

  beforeAll(async () => {
    ctx = await createApiApp({ now: () => NOW });
    provider = await sessionFor(ctx.app, 'proveedor.demo');
    analista = await createOperatorSession(ctx, { roles: ['analista'], username: 'op.analista' });
    aprobador = await createOperatorSession(ctx, { roles: ['aprobador'], username: 'op.aprobador' });
    otherAprobador = await createOperatorSession(ctx, { roles: ['aprobador'], username: 'op.aprobador2' });
    tesoreria = await createOperatorSession(ctx, { roles: ['tesoreria'], username: 'op.tesoreria' });
    auditor = await createOperatorSession(ctx, { roles: ['auditor'], username: 'op.auditor' });
    // A corporate without a programme (the fixture gives corporates one), allied with the demo provider.
    const created = await addCompanyWithUser(db(), {
      rfc: RFC,
      name: NAME,
      username: 'corporativo.programa',
    });
    corporateId = created.companyId;
    await db().updateTable('companies').set({ is_corporate: true }).where('id', '=', corporateId).execute();
    const demoProvider = await db()
      .selectFrom('companies')
      .select('id')
      .where('rfc', '=', DEMO_PROVIDER.rfc)
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('alliances')
      .values({ corporate_id: corporateId, provider_id: demoProvider.id, max_rate: '18.0000' })
      .execute();
    corporateUser = await sessionFor(ctx.app, 'corporativo.programa');
  });
  afterAll(() => ctx.close());

  /** An APPROVED invoice of the demo provider to the test corporate. */
  async function approvedInvoice(): Promise<number> {
    const id = await importInvoice(db(), {
      today: today(),
      receiver: { rfc: RFC, name: NAME },
      subtotal: INVOICE_SUBTOTAL,
    });
    await advanceTo(db(), id, 'approved', inDays(45));
    return id;
  }

  async function balances() {
    return db()
      .selectFrom('credit_programmes')
      .select(['limit_amount', 'reserved', 'used', 'state'])
      .where('id', '=', programmeId)
      .executeTakeFirstOrThrow();
  }

  async function ledgerSum(kind: 'reserve' | 'use' | 'cancel' | 'release'): Promise<number> {
    const row = await db()
      .selectFrom('programme_ledger')
      .select(sql<string>`coalesce(sum(amount), 0)::text`.as('total'))
      .where('programme_id', '=', programmeId)
      .where('kind', '=', kind)
      .executeTakeFirstOrThrow();
    return parseMoney(row.total);
  }

  it('refuses the advance while the corporate has no programme, and the invoice stays Autorizada', async () => {
    const id = await approvedInvoice();
    const refused = await postJson(ctx.app, ADVANCE, provider, { id_execute_factoring: id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/programa/i);
    expect(await statusOf(db(), id)).toBe(InvoiceStatus.APPROVED);
  });

  it('refuses programme calls to other roles and to non-operators', async () => {
    const body = {
      corporate_id: corporateId,
      limit: '30000.00',
      starts_on: '2026-01-01',
      ends_on: '2026-12-31',
    };
    expect((await postJson(ctx.app, PROGRAMMES, tesoreria, body)).statusCode).toBe(403);
    expect((await postJson(ctx.app, PROGRAMMES, auditor, body)).statusCode).toBe(403);
    expect((await postJson(ctx.app, PROGRAMMES, provider, body)).statusCode).toBe(403);
    expect((await postJson(ctx.app, PROGRAMMES, null, body)).statusCode).toBe(401);
    expect((await getJson(ctx.app, PROGRAMMES, corporateUser)).statusCode).toBe(403);
    expect((await getJson(ctx.app, PROGRAMMES, auditor)).statusCode).toBe(200);
  });

  it('answers per-field Spanish messages for a bad proposal', async () => {
    const bad = await postJson(ctx.app, PROGRAMMES, analista, {
      corporate_id: corporateId,
      limit: '1,000',
      starts_on: '2026-12-31',
      ends_on: '2026-01-01',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().limit[0]).toMatch(/monto mayor a cero/);
  });

  it('takes a limit into effect only when a different aprobador approves it', async () => {
    const proposed = await postJson(ctx.app, PROGRAMMES, aprobador, {
      corporate_id: corporateId,
      limit: '30000.00',
      starts_on: '2026-01-01',
      ends_on: '2026-12-31',
    });
    expect(proposed.statusCode).toBe(201);
    programmeId = proposed.json().id;
    expect(proposed.json()).toMatchObject({ state: 'pendiente', limit: '0.00', available: '0.00' });
    expect(proposed.json().pending_proposal).toMatchObject({
      limit: '30000.00',
      proposed_by: aprobador.userId,
    });

    // A second proposal while one is pending is refused.
    const second = await postJson(ctx.app, PROGRAMMES, analista, {
      corporate_id: corporateId,
      limit: '40000.00',
      starts_on: '2026-01-01',
      ends_on: '2026-12-31',
    });
    expect(second.statusCode).toBe(409);

    const self = await postJson(ctx.app, approveUrl(programmeId), aprobador, {});
    expect(self.statusCode).toBe(403);
    expect(self.json().detail).toMatch(/^Otro aprobador debe aprobar/);
    expect((await postJson(ctx.app, approveUrl(programmeId), analista, {})).statusCode).toBe(403);
    expect((await balances()).state).toBe('borrador');

    const approved = await postJson(ctx.app, approveUrl(programmeId), otherAprobador, {}, 'approve-1');
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ state: 'activo', limit: '30000.00', available: '30000.00' });
    // Replayed with its Idempotency-Key: the same answer, nothing applied twice.
    const replay = await postJson(ctx.app, approveUrl(programmeId), otherAprobador, {}, 'approve-1');
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');

    const detail = await getJson(ctx.app, `${PROGRAMMES}${programmeId}/`, auditor);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().proposals[0]).toMatchObject({
      status: 'aprobada',
      decided_by: otherAprobador.userId,
    });
  });

  it(`reserves exactly ${ROOM_FOR} of ${CONCURRENT_ADVANCES} concurrent advances and refuses the rest`, async () => {
    const ids: number[] = [];
    for (let i = 0; i < CONCURRENT_ADVANCES; i += 1) ids.push(await approvedInvoice());
    const answers = await Promise.all(
      ids.map((id) => postJson(ctx.app, ADVANCE, provider, { id_execute_factoring: id })),
    );
    const accepted = answers.filter((answer) => answer.statusCode === 200);
    const refused = answers.filter((answer) => answer.statusCode === 409);
    expect(accepted).toHaveLength(ROOM_FOR);
    expect(refused).toHaveLength(CONCURRENT_ADVANCES - ROOM_FOR);
    for (const answer of refused) expect(answer.json().message).toMatch(/disponible/i);

    const statuses = await Promise.all(ids.map((id) => statusOf(db(), id)));
    expect(statuses.filter((status) => status === InvoiceStatus.PROCESS)).toHaveLength(ROOM_FOR);
    expect(statuses.filter((status) => status === InvoiceStatus.APPROVED)).toHaveLength(
      CONCURRENT_ADVANCES - ROOM_FOR,
    );
    const row = await balances();
    const limit = parseMoney(row.limit_amount);
    const reserved = parseMoney(row.reserved);
    expect(reserved).toBe(ROOM_FOR * parseMoney(INVOICE_AMOUNT));
    expect(reserved + parseMoney(row.used)).toBeLessThanOrEqual(limit);
    // The row's figures are the ledger's sums.
    expect((await ledgerSum('reserve')) - (await ledgerSum('use')) - (await ledgerSum('cancel'))).toBe(
      reserved,
    );

    const summary = await getJson(ctx.app, `${PROGRAMMES}${programmeId}/`, auditor);
    expect(summary.json().programme).toMatchObject({ available: '0.00', reserved: '30000.00', used: '0.00' });
  });

  it('freezes and unfreezes with an aprobador and a reason; a frozen programme refuses advances', async () => {
    const noReason = await postJson(ctx.app, `${PROGRAMMES}${programmeId}/freeze/`, aprobador, {
      reason: ' ',
    });
    expect(noReason.statusCode).toBe(400);
    expect(
      (await postJson(ctx.app, `${PROGRAMMES}${programmeId}/freeze/`, analista, { reason: 'x' })).statusCode,
    ).toBe(403);
    const frozen = await postJson(ctx.app, `${PROGRAMMES}${programmeId}/freeze/`, aprobador, {
      reason: 'Pagos atrasados',
    });
    expect(frozen.statusCode).toBe(200);
    expect(frozen.json().state).toBe('congelado');
    const again = await postJson(ctx.app, `${PROGRAMMES}${programmeId}/freeze/`, aprobador, {
      reason: 'Otra vez',
    });
    expect(again.statusCode).toBe(409);

    // A raise approved by another aprobador keeps the programme frozen.
    const raise = await postJson(ctx.app, PROGRAMMES, analista, {
      corporate_id: corporateId,
      limit: '50000.00',
      starts_on: '2026-01-01',
      ends_on: '2026-12-31',
    });
    expect(raise.statusCode).toBe(201);
    const raised = await postJson(ctx.app, approveUrl(programmeId), aprobador, {});
    expect(raised.json()).toMatchObject({ state: 'congelado', limit: '50000.00', available: '20000.00' });

    const id = await approvedInvoice();
    const refused = await postJson(ctx.app, ADVANCE, provider, { id_execute_factoring: id });
    expect(refused.statusCode).toBe(409);
    expect(await statusOf(db(), id)).toBe(InvoiceStatus.APPROVED);

    const unfrozen = await postJson(ctx.app, `${PROGRAMMES}${programmeId}/unfreeze/`, otherAprobador, {
      reason: 'Se pusieron al corriente',
    });
    expect(unfrozen.json().state).toBe('activo');
    expect((await postJson(ctx.app, ADVANCE, provider, { id_execute_factoring: id })).statusCode).toBe(200);
  });

  it('refuses a limit below what is reserved and used', async () => {
    const lower = await postJson(ctx.app, PROGRAMMES, analista, {
      corporate_id: corporateId,
      limit: '1000.00',
      starts_on: '2026-01-01',
      ends_on: '2026-12-31',
    });
    expect(lower.statusCode).toBe(409);
    expect(lower.json().detail).toMatch(/no puede ser menor que lo reservado y usado/);
  });

  it('turns a reservation into used at disbursement and releases it as the corporate pays, once per clave', async () => {
    const [paidId] = (
      await db()
        .selectFrom('invoices')
        .select('id')
        .where('receiver_company_id', '=', corporateId)
        .where('status', '=', InvoiceStatus.PROCESS)
        .orderBy('id')
        .execute()
    ).map((row) => row.id);
    if (paidId === undefined) throw new Error('no advance in process');
    // Forced past the control desk's checks: they are the desk's tests' subject (decision 0054), not this one's.
    await disburseInvoice(db(), String(paidId), {
      account: 'pruebas',
      authenticity: testAuthenticity(db()),
      today: today(),
      force: true,
    });
    const before = await balances();
    expect(parseMoney(before.used)).toBe(parseMoney(INVOICE_AMOUNT));
    // The disbursement row takes the database's clock; this file's clock is NOW (2026-03-10): paid on 03-05.
    await db()
      .updateTable('disbursements')
      .set({ at: '2026-03-05T18:00:00Z' })
      .where('invoice_id', '=', paidId)
      .execute();

    const body = { invoice_id: paidId, amount: '4000.00', clave_rastreo: 'COBRO0001', fecha: today() };
    expect((await postJson(ctx.app, COLLECTIONS, analista, body)).statusCode).toBe(403);
    const partial = await postJson(ctx.app, COLLECTIONS, tesoreria, body, 'cobro-1');
    expect(partial.statusCode).toBe(201);
    expect(partial.json()).toMatchObject({ released: '4000.00', clave_rastreo: 'COBRO0001' });
    expect(parseMoney((await balances()).used)).toBe(parseMoney('6000.00'));
    // The programme's detail lists the invoice as still to collect, with what it still uses.
    const collectible = async () =>
      (await getJson(ctx.app, `${PROGRAMMES}${programmeId}/`, auditor)).json().collectible as {
        invoice_id: number;
        used: string;
      }[];
    expect((await collectible()).find((entry) => entry.invoice_id === paidId)?.used).toBe('6000.00');

    // The same clave again (another key, or none): the first answer, nothing released twice.
    const replay = await postJson(ctx.app, COLLECTIONS, tesoreria, body);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toMatchObject({ id: partial.json().id, released: '4000.00' });
    expect(parseMoney((await balances()).used)).toBe(parseMoney('6000.00'));
    const clash = await postJson(ctx.app, COLLECTIONS, tesoreria, { ...body, amount: '5000.00' });
    expect(clash.statusCode).toBe(409);

    // More than remains to collect (10,000.00 − 4,000.00) is refused on the field, unless said to be an
    // over-payment, which is recorded as such (its excess, here larger than what was owed, is the buyer's saldo
    // a favor); sobrepago without an excess is refused too.
    const tooMuch = { ...body, amount: '13000.00', clave_rastreo: 'COBRO0002' };
    const refused = await postJson(ctx.app, COLLECTIONS, tesoreria, tooMuch);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      amount: [
        'El monto excede lo que falta por cobrar de esta factura ($6,000.00 MXN). Si el corporativo pagó de más, márcalo como sobrepago.',
      ],
    });
    const notOver = await postJson(ctx.app, COLLECTIONS, tesoreria, {
      ...body,
      amount: '1000.00',
      clave_rastreo: 'COBRO0009',
      sobrepago: true,
    });
    expect(notOver.statusCode).toBe(400);
    expect(notOver.json()).toEqual({
      sobrepago: ['No es un sobrepago: falta por cobrar $6,000.00 MXN y el monto no lo excede.'],
    });
    expect(parseMoney((await balances()).used)).toBe(parseMoney('6000.00'));
    const rest = await postJson(ctx.app, COLLECTIONS, tesoreria, { ...tooMuch, sobrepago: true });
    expect(rest.statusCode).toBe(201);
    expect(rest.json()).toMatchObject({ released: '6000.00', overpaid: '7000.00' });
    expect(rest.json().message).toContain('Sobrepago registrado: $7,000.00 MXN.');
    const recorded = await db()
      .selectFrom('collections')
      .select('overpaid')
      .where('clave_rastreo', '=', 'COBRO0002')
      .executeTakeFirstOrThrow();
    expect(parseMoney(recorded.overpaid)).toBe(parseMoney('7000.00'));
    expect(parseMoney((await balances()).used)).toBe(0);
    expect(await ledgerSum('release')).toBe(parseMoney(INVOICE_AMOUNT));
    expect((await collectible()).some((entry) => entry.invoice_id === paidId)).toBe(false);

    // An invoice whose advance was not disbursed has no payment to record.
    const approved = await approvedInvoice();
    const notPaid = await postJson(ctx.app, COLLECTIONS, tesoreria, {
      ...body,
      invoice_id: approved,
      clave_rastreo: 'COBRO0003',
    });
    expect(notPaid.statusCode).toBe(409);
    const badClave = await postJson(ctx.app, COLLECTIONS, tesoreria, {
      ...body,
      clave_rastreo: 'con espacios',
    });
    expect(badClave.statusCode).toBe(400);
  });

  it('refuses a collection dated after today or before the disbursement, on the fecha field', async () => {
    const id = await approvedInvoice();
    expect(
      (await postJson(ctx.app, ADVANCE, provider, { id_execute_factoring: id })).statusCode,
    ).toBeLessThan(300);
    await disburseInvoice(db(), String(id), {
      account: 'pruebas',
      authenticity: testAuthenticity(db()),
      today: today(),
      force: true,
    });
    await db()
      .updateTable('disbursements')
      .set({ at: '2026-03-05T18:00:00Z' })
      .where('invoice_id', '=', id)
      .execute();
    const body = { invoice_id: id, amount: '1000.00', clave_rastreo: `FECHA${id}`, fecha: inDays(1) };
    const tomorrow = await postJson(ctx.app, COLLECTIONS, tesoreria, body);
    expect(tomorrow.statusCode).toBe(400);
    expect(tomorrow.json()).toEqual({
      fecha: ['La fecha del pago no puede ser posterior a hoy (10/03/2026).'],
    });
    const early = await postJson(ctx.app, COLLECTIONS, tesoreria, { ...body, fecha: '2026-03-04' });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toEqual({
      fecha: ['La fecha del pago no puede ser anterior al desembolso del adelanto (05/03/2026).'],
    });
    expect(
      await db().selectFrom('collections').select('id').where('invoice_id', '=', id).execute(),
    ).toHaveLength(0);
    const onTheDay = await postJson(ctx.app, COLLECTIONS, tesoreria, { ...body, fecha: '2026-03-05' });
    expect(onTheDay.statusCode, onTheDay.body).toBe(201);
  });

  it("shows the corporate its programme's utilisation on its statement indicators", async () => {
    const statement = await getJson(ctx.app, '/api/corporates/account/statement/', corporateUser);
    expect(statement.statusCode).toBe(200);
    const row = await balances();
    const inUse = parseMoney(row.reserved) + parseMoney(row.used);
    const limit = parseMoney(row.limit_amount);
    expect(statement.json().indicators).toMatchObject({
      credit_line: '50000.00',
      available_credit: ((limit - inUse) / 100).toFixed(2),
      credit_used: (inUse / 100).toFixed(2),
      used_credit_percentage: Math.round((inUse * 10_000) / limit) / 100,
    });
  });

  it('lists every programme with its figures and pending proposal', async () => {
    const list = await getJson(ctx.app, PROGRAMMES, auditor);
    expect(list.statusCode).toBe(200);
    const mine = list.json().results.find((programme: { id: number }) => programme.id === programmeId);
    expect(mine).toMatchObject({ corporate_name: NAME, state: 'activo', pending_proposal: null });
    // The demo corporate's seeded programme is there too.
    expect(list.json().count).toBeGreaterThanOrEqual(2);
  });
});
