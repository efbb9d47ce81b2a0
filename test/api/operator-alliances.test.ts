import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import dayjs from 'dayjs';
import { is } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Config, loadConfig } from '../../server/config';
import { businessDate } from '../../server/http/business-date';
import { OPS_COMMANDS, type OpsContext } from '../../server/ops/commands';
import { DEMO_CORPORATE, DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { ALLIANCE_MESSAGES, beyondMaxDaysMessage } from '../../src/domain/alliance-terms';
import { RFC_REASONS } from '../../src/domain/rfc';
import { SatStatus } from '../../src/domain/sat-status';
import { MESSAGES } from '../../src/domain/schemas/fields';
import {
  InboxPage,
  OperatorAllianceDetail,
  OperatorAlliancePage,
} from '../../src/domain/schemas/operator-alliances';
import { bearer, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { TEST_DEMO_AUTHORITY_DIR } from '../support/demo-authority';
import { createOperatorSession } from '../support/operator';
import { addCompanyWithUser, advanceTo, importInvoice } from '../support/pronto-pago';

const ALLIANCES = '/api/operator/alliances/';
const INBOX = '/api/operator/inbox/';
const QUOTE = (id: number) => `/api/providers/forward-payment/${id}/`;
const ADVANCE = '/api/providers/forward-payment/';

describe('operator alliances: price, history, pending RFCs, inbox', () => {
  let ctx: ApiTestContext;
  let dir: string;
  let config: Config;
  let analista: string;
  let auditor: string;
  let corporateId: number;
  const NOW = new Date('2026-03-10T18:00:00Z');
  const today = () => businessDate(NOW);
  const inDays = (days: number) => dayjs(today()).add(days, 'day').format('YYYY-MM-DD');
  const db = () => ctx.database.db;

  const post = (token: string | null, body: unknown) =>
    ctx.app.inject({
      method: 'POST',
      url: ALLIANCES,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      payload: body as Record<string, unknown>,
    });
  const get = (token: string | null, url: string) =>
    ctx.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const outboxTo = (email: string) =>
    db().selectFrom('mail_outbox').select(['subject', 'body_text']).where('recipient', '=', email).execute();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flujo-alliances-'));
    config = loadConfig({
      DEMO_AUTHORITY_DIR: TEST_DEMO_AUTHORITY_DIR,
      JWT_SECRET: randomBytes(48).toString('base64url'),
      SAT_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      SAT_SANDBOX_DIR: join(dir, 'sandbox'),
      DATA_DIR: dir,
    });
    ctx = await createApiApp({ config, now: () => NOW });
    analista = (await createOperatorSession(ctx, { roles: ['analista'], username: 'op.analista' })).access;
    auditor = (await createOperatorSession(ctx, { roles: ['auditor'], username: 'op.auditor' })).access;
    const corporate = await db()
      .selectFrom('companies')
      .select('id')
      .where('rfc', '=', DEMO_CORPORATE.rfc)
      .executeTakeFirstOrThrow();
    corporateId = corporate.id;
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates an active alliance with an authorized supplier: tasa + IVA derived, supplier told, request allied', async () => {
    const supplier = await addCompanyWithUser(db(), {
      rfc: 'ALI200115AB1',
      name: 'Aliada del Norte, S.A. de C.V.',
      username: 'aliada.norte',
    });
    await db()
      .insertInto('alliance_requests')
      .values({
        provider_id: supplier.companyId,
        requested_by: supplier.userId,
        client_rfc: DEMO_CORPORATE.rfc,
        client_name: DEMO_CORPORATE.name,
        contact_name: 'Ana Compras',
        email: 'compras@example.mx',
        phone: '5512345678',
      })
      .execute();

    const res = await post(analista, {
      corporate_id: corporateId,
      provider_rfc: ' ali200115ab1 ',
      annual_rate: 15,
      max_days: 90,
      max_amount: '250000',
    });
    expect(res.statusCode).toBe(201);
    const alliance = res.json();
    expect(is(alliance, OperatorAllianceDetail)).toBe(true);
    expect(alliance).toMatchObject({
      corporate_id: corporateId,
      corporate_name: DEMO_CORPORATE.name,
      provider_id: supplier.companyId,
      provider_rfc: 'ALI200115AB1',
      provider_name: 'Aliada del Norte, S.A. de C.V.',
      annual_rate: '15.00',
      max_rate: '17.4000',
      max_days: 90,
      max_amount: '250000.00',
      state: 'activa',
    });
    expect(alliance.prices).toEqual([
      expect.objectContaining({
        annual_rate: '15.00',
        max_rate: '17.4000',
        max_days: 90,
        set_by: 'op.analista',
      }),
    ]);
    const request = await db()
      .selectFrom('alliance_requests')
      .select('status')
      .where('provider_id', '=', supplier.companyId)
      .executeTakeFirstOrThrow();
    expect(request.status).toBe('allied');
    const mails = await outboxTo('aliada.norte@example.mx');
    expect(mails.map((m) => m.subject)).toContain(
      `Tu alianza de pronto pago con ${DEMO_CORPORATE.name} está activa`,
    );
    expect(mails.at(-1)?.body_text).toContain('Tasa anual: 15.00 % más IVA');

    const detail = await get(auditor, `${ALLIANCES}${alliance.id}/`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toEqual(alliance);

    // The same terms again (a double click) change nothing: no second price, no second e-mail.
    const again = await post(analista, {
      corporate_id: corporateId,
      provider_rfc: 'ALI200115AB1',
      annual_rate: '15.00',
      max_days: 90,
      max_amount: '250000.00',
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(alliance);
    expect(await outboxTo('aliada.norte@example.mx')).toHaveLength(mails.length);
  });

  it('a new price applies to quotes made after it; an advance already saved keeps its rate; history newest first', async () => {
    const provider = await sessionFor(ctx.app, 'proveedor.demo');
    const demoRfc = DEMO_PROVIDERS[0].rfc;
    const first = await post(analista, {
      corporate_id: corporateId,
      provider_rfc: demoRfc,
      annual_rate: '15',
      max_days: 90,
    });
    // The demo alliance existed before the operator priced it: a change (200), not a creation.
    expect(first.statusCode).toBe(200);

    const before = await importInvoice(db(), { today: today() });
    await advanceTo(db(), before, 'approved', inDays(45));
    const quoteBefore = await get(provider.access, QUOTE(before));
    expect(quoteBefore.json()).toMatchObject({ max_rate: 17.4, days: 45 });
    const advanced = await ctx.app.inject({
      method: 'POST',
      url: ADVANCE,
      headers: bearer(provider),
      payload: { id_execute_factoring: before },
    });
    expect(advanced.statusCode).toBe(200);

    const changed = await post(analista, {
      corporate_id: corporateId,
      provider_rfc: demoRfc,
      annual_rate: '20.00',
      max_days: 90,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ annual_rate: '20.00', max_rate: '23.2000', state: 'activa' });
    expect(changed.json().prices.map((p: { annual_rate: string }) => p.annual_rate)).toEqual([
      '20.00',
      '15.00',
    ]);

    const after = await importInvoice(db(), { today: today() });
    await advanceTo(db(), after, 'approved', inDays(45));
    const quoteAfter = await get(provider.access, QUOTE(after));
    expect(quoteAfter.statusCode).toBe(200);
    expect(quoteAfter.json()).toMatchObject({ max_rate: 23.2, days: 45, cost_financing: '2900.00' });
    const saved = await db()
      .selectFrom('invoices')
      .select('factoring_rate')
      .where('id', '=', before)
      .executeTakeFirstOrThrow();
    expect(Number(saved.factoring_rate)).toBe(17.4);

    // max_days bounds the days to the payment date: no quote beyond them (decision 0053).
    await post(analista, {
      corporate_id: corporateId,
      provider_rfc: demoRfc,
      annual_rate: '20',
      max_days: 30,
    });
    const tooFar = await get(provider.access, QUOTE(after));
    expect(tooFar.statusCode).toBe(409);
    expect(tooFar.json().detail).toBe(beyondMaxDaysMessage(30));
    await post(analista, {
      corporate_id: corporateId,
      provider_rfc: demoRfc,
      annual_rate: '15',
      max_days: 120,
    });
  });

  it('an RFC not yet in Flujo waits, and its SAT approval activates it and e-mails the supplier', async () => {
    const rfc = 'PEN200301XY2';
    const res = await post(analista, {
      corporate_id: corporateId,
      provider_rfc: rfc,
      annual_rate: '12.35',
      max_days: 60,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      provider_id: null,
      provider_rfc: rfc,
      provider_name: null,
      max_rate: '14.3260',
      state: 'pendiente',
    });
    const pendingId = res.json().id as number;
    const pendingList = await get(auditor, `${ALLIANCES}?status=pendiente&corporate=${corporateId}`);
    expect(pendingList.statusCode).toBe(200);
    expect(is(pendingList.json(), OperatorAlliancePage)).toBe(true);
    expect(pendingList.json().results.map((a: { id: number }) => a.id)).toContain(pendingId);

    // A second price while it waits changes it in place and joins its history.
    const repriced = await post(analista, {
      corporate_id: corporateId,
      provider_rfc: rfc,
      annual_rate: '13',
      max_days: 60,
    });
    expect(repriced.statusCode).toBe(200);
    expect(repriced.json()).toMatchObject({ id: pendingId, state: 'pendiente', max_rate: '15.0800' });

    // The supplier signs up and sends its SAT link; the operator approves it.
    const supplier = await addCompanyWithUser(db(), {
      rfc,
      name: 'Pendiente del Sur, S.A. de C.V.',
      username: 'pendiente.sur',
      satStatus: SatStatus.SENT,
    });
    await db()
      .insertInto('alliance_requests')
      .values({
        provider_id: supplier.companyId,
        requested_by: supplier.userId,
        client_rfc: DEMO_CORPORATE.rfc,
        client_name: DEMO_CORPORATE.name,
        contact_name: 'Luis Pagos',
        email: 'pagos@example.mx',
        phone: '5587654321',
      })
      .execute();
    const command = OPS_COMMANDS['sat:approve'];
    if (!command) throw new Error('no sat:approve');
    const context: OpsContext = { config, database: ctx.database, now: () => NOW, print: () => undefined };
    expect(await command.run(context, [rfc])).toBe(0);

    const detail = await get(auditor, `${ALLIANCES}${pendingId}/`);
    expect(detail.json()).toMatchObject({
      provider_id: supplier.companyId,
      provider_name: 'Pendiente del Sur, S.A. de C.V.',
      annual_rate: '13.00',
      state: 'activa',
    });
    expect(detail.json().prices).toHaveLength(2);
    const mails = await outboxTo('pendiente.sur@example.mx');
    expect(mails.map((m) => m.subject)).toContain(
      `Tu alianza de pronto pago con ${DEMO_CORPORATE.name} está activa`,
    );
    const request = await db()
      .selectFrom('alliance_requests')
      .select('status')
      .where('provider_id', '=', supplier.companyId)
      .executeTakeFirstOrThrow();
    expect(request.status).toBe('allied');
  });

  it('the inbox lists each kind with its status, a DRF page', async () => {
    const provider = await sessionFor(ctx.app, 'proveedor.demo');
    const demo = await db()
      .insertInto('demo_requests')
      .values({
        first_name: 'Marta',
        last_name: 'Ríos',
        phone: '5511112222',
        email: 'marta@example.mx',
        company: 'Ríos SA',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const user = await db()
      .selectFrom('users')
      .select(['id', 'company_id'])
      .where('username', '=', 'proveedor.demo')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('referrals')
      .values({
        referrer_user_id: user.id,
        name: 'Pedro',
        company: 'Pedro SA',
        email: 'pedro@example.mx',
        phone: '5533334444',
      })
      .execute();
    await db()
      .insertInto('factoring_enrolments')
      .values({ company_id: user.company_id as number, requested_by: user.id })
      .execute();
    expect(provider.access).toBeTruthy();

    for (const kind of ['demo', 'referral', 'factoring', 'alliance'] as const) {
      const res = await get(auditor, `${INBOX}?kind=${kind}`);
      expect(res.statusCode, kind).toBe(200);
      const page = res.json();
      expect(is(page, InboxPage), kind).toBe(true);
      expect(page.count, kind).toBeGreaterThan(0);
      expect(page.results.every((item: { kind: string }) => item.kind === kind)).toBe(true);
    }
    const demos = (await get(analista, `${INBOX}?kind=demo`)).json();
    expect(demos.results[0]).toMatchObject({
      id: demo.id,
      from_name: 'Marta Ríos',
      contact_email: 'marta@example.mx',
    });
    const alliances = (await get(analista, `${INBOX}?kind=alliance`)).json();
    expect(alliances.results.map((item: { status: string }) => item.status)).toContain('allied');
    const factoring = (await get(analista, `${INBOX}?kind=factoring`)).json();
    expect(factoring.results[0]).toMatchObject({ status: 'requested' });

    const bad = await get(analista, `${INBOX}?kind=otra`);
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['kind']);
  });

  it('refuses anyone but an analista with 2FA to set a price; every operator may read', async () => {
    const body = { corporate_id: corporateId, provider_rfc: 'REQ190512Q78', annual_rate: 15, max_days: 30 };
    expect((await post(null, body)).statusCode).toBe(401);
    const provider = await sessionFor(ctx.app, 'proveedor.demo');
    expect((await post(provider.access, body)).statusCode).toBe(403);
    const corporate = await sessionFor(ctx.app, 'corporativo.demo');
    expect((await post(corporate.access, body)).statusCode).toBe(403);
    expect((await post(auditor, body)).statusCode).toBe(403);
    const aprobador = await createOperatorSession(ctx, { roles: ['aprobador'], username: 'op.aprobador' });
    expect((await post(aprobador.access, body)).statusCode).toBe(403);
    const noMfa = await createOperatorSession(ctx, {
      roles: ['analista'],
      username: 'op.sin2fa',
      mfaVerified: false,
    });
    expect((await post(noMfa.access, body)).statusCode).toBe(403);
    expect((await get(noMfa.access, ALLIANCES)).statusCode).toBe(403);
    expect((await get(provider.access, `${INBOX}?kind=demo`)).statusCode).toBe(403);
    expect((await get(auditor, ALLIANCES)).statusCode).toBe(200);
  });

  it('answers bad input with Spanish messages per field', async () => {
    const empty = await post(analista, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({
      corporate_id: [ALLIANCE_MESSAGES.corporateRequired],
      provider_rfc: [MESSAGES.required],
      annual_rate: [ALLIANCE_MESSAGES.rateNumber],
      max_days: [ALLIANCE_MESSAGES.daysRange],
    });
    const ranges = await post(analista, {
      corporate_id: corporateId,
      provider_rfc: 'XYZ',
      annual_rate: '0',
      max_days: 200,
      max_amount: '-5',
    });
    expect(ranges.json()).toEqual({
      provider_rfc: [RFC_REASONS.format],
      annual_rate: [ALLIANCE_MESSAGES.rateRange],
      max_days: [ALLIANCE_MESSAGES.daysRange],
      max_amount: [ALLIANCE_MESSAGES.amount],
    });
    expect(
      (
        await post(analista, {
          corporate_id: corporateId,
          provider_rfc: 'REQ190512Q78',
          annual_rate: '15.123',
          max_days: 30,
        })
      ).json(),
    ).toEqual({
      annual_rate: [ALLIANCE_MESSAGES.rateDecimals],
    });
    const provider = await db()
      .selectFrom('companies')
      .select('id')
      .where('rfc', '=', DEMO_PROVIDERS[0].rfc)
      .executeTakeFirstOrThrow();
    const notCorporate = await post(analista, {
      corporate_id: provider.id,
      provider_rfc: 'REQ190512Q78',
      annual_rate: 15,
      max_days: 30,
    });
    expect(notCorporate.statusCode).toBe(400);
    expect(notCorporate.json()).toEqual({ corporate_id: [ALLIANCE_MESSAGES.notCorporate] });
    const unknown = await post(analista, {
      corporate_id: 999999,
      provider_rfc: 'REQ190512Q78',
      annual_rate: 15,
      max_days: 30,
    });
    expect(unknown.json()).toEqual({ corporate_id: [ALLIANCE_MESSAGES.corporateUnknown] });
    const itself = await post(analista, {
      corporate_id: corporateId,
      provider_rfc: DEMO_CORPORATE.rfc,
      annual_rate: 15,
      max_days: 30,
    });
    expect(itself.json()).toEqual({ provider_rfc: [ALLIANCE_MESSAGES.sameCompany] });

    expect((await get(analista, `${ALLIANCES}?status=rota&page=0`)).json()).toEqual({
      status: [expect.any(String)],
      page: [expect.any(String)],
    });
    const missing = await get(analista, `${ALLIANCES}999999/`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: ALLIANCE_MESSAGES.notFound });
  });
});
