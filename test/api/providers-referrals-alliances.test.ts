import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { OPS_COMMANDS, type OpsContext } from '../../server/ops/commands';
import { PHONE_MESSAGE } from '../../src/domain/phone';
import { PROVIDER_REQUEST_MESSAGES } from '../../src/domain/provider-requests';
import { type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { TEST_DEMO_AUTHORITY_DIR } from '../support/demo-authority';
import { addCompanyWithUser, postJson } from '../support/pronto-pago';
import { rowCount } from '../support/test-database';

const REFER = '/api/providers/refer-customer/';
const ALLIANCES = '/api/providers/alliances/';
const OPERATOR = 'mesa.operaciones@example.mx';

const REFERRAL = {
  name: 'Marta Ibáñez',
  company: 'Distribuidora Ibáñez',
  email: 'marta@ibanez.example.mx',
  phone: '5511223344',
};
const ALLIANCE = {
  rfc: 'CNO100823HX5',
  company: 'Corporativo Norteño',
  contact_name: 'Jorge Treviño',
  email: 'compras@norteno.example.mx',
  phone: '8181234567',
};

describe('POST providers/refer-customer/ and providers/alliances/, and their ops lists', () => {
  let ctx: ApiTestContext;
  let provider: Session;
  let stranger: Session;
  let corporate: Session;
  const db = () => ctx.database.db;
  const config = loadConfig({
    DEMO_AUTHORITY_DIR: TEST_DEMO_AUTHORITY_DIR,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    SAT_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    OPERATOR_EMAIL: OPERATOR,
  });
  const ops = async (name: string, ...args: string[]) => {
    const output: string[] = [];
    const context: OpsContext = {
      config,
      database: ctx.database,
      now: () => new Date(),
      print: (line) => output.push(line),
    };
    const command = OPS_COMMANDS[name];
    if (!command) throw new Error(`no command ${name}`);
    const code = await command.run(context, args);
    return { code, output };
  };
  const outbox = () =>
    db()
      .selectFrom('mail_outbox')
      .select(['recipient', 'subject', 'body_text'])
      .orderBy('id', 'desc')
      .execute();

  beforeAll(async () => {
    ctx = await createApiApp({ config });
    provider = await sessionFor(ctx.app, 'proveedor.demo');
    corporate = await sessionFor(ctx.app, 'corporativo.demo');
    await addCompanyWithUser(db(), {
      rfc: 'PFL200115K34',
      name: 'Proveedora Flores y Limón',
      username: 'ajeno',
    });
    stranger = await sessionFor(ctx.app, 'ajeno');
  });
  afterAll(() => ctx.close());

  it('ops lists say so when there is nothing yet', async () => {
    expect(await ops('referrals:list')).toEqual({ code: 0, output: ['No referrals yet.'] });
    expect(await ops('alliances:requests')).toEqual({ code: 0, output: ['No alliance requests yet.'] });
  });

  describe('refer-customer', () => {
    it('stores the referral, e-mails the operations desk and answers the Spanish message', async () => {
      const res = await postJson(ctx.app, REFER, provider, { ...REFERRAL, name: `  ${REFERRAL.name} ` });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toEqual({ message: PROVIDER_REQUEST_MESSAGES.referralSent });
      const row = await db()
        .selectFrom('referrals')
        .selectAll()
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject(REFERRAL);
      const [mail] = await outbox();
      expect(mail?.recipient).toBe(OPERATOR);
      expect(mail?.subject).toContain(REFERRAL.company);
      expect(mail?.body_text).toContain('proveedor.demo (Empaques del Bajío, S.A. de C.V.)');
      expect(mail?.body_text).toContain(REFERRAL.phone);
    });

    it("refuses a phone that is not 10 digits with the form's own message (issue 33), storing nothing", async () => {
      const before = await rowCount(db(), 'referrals');
      for (const phone of ['123', '55-ABC', '551122334455']) {
        const res = await postJson(ctx.app, REFER, provider, { ...REFERRAL, phone });
        expect(res.statusCode, phone).toBe(400);
        expect(res.json()).toEqual({ phone: [PHONE_MESSAGE] });
      }
      expect(await rowCount(db(), 'referrals')).toBe(before);
    });

    it('refuses missing fields, a non-numeric phone and a bad e-mail field by field, storing nothing', async () => {
      const before = await rowCount(db(), 'referrals');
      const res = await postJson(ctx.app, REFER, provider, {
        name: '',
        company: '  ',
        email: 'no-es-correo',
        phone: '55-11',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        name: ['Este campo es obligatorio'],
        company: ['Este campo es obligatorio'],
        email: ['Debe ser un correo valido'],
        phone: [PHONE_MESSAGE],
      });
      expect(await rowCount(db(), 'referrals')).toBe(before);
    });

    it('no token 401; a corporate account 403', async () => {
      expect((await postJson(ctx.app, REFER, null, REFERRAL)).statusCode).toBe(401);
      const res = await postJson(ctx.app, REFER, corporate, REFERRAL);
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toBe(PROVIDER_REQUEST_MESSAGES.providerOnly);
    });

    it('ops referrals:list shows the newest first with who referred, honouring --limit', async () => {
      await postJson(ctx.app, REFER, stranger, { ...REFERRAL, company: 'Ferretera Limón' });
      const { code, output } = await ops('referrals:list', '--limit', '1');
      expect(code).toBe(0);
      expect(output).toHaveLength(1);
      expect(output[0]).toMatch(
        /^#\d+ {2}\S+ {2}Marta Ibáñez {2}Ferretera Limón .*\[por ajeno, Proveedora Flores y Limón\]$/,
      );
      expect((await ops('referrals:list')).output).toHaveLength(2);
      await expect(ops('referrals:list', 'extra')).rejects.toThrow('--limit');
    });
  });

  describe('alliances (POST)', () => {
    it('files the request once per client RFC: a repeat answers politely without a second row', async () => {
      const first = await postJson(ctx.app, ALLIANCES, provider, { ...ALLIANCE, rfc: 'cno100823hx5' });
      expect(first.statusCode, first.body).toBe(201);
      expect(first.json()).toEqual({ message: PROVIDER_REQUEST_MESSAGES.allianceRequested });
      const [mail] = await outbox();
      expect(mail?.recipient).toBe(OPERATOR);
      expect(mail?.subject).toContain('CNO100823HX5');

      const again = await postJson(ctx.app, ALLIANCES, provider, ALLIANCE);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ message: PROVIDER_REQUEST_MESSAGES.allianceAlreadyRequested });
      const rows = await db().selectFrom('alliance_requests').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        client_rfc: 'CNO100823HX5',
        client_name: ALLIANCE.company,
        status: 'requested',
      });

      // Another provider asking for the same client files its own request.
      expect((await postJson(ctx.app, ALLIANCES, stranger, ALLIANCE)).statusCode).toBe(201);
      // Once declined, the provider may ask again.
      await db()
        .updateTable('alliance_requests')
        .set({ status: 'declined' })
        .where('id', '=', rows[0]!.id)
        .execute();
      expect((await postJson(ctx.app, ALLIANCES, provider, ALLIANCE)).statusCode).toBe(201);
    });

    it('refuses a bad RFC and a non-numeric phone in Spanish', async () => {
      const res = await postJson(ctx.app, ALLIANCES, provider, { ...ALLIANCE, rfc: 'XYZ', phone: 'tel' });
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body.rfc?.[0]).toMatch(/RFC/);
      expect(body.phone).toEqual([PHONE_MESSAGE]);
    });

    it('no token 401; a corporate account 403; the GET list is untouched', async () => {
      expect((await postJson(ctx.app, ALLIANCES, null, ALLIANCE)).statusCode).toBe(401);
      expect((await postJson(ctx.app, ALLIANCES, corporate, ALLIANCE)).statusCode).toBe(403);
      const list = await ctx.app.inject({
        method: 'GET',
        url: ALLIANCES,
        headers: { authorization: `Bearer ${provider.access}` },
      });
      expect(list.statusCode).toBe(200);
      expect(list.json().count).toBe(16);
    });

    it('ops alliances:requests lists them newest first', async () => {
      const { code, output } = await ops('alliances:requests', '--limit', '2');
      expect(code).toBe(0);
      expect(output).toHaveLength(2);
      expect(output[0]).toContain(
        'EBA120815RTA Empaques del Bajío, S.A. de C.V. → CNO100823HX5 Corporativo Norteño',
      );
      expect(output[0]).toContain('[requested]');
    });
  });
});
