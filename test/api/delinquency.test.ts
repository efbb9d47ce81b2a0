// @postgresql: the day's freezes lock the programme row against concurrent advances; the aging's date arithmetic and grouping run on both engines.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDate } from '../../server/http/business-date';
import { DELINQUENCY_FREEZE_ACTION } from '../../server/modules/collections/collections-day';
import { disburseInvoice } from '../../server/modules/control-desk/disbursement.service';
import { OPS_COMMANDS, type OpsOutput, runOpsCommand } from '../../server/ops/commands';
import { DELINQUENCY_MESSAGES, DELINQUENCY_REASON } from '../../src/domain/delinquency';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import {
  AGING_BUCKETS,
  type AgingBucket,
  agingBucket,
  daysPastDue,
  moratoryInterest,
} from '../../src/domain/maturities';
import { formatMoneyAmount, parseMoney } from '../../src/domain/money';
import { PROGRAMME_REFUSALS } from '../../src/domain/programme-lending';
import type { AgingReport } from '../../src/domain/schemas/delinquency';
import { type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp, testConfig } from '../support/api-app';
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

// Issue 34, decision 0068: aging from the collections (checked against an independent SQL sum), grace days set
// with the limit (four eyes), the freeze for morosidad on due + grace + 1 through `collections:run-day` (not on
// due + grace), advances refused with the reason and the desk holding one in flight, the unfreeze only by an
// aprobador once the overdue is collected, and the buyer's collection log.

const PROGRAMMES = '/api/operator/programmes/';
const COLLECTIONS = '/api/operator/collections/';
const ADVANCE = '/api/providers/forward-payment/';
const AGING = '/api/operator/aging/';
// 8,620.69 + 16 % IVA = 10,000.00, the invoice's MXN value.
const SUBTOTAL = '8620.69';
const GRACE_DAYS = 3;
const RATE = '36';

describe('delinquency', () => {
  let ctx: ApiTestContext;
  let provider: Session;
  let analista: Session & { userId: number };
  let aprobador: Session & { userId: number };
  let otherAprobador: Session & { userId: number };
  let tesoreria: Session & { userId: number };
  let auditor: Session & { userId: number };
  let corporateId: number;
  let programmeId: number;
  let out: string[];
  let err: string[];
  const db = () => ctx.database.db;
  const NOW = new Date('2026-03-10T18:00:00Z');
  const today = () => businessDate(NOW);
  const RFC = 'MOR150312AB1';
  const NAME = 'Corporativo Moroso, S.A. de C.V.';
  const config = testConfig();
  const output: OpsOutput = { out: (line) => out.push(line), err: (line) => err.push(line) };
  // The late invoice (due 2 March, grace 3: freezes on the 6th), and others due later, disbursed in February.
  const invoices: Record<string, number> = {};
  const DUE: Record<string, string> = {
    late: '2026-03-02',
    partial: '2026-03-20',
    april: '2026-04-15',
    may: '2026-05-25',
    june: '2026-06-29',
    july: '2026-07-15',
  };

  function ops(name: string, ...args: string[]): Promise<number> {
    const command = OPS_COMMANDS[name];
    if (!command) throw new Error(`no command ${name}`);
    out = [];
    err = [];
    return runOpsCommand(command, args, {
      config,
      database: ctx.database,
      output,
      now: () => NOW,
      account: 'pruebas',
    });
  }

  async function approvedInvoice(): Promise<number> {
    const id = await importInvoice(db(), {
      today: today(),
      receiver: { rfc: RFC, name: NAME },
      subtotal: SUBTOTAL,
    });
    await advanceTo(db(), id, 'approved', '2026-04-30');
    return id;
  }

  async function programme() {
    return db()
      .selectFrom('credit_programmes')
      .select(['state', 'frozen_for', 'grace_days', 'moratory_rate'])
      .where('id', '=', programmeId)
      .executeTakeFirstOrThrow();
  }

  beforeAll(async () => {
    ctx = await createApiApp({ now: () => NOW });
    provider = await sessionFor(ctx.app, 'proveedor.demo');
    analista = await createOperatorSession(ctx, { roles: ['analista'], username: 'mor.analista' });
    aprobador = await createOperatorSession(ctx, { roles: ['aprobador'], username: 'mor.aprobador' });
    otherAprobador = await createOperatorSession(ctx, { roles: ['aprobador'], username: 'mor.aprobador2' });
    tesoreria = await createOperatorSession(ctx, { roles: ['tesoreria'], username: 'mor.tesoreria' });
    auditor = await createOperatorSession(ctx, { roles: ['auditor'], username: 'mor.auditor' });
    const created = await addCompanyWithUser(db(), { rfc: RFC, name: NAME, username: 'corporativo.moroso' });
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
  }, 120_000);
  afterAll(() => ctx.close());

  it('sets grace days and the moratory rate with the limit, through a different aprobador', async () => {
    const bad = await postJson(ctx.app, PROGRAMMES, analista, {
      corporate_id: corporateId,
      limit: '200000.00',
      starts_on: '2026-01-01',
      ends_on: '2026-12-31',
      grace_days: 400,
      moratory_rate: 'mucho',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().grace_days[0]).toBe(DELINQUENCY_MESSAGES.gracePositive);
    expect(bad.json().moratory_rate[0]).toBe(DELINQUENCY_MESSAGES.moratoryRateInvalid);

    const proposed = await postJson(ctx.app, PROGRAMMES, analista, {
      corporate_id: corporateId,
      limit: '200000.00',
      starts_on: '2026-01-01',
      ends_on: '2026-12-31',
      grace_days: GRACE_DAYS,
      moratory_rate: RATE,
    });
    expect(proposed.statusCode).toBe(201);
    programmeId = proposed.json().id;
    expect(proposed.json().pending_proposal).toMatchObject({ grace_days: GRACE_DAYS, moratory_rate: RATE });
    const approved = await postJson(ctx.app, `${PROGRAMMES}${programmeId}/approve/`, aprobador, {});
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({
      state: 'activo',
      grace_days: GRACE_DAYS,
      moratory_rate: RATE,
      frozen_for: null,
    });
  });

  it('disburses the buyer’s advances and keeps one in flight on the desk', async () => {
    for (const [name, due] of Object.entries(DUE)) {
      const id = await approvedInvoice();
      expect((await postJson(ctx.app, ADVANCE, provider, { id_execute_factoring: id })).statusCode).toBe(200);
      await disburseInvoice(db(), String(id), {
        account: 'pruebas',
        authenticity: testAuthenticity(db()),
        today: today(),
        force: true,
      });
      // Paid in February (the disbursement row takes the database's clock), falling due on the chosen day.
      await db()
        .updateTable('disbursements')
        .set({ at: '2026-02-02T18:00:00Z', due_on: due })
        .where('invoice_id', '=', id)
        .execute();
      invoices[name] = id;
    }
    const inFlight = await approvedInvoice();
    expect((await postJson(ctx.app, ADVANCE, provider, { id_execute_factoring: inFlight })).statusCode).toBe(
      200,
    );
    invoices.inFlight = inFlight;
    // 4,000.00 of 'partial' collected on 10 March.
    const paid = await postJson(
      ctx.app,
      COLLECTIONS,
      tesoreria,
      { invoice_id: invoices.partial, amount: '4000.00', clave_rastreo: 'MOROSO0001', fecha: '2026-03-10' },
      'moroso-cobro-1',
    );
    expect(paid.statusCode).toBe(201);
  });

  it('does not freeze on due + grace, freezes on due + grace + 1 through collections:run-day, once', async () => {
    expect(await ops('collections:run-day', '--date', '2026-03-05')).toBe(0);
    expect(await programme()).toMatchObject({ state: 'activo', frozen_for: null });
    expect(out.join('\n')).not.toContain(NAME);

    const outboxBefore = await db().selectFrom('mail_outbox').select('id').execute();
    expect(await ops('collections:run-day', '--date=2026-03-06')).toBe(0);
    expect(await programme()).toMatchObject({ state: 'congelado', frozen_for: DELINQUENCY_REASON });
    expect(out).toContain(
      `Congelado por morosidad: ${NAME} (programa ${programmeId}), 1 facturas vencidas, la más antigua el 02/03/2026`,
    );
    const change = await db()
      .selectFrom('programme_state_changes')
      .select(['from_state', 'to_state', 'reason', 'actor_user_id'])
      .where('programme_id', '=', programmeId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(change).toEqual({
      from_state: 'activo',
      to_state: 'congelado',
      reason: 'morosidad',
      actor_user_id: null,
    });
    const audit = await db()
      .selectFrom('operator_actions')
      .select(['operator_username', 'reason', 'method'])
      .where('action', '=', DELINQUENCY_FREEZE_ACTION)
      .where(sql<boolean>`params->>'programme_id' = ${String(programmeId)}`)
      .execute();
    expect(audit).toEqual([{ operator_username: 'ops:pruebas', reason: 'morosidad', method: 'OPS' }]);
    // The aprobadores are told, with the link to the portfolio screen.
    const mails = await db()
      .selectFrom('mail_outbox')
      .select(['recipient', 'subject', 'body_text'])
      .where('id', 'not in', outboxBefore.length ? outboxBefore.map((row) => row.id) : [0])
      .execute();
    const toAprobadores = mails.filter(
      (mail) => mail.subject === DELINQUENCY_MESSAGES.freezeMailSubject(NAME),
    );
    expect(toAprobadores.map((mail) => mail.recipient)).toEqual(
      expect.arrayContaining(['mor.aprobador@example.com', 'mor.aprobador2@example.com']),
    );
    expect(toAprobadores.map((mail) => mail.recipient)).not.toContain('mor.analista@example.com');
    expect(toAprobadores[0]?.body_text).toContain(`/operacion/cartera/?corporativo=${corporateId}`);

    // The same day again changes nothing.
    expect(await ops('collections:run-day', '--date', '2026-03-06')).toBe(0);
    const changes = await db()
      .selectFrom('programme_state_changes')
      .select('id')
      .where('programme_id', '=', programmeId)
      .where('reason', '=', 'morosidad')
      .execute();
    expect(changes).toHaveLength(1);

    const detail = await getJson(ctx.app, `${PROGRAMMES}${programmeId}/`, auditor);
    expect(detail.json().programme).toMatchObject({ state: 'congelado', frozen_for: 'morosidad' });
  });

  it('refuses a new advance against the buyer with the morosidad reason', async () => {
    const id = await approvedInvoice();
    const refused = await postJson(ctx.app, ADVANCE, provider, { id_execute_factoring: id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(PROGRAMME_REFUSALS.morosidad);
    expect(PROGRAMME_REFUSALS.morosidad).toBe(DELINQUENCY_MESSAGES.lendingRefused);
    expect(await statusOf(db(), id)).toBe(InvoiceStatus.APPROVED);
  });

  it('holds the advance in flight at the desk', async () => {
    const item = await getJson(ctx.app, `/api/operator/desk/${invoices.inFlight}/`, auditor);
    expect(item.statusCode).toBe(200);
    const check = (item.json().checks as { id: string; ok: boolean; reason: string }[]).find(
      (entry) => entry.id === 'programme',
    );
    expect(check).toMatchObject({ ok: false, reason: DELINQUENCY_MESSAGES.deskCheck });
    const approve = await postJson(
      ctx.app,
      `/api/operator/desk/${invoices.inFlight}/approve/`,
      aprobador,
      {},
    );
    expect(approve.statusCode).toBeGreaterThanOrEqual(400);
    expect(approve.body).toContain(DELINQUENCY_MESSAGES.deskCheck);
    expect(await statusOf(db(), invoices.inFlight as number)).toBe(InvoiceStatus.PROCESS);
  });

  it('unfreezes only by an aprobador and only once the overdue invoices are collected', async () => {
    const unfreeze = `${PROGRAMMES}${programmeId}/unfreeze/`;
    expect((await postJson(ctx.app, unfreeze, analista, { reason: 'Pagó' })).statusCode).toBe(403);
    const early = await postJson(ctx.app, unfreeze, aprobador, { reason: 'Dice que ya pagó' });
    expect(early.statusCode).toBe(409);
    expect(early.json().detail).toBe(DELINQUENCY_MESSAGES.unfreezeOverdue(1));
    // Part of it is not enough.
    await postJson(
      ctx.app,
      COLLECTIONS,
      tesoreria,
      { invoice_id: invoices.late, amount: '9000.00', clave_rastreo: 'MOROSO0002', fecha: '2026-03-09' },
      'moroso-cobro-2',
    );
    expect((await postJson(ctx.app, unfreeze, aprobador, { reason: 'Pagó casi todo' })).statusCode).toBe(409);
    expect(await programme()).toMatchObject({ state: 'congelado', frozen_for: 'morosidad' });
    // Collected in full: an aprobador may unfreeze (never the run itself).
    await postJson(
      ctx.app,
      COLLECTIONS,
      tesoreria,
      { invoice_id: invoices.late, amount: '1000.00', clave_rastreo: 'MOROSO0003', fecha: '2026-03-10' },
      'moroso-cobro-3',
    );
    expect(await ops('collections:run-day')).toBe(0);
    expect(await programme()).toMatchObject({ state: 'congelado', frozen_for: 'morosidad' });
    const done = await postJson(ctx.app, unfreeze, otherAprobador, { reason: 'Cobrado por completo' });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ state: 'activo', frozen_for: null });
    expect(await programme()).toMatchObject({ state: 'activo', frozen_for: null });
  });

  it('ages the outstanding from the collections, matching an independent SQL sum', async () => {
    for (const fecha of ['2026-03-06', '2026-06-30']) {
      const res = await getJson(ctx.app, `${AGING}?fecha=${fecha}&page_size=500`, auditor);
      expect(res.statusCode, res.body).toBe(200);
      const report = res.json<AgingReport>();
      expect(report.fecha).toBe(fecha);
      // Independent: per bucket as a range of due dates, outstanding as value minus a correlated sum.
      const ranges: Record<AgingBucket, [number | null, number | null]> = {
        al_corriente: [null, 0],
        '1_30': [1, 30],
        '31_60': [31, 60],
        '61_90': [61, 90],
        mas_de_90: [91, null],
      };
      for (const bucket of AGING_BUCKETS) {
        const [from, to] = ranges[bucket];
        const { rows } = await sql<{ total: string | null }>`
          select sum(i.amount_with_exchange_rate - (
            select coalesce(sum(c.amount), 0) from collections c where c.invoice_id = i.id and c.fecha <= ${fecha}::date
          ))::text as total
          from invoices i
          where i.id in (
            select d.invoice_id from disbursements d
            where (d.at at time zone 'America/Mexico_City')::date <= ${fecha}::date
              and (${to}::int is null or d.due_on >= ${fecha}::date - ${to}::int)
              and (${from}::int is null or d.due_on <= ${fecha}::date - ${from}::int)
          )
          and i.amount_with_exchange_rate > (
            select coalesce(sum(c.amount), 0) from collections c where c.invoice_id = i.id and c.fecha <= ${fecha}::date
          )`.execute(db());
        expect(report.totals.buckets[bucket], `${bucket} as of ${fecha}`).toBe(
          formatMoneyAmount(parseMoney(rows[0]?.total ?? '0')),
        );
      }
      // Every invoice row agrees with the domain's rules.
      expect(report.invoices.count).toBe(report.totals.invoices);
      for (const row of report.invoices.results) {
        expect(row.bucket).toBe(agingBucket(row.due_on, fecha));
        expect(row.days_past_due).toBe(daysPastDue(row.due_on, fecha));
      }
    }

    const buyer = await getJson(ctx.app, `${AGING}?fecha=2026-06-30&corporate_id=${corporateId}`, auditor);
    const report = buyer.json<AgingReport>();
    expect(report.buyers).toHaveLength(1);
    expect(report.buyers[0]).toMatchObject({
      corporate_name: NAME,
      grace_days: GRACE_DAYS,
      moratory_rate: RATE,
    });
    // 'late' is collected; 'partial' owes 6,000.00 for 102 days; the rest 10,000.00 each.
    expect(report.totals.buckets).toEqual({
      al_corriente: '10000.00',
      '1_30': '10000.00',
      '31_60': '10000.00',
      '61_90': '10000.00',
      mas_de_90: '6000.00',
    });
    const partial = report.invoices.results.find((row) => row.invoice_id === invoices.partial);
    expect(partial).toMatchObject({ outstanding: '6000.00', collected: '4000.00', days_past_due: 102 });
    const expected = moratoryInterest(parseMoney('6000.00'), RATE, 102);
    expect(partial?.moratory_interest).toBe(formatMoneyAmount(expected));
    const sum = report.invoices.results.reduce((total, row) => total + parseMoney(row.moratory_interest), 0);
    expect(report.totals.moratory_interest).toBe(formatMoneyAmount(sum));
    expect(report.programmes).toEqual([
      expect.objectContaining({ programme_id: programmeId, totals: report.buyers[0]?.totals }),
    ]);

    const badDate = await getJson(ctx.app, `${AGING}?fecha=2026-02-30`, auditor);
    expect(badDate.statusCode).toBe(400);
    expect((await getJson(ctx.app, AGING, provider)).statusCode).toBe(403);
  });

  it('keeps a collection log per buyer with who and when', async () => {
    const url = `/api/operator/corporates/${corporateId}/collection-log/`;
    const call = await postJson(ctx.app, url, tesoreria, { action: 'llamada', note: 'Contestó tesorería' });
    expect(call.statusCode).toBe(201);
    expect(call.json()).toMatchObject({
      action: 'llamada',
      recorded_by_username: 'mor.tesoreria',
      promised_on: null,
    });
    const noDate = await postJson(ctx.app, url, analista, { action: 'promesa_de_pago' });
    expect(noDate.statusCode).toBe(400);
    expect(noDate.json().promised_on[0]).toBe(DELINQUENCY_MESSAGES.promisedOnRequired);
    const wrongDate = await postJson(ctx.app, url, analista, { action: 'correo', promised_on: '2026-03-20' });
    expect(wrongDate.json().promised_on[0]).toBe(DELINQUENCY_MESSAGES.promisedOnOnlyForPromise);
    const promise = await postJson(ctx.app, url, analista, {
      action: 'promesa_de_pago',
      promised_on: '2026-03-20',
      note: 'Paga el viernes',
    });
    expect(promise.statusCode).toBe(201);
    expect((await postJson(ctx.app, url, auditor, { action: 'llamada' })).statusCode).toBe(403);
    expect(
      (
        await postJson(ctx.app, '/api/operator/corporates/999999/collection-log/', analista, {
          action: 'llamada',
        })
      ).statusCode,
    ).toBe(404);
    const log = await getJson(ctx.app, url, auditor);
    expect(
      log
        .json()
        .results.map((entry: { action: string; promised_on: string | null }) => [
          entry.action,
          entry.promised_on,
        ]),
    ).toEqual([
      ['promesa_de_pago', '2026-03-20'],
      ['llamada', null],
    ]);
  });

  it('records a collection log entry once per Idempotency-Key; the retry is a replay', async () => {
    const url = `/api/operator/corporates/${corporateId}/collection-log/`;
    const body = { action: 'correo', note: 'Reenvío del aviso (reintento)' };
    const before = (await getJson(ctx.app, url, auditor)).json().results.length;
    const first = await postJson(ctx.app, url, analista, body, 'bitacora-reintento-1');
    const again = await postJson(ctx.app, url, analista, body, 'bitacora-reintento-1');
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const log = (await getJson(ctx.app, url, auditor)).json().results;
    expect(log).toHaveLength(before + 1);
    expect(log.filter((entry: { note: string }) => entry.note === body.note)).toHaveLength(1);
  });

  it('collections:run-day refuses a future date in production and a malformed one', async () => {
    expect(await ops('collections:run-day', '--date', '2026-13-01')).toBe(2);
    expect(err.join('\n')).toContain(DELINQUENCY_MESSAGES.dateInvalid);
    const production = { ...config, production: true };
    const command = OPS_COMMANDS['collections:run-day'];
    if (!command) throw new Error('no command');
    err = [];
    out = [];
    const code = await runOpsCommand(command, ['--date', '2026-03-11'], {
      config: production,
      database: ctx.database,
      output,
      now: () => NOW,
      account: 'pruebas',
    });
    expect(code).toBe(2);
    expect(err.join('\n')).toContain(DELINQUENCY_MESSAGES.futureDate);
    err = [];
    out = [];
    // A past day re-runs in production.
    expect(
      await runOpsCommand(command, ['--date', '2026-03-01'], {
        config: production,
        database: ctx.database,
        output,
        now: () => NOW,
        account: 'pruebas',
      }),
    ).toBe(0);
    expect(out[0]).toBe('Cobranza del día 01/03/2026:');
  });
});
