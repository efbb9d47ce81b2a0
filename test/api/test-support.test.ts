import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import {
  TEST_SUPPORT_PREFIX,
  TEST_SUPPORT_TOKEN_HEADER,
  WRONG_TOKEN_MESSAGE,
} from '../../server/modules/test-support/test-support.routes';
import {
  type ImportedTestInvoice,
  TEST_SUPPORT_MESSAGES,
  type TestWorld,
} from '../../server/modules/test-support/test-support.service';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { checkRfc } from '../../src/domain/rfc';
import { type ApiTestContext, createApiApp, testConfig } from '../support/api-app';
import { DEMO_PROVIDER, importInvoice } from '../support/pronto-pago';

// The test-support API (decision 0048): absent unless enabled with its token, and even then it acts only on
// what it created.

const TOKEN = 'prueba-token-de-la-api-de-pruebas-0123456789';

describe('test-support API, by default', () => {
  let ctx: ApiTestContext;
  beforeAll(async () => {
    ctx = await createApiApp();
  });
  afterAll(() => ctx.close());

  it('does not exist: every route answers 404, with or without a token, and the OpenAPI document omits it', async () => {
    for (const [method, url] of [
      ['POST', `${TEST_SUPPORT_PREFIX}/worlds/`],
      ['POST', `${TEST_SUPPORT_PREFIX}/invoices/`],
      ['GET', `${TEST_SUPPORT_PREFIX}/invoices/1/`],
      ['GET', `${TEST_SUPPORT_PREFIX}/invoices/1/cfdi/`],
      ['GET', `${TEST_SUPPORT_PREFIX}/mails/?to=proveedor.demo%40flujo.mx`],
      ['POST', `${TEST_SUPPORT_PREFIX}/invoices/1/disburse/`],
    ] as const) {
      const answer = await ctx.app.inject({ method, url, headers: { [TEST_SUPPORT_TOKEN_HEADER]: TOKEN } });
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
    }
    const document = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(
      Object.keys(document.json<{ paths: object }>().paths).filter((path) => path.includes('test-support')),
    ).toEqual([]);
  });

  it('is not enabled by a token alone, and refuses to start with the switch but a short token', () => {
    expect(loadConfig({ TEST_SUPPORT_TOKEN: TOKEN }).testSupportToken).toBeNull();
    expect(() => loadConfig({ TEST_SUPPORT_ROUTES: 'true', TEST_SUPPORT_TOKEN: 'corto' })).toThrow(
      ConfigError,
    );
  });
});

describe('test-support API, enabled', () => {
  let ctx: ApiTestContext;
  let world: TestWorld;
  const call = (method: 'GET' | 'POST', url: string, payload?: object, token: string | null = TOKEN) =>
    ctx.app.inject({
      method,
      url: `${TEST_SUPPORT_PREFIX}${url}`,
      ...(payload ? { payload } : {}),
      headers: token === null ? {} : { [TEST_SUPPORT_TOKEN_HEADER]: token },
    });

  beforeAll(async () => {
    ctx = await createApiApp({
      config: testConfig({ TEST_SUPPORT_ROUTES: 'true', TEST_SUPPORT_TOKEN: TOKEN }),
    });
    const created = await call('POST', '/worlds/');
    expect(created.statusCode).toBe(201);
    world = created.json<TestWorld>();
  });
  afterAll(() => ctx.close());

  it('refuses every call without the token or with another one (403), creating nothing', async () => {
    const before = await ctx.database.db.selectFrom('companies').select('id').execute();
    for (const token of [null, `${TOKEN}x`, 'otro']) {
      const answer = await call('POST', '/worlds/', undefined, token);
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toEqual({ detail: WRONG_TOKEN_MESSAGE });
    }
    expect(await ctx.database.db.selectFrom('companies').select('id').execute()).toHaveLength(before.length);
  });

  it('creates fresh companies with valid RFCs and users who can sign in', async () => {
    const parties = [world.provider, world.corporate, world.otherProvider, world.otherCorporate];
    expect(new Set(parties.map((party) => party.username)).size).toBe(4);
    for (const party of parties) {
      expect(checkRfc(party.rfc)).toMatchObject({ ok: true, checkDigitValid: true, generic: false });
      const login = await ctx.app.inject({
        method: 'POST',
        url: '/api/accounts/login/',
        payload: { username: party.username, password: party.password },
      });
      expect(login.statusCode, party.username).toBe(200);
    }
    const again = (await call('POST', '/worlds/')).json<TestWorld>();
    expect(again.provider.rfc).not.toBe(world.provider.rfc);
    expect(again.provider.username).not.toBe(world.provider.username);
  });

  it('imports invoices between its companies and walks them, but refuses the demo world’s', async () => {
    const imported = await call('POST', '/invoices/', {
      emitterCompanyId: world.provider.companyId,
      receiverCompanyId: world.corporate.companyId,
    });
    expect(imported.statusCode).toBe(201);
    const invoice = imported.json<ImportedTestInvoice>();
    expect((await call('GET', `/invoices/${invoice.id}/`)).json()).toEqual({
      status: InvoiceStatus.AVAILABLE,
      events: 1,
      disbursements: 0,
    });
    const request = await call('POST', `/invoices/${invoice.id}/events/`, {
      userId: world.provider.userId,
      event: {
        type: 'invoice.requestAuthorization',
        actor: { kind: 'provider', companyId: world.provider.companyId, satAuthorized: true },
      },
    });
    expect(request.json()).toMatchObject({ ok: true });
    expect((await call('POST', `/invoices/${invoice.id}/disburse/`)).json()).toMatchObject({ code: 1 });

    const db = ctx.database.db;
    const demoProvider = await db
      .selectFrom('companies')
      .select('id')
      .where('rfc', '=', DEMO_PROVIDER.rfc)
      .executeTakeFirstOrThrow();
    const demoUser = await db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'proveedor.demo')
      .executeTakeFirstOrThrow();
    const demoInvoice = await importInvoice(db);
    const foreign = [
      await call('POST', '/invoices/', {
        emitterCompanyId: demoProvider.id,
        receiverCompanyId: world.corporate.companyId,
      }),
      await call('GET', `/invoices/${demoInvoice}/`),
      await call('POST', `/invoices/${demoInvoice}/events/`, {
        userId: world.provider.userId,
        event: {
          type: 'invoice.requestAuthorization',
          actor: { kind: 'provider', companyId: world.provider.companyId, satAuthorized: true },
        },
      }),
      // Its own invoice, but as a user it did not create.
      await call('POST', `/invoices/${invoice.id}/events/`, {
        userId: demoUser.id,
        event: { type: 'invoice.reject', actor: { kind: 'corporate', companyId: null, satAuthorized: true } },
      }),
      await call('POST', `/invoices/${demoInvoice}/disburse/`),
      await call('POST', `/invoices/${demoInvoice}/sat-cancel/`),
    ];
    for (const answer of foreign) {
      expect(answer.statusCode).toBe(404);
      expect(Object.values(TEST_SUPPORT_MESSAGES)).toContain(answer.json<{ detail: string }>().detail);
    }
    // Nothing happened to the demo's invoice: still Por Autorizar, with only its import in the trail.
    const untouched = await db
      .selectFrom('invoice_events')
      .select('id')
      .where('invoice_id', '=', demoInvoice)
      .execute();
    expect(untouched).toHaveLength(1);
  });

  it('reads back the stored CFDI of its own invoices only', async () => {
    const invoice = (
      await call('POST', '/invoices/', {
        emitterCompanyId: world.provider.companyId,
        receiverCompanyId: world.corporate.companyId,
      })
    ).json<ImportedTestInvoice>();
    const cfdi = await call('GET', `/invoices/${invoice.id}/cfdi/`);
    expect(cfdi.statusCode).toBe(200);
    expect(cfdi.json()).toMatchObject({ uuid: invoice.uuid, serie: invoice.serie, folio: invoice.folio });
    expect(cfdi.json<{ xml: string }>().xml).toContain(world.provider.rfc);
    const demoInvoice = await importInvoice(ctx.database.db);
    const foreign = await call('GET', `/invoices/${demoInvoice}/cfdi/`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ detail: TEST_SUPPORT_MESSAGES.foreignInvoice });
    expect((await call('GET', `/invoices/${invoice.id}/cfdi/`, undefined, null)).statusCode).toBe(403);
  });

  it('reads the mail queued for its own users, and for no other address', async () => {
    const requested = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/request-reset-password/',
      payload: { email: world.provider.email },
    });
    expect(requested.statusCode).toBe(200);
    const mails = await call('GET', `/mails/?to=${encodeURIComponent(world.provider.email)}`);
    expect(mails.statusCode).toBe(200);
    const [mail] = mails.json<{ subject: string; body_text: string }[]>();
    expect(mail?.body_text).toContain('/auth/reiniciar-contrasena/?token=');
    expect(world.provider.email).toMatch(/@example\.com$/);

    // The demo user's reset mail is real and not the API's to read.
    await ctx.app.inject({
      method: 'POST',
      url: '/api/users/request-reset-password/',
      payload: { email: 'proveedor.demo@flujo.mx' },
    });
    for (const url of ['/mails/?to=proveedor.demo%40flujo.mx', '/mails/?to=nadie%40example.com', '/mails/']) {
      const answer = await call('GET', url);
      expect(answer.statusCode, url).toBe(404);
      expect(answer.json()).toEqual({ detail: TEST_SUPPORT_MESSAGES.foreignUser });
    }
    expect((await call('GET', `/mails/?to=${world.provider.email}`, undefined, 'otro')).statusCode).toBe(403);
  });

  it('answers bad input with 400 and Spanish messages per field', async () => {
    const answer = await call('POST', '/invoices/', { emitterCompanyId: 'uno' });
    expect(answer.statusCode).toBe(400);
    expect(Object.keys(answer.json())).toEqual(
      expect.arrayContaining(['emitterCompanyId', 'receiverCompanyId']),
    );
  });
});
