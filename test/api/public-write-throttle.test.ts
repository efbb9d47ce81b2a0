import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PUBLIC_WRITE_LIMITS } from '../../server/modules/auth/public-write-limits';
import { SERVER_MESSAGES } from '../../src/domain/schemas/session';
import { bearer, type Session, sessionFor } from '../support/accounts';
import {
  type ApiTestContext,
  createApiApp,
  PRODUCTION_LIMITS,
  testClock,
  testConfig,
} from '../support/api-app';
import { rowCount } from '../support/test-database';

// The public forms at their production limits (PUBLIC_WRITE_LIMIT_FACTOR=1). Sign-up's and the reset request's
// are tested beside their other rules (accounts-register, accounts-password-reset).

const TOO_MANY = { detail: SERVER_MESSAGES.tooManyRequests };
const DEMO = {
  first_name: 'Ana',
  last_name: 'Torres',
  phone: '5598765432',
  email: 'ana.torres@example.mx',
  company: 'Maquiladora Norte',
};
const REFERRAL = {
  name: 'Marta Ibáñez',
  company: 'Distribuidora Ibáñez',
  email: 'marta@ibanez.example.mx',
  phone: '5511223344',
};

function expectThrottled(res: LightMyRequestResponse): void {
  expect(res.statusCode, res.body).toBe(429);
  expect(res.json()).toEqual(TOO_MANY);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}

describe('public writes are throttled per client address', () => {
  let ctx: ApiTestContext;
  const clock = testClock();
  const db = () => ctx.database.db;

  beforeAll(async () => {
    ctx = await createApiApp({ now: clock.now, config: testConfig(PRODUCTION_LIMITS) });
  });
  afterAll(() => ctx.close());
  beforeEach(async () => {
    await db().deleteFrom('throttle_hits').execute();
  });

  it('names each limit once, with a burst window', () => {
    for (const rules of Object.values(PUBLIC_WRITE_LIMITS)) {
      expect(rules.length).toBeGreaterThan(0);
      for (const { rule } of rules) expect(rule.limit).toBeGreaterThan(0);
    }
    expect(PUBLIC_WRITE_LIMITS.demoRequest[0].rule).toEqual({ limit: 5, windowMinutes: 10 });
  });

  describe('POST /api/accounts/request-demo/ (5 per 10 minutes, 20 a day)', () => {
    const post = (remoteAddress: string, payload: object = DEMO) =>
      ctx.app.inject({ method: 'POST', url: '/api/accounts/request-demo/', payload, remoteAddress });
    const stored = () => rowCount(db(), 'demo_requests');

    it('accepts 5 in a row from one address; the 6th is a Spanish 429 and stores nothing', async () => {
      const before = await stored();
      for (let i = 0; i < 5; i++) expect((await post('10.60.0.1')).statusCode).toBe(201);
      expect(await stored()).toBe(before + 5);
      for (let i = 0; i < 25; i++) expectThrottled(await post('10.60.0.1'));
      expect(await stored()).toBe(before + 5);
      // Another address is not affected, and the first may send again once the window has passed.
      expect((await post('10.60.0.2')).statusCode).toBe(201);
      clock.advanceMinutes(11);
      expect((await post('10.60.0.1')).statusCode).toBe(201);
    });

    it('counts refused forms too, and caps a slow script at 20 a day', async () => {
      for (let i = 0; i < 5; i++) expect((await post('10.60.1.1', { email: 'x' })).statusCode).toBe(400);
      expectThrottled(await post('10.60.1.1'));
      for (let burst = 0; burst < 3; burst++) {
        clock.advanceMinutes(11);
        for (let i = 0; i < 5; i++) expect((await post('10.60.1.1')).statusCode).toBe(201);
      }
      clock.advanceMinutes(11);
      expectThrottled(await post('10.60.1.1'));
      clock.advanceMinutes(24 * 60);
      expect((await post('10.60.1.1')).statusCode).toBe(201);
    });
  });

  describe('POST /api/newsletter/ (5 per 10 minutes, 20 a day)', () => {
    const stored = () => rowCount(db(), 'newsletter_subscriptions');

    it('the 6th JSON subscription from one address is a Spanish 429 and stores nothing', async () => {
      const before = await stored();
      for (let i = 0; i < 5; i++) {
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/newsletter/',
          payload: { email: `lector${i}@example.mx` },
          remoteAddress: '10.61.0.1',
        });
        expect(res.statusCode).toBe(201);
      }
      const blocked = await ctx.app.inject({
        method: 'POST',
        url: '/api/newsletter/',
        payload: { email: 'lector99@example.mx' },
        remoteAddress: '10.61.0.1',
      });
      expectThrottled(blocked);
      expect(await stored()).toBe(before + 5);
    });

    it('sends the footer form back to its page with boletin=limite, which the footer explains', async () => {
      const form = (email: string) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/newsletter/',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: `email=${encodeURIComponent(email)}&origen=%2Fcompradores%2F`,
          remoteAddress: '10.61.0.2',
        });
      for (let i = 0; i < 5; i++) {
        expect((await form(`forma${i}@example.mx`)).headers.location).toBe(
          '/compradores/?boletin=suscrito#boletin',
        );
      }
      const before = await stored();
      const blocked = await form('forma99@example.mx');
      expect(blocked.statusCode).toBe(303);
      expect(blocked.headers.location).toBe('/compradores/?boletin=limite#boletin');
      expect(await stored()).toBe(before);
    });
  });

  describe('POST /api/providers/refer-customer/ (10 per 10 minutes per address, 50 a day per company)', () => {
    let provider: Session;
    // A new session per test: the other tests move the clock past the access token's life.
    beforeEach(async () => {
      provider = await sessionFor(ctx.app, 'proveedor.demo');
    });
    const refer = (remoteAddress: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/providers/refer-customer/',
        payload: REFERRAL,
        headers: bearer(provider),
        remoteAddress,
      });
    const stored = () => rowCount(db(), 'referrals');

    it('the 11th referral from one address is a Spanish 429 and neither stored nor mailed', async () => {
      const before = await stored();
      const mails = await rowCount(db(), 'mail_outbox');
      for (let i = 0; i < 10; i++) expect((await refer('10.62.0.1')).statusCode).toBe(201);
      expectThrottled(await refer('10.62.0.1'));
      expect(await stored()).toBe(before + 10);
      expect(await rowCount(db(), 'mail_outbox')).toBe(mails + 10);
    });

    it('the company’s 51st referral of the day is refused whatever the address', async () => {
      for (let i = 0; i < 50; i++) expect((await refer(`10.63.${i}.1`)).statusCode).toBe(201);
      expectThrottled(await refer('10.63.99.1'));
      clock.advanceMinutes(24 * 60 + 1);
      provider = await sessionFor(ctx.app, 'proveedor.demo');
      expect((await refer('10.63.99.1')).statusCode).toBe(201);
    });

    it('an anonymous call is a 401 and costs nothing', async () => {
      for (let i = 0; i < 12; i++) {
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/providers/refer-customer/',
          payload: REFERRAL,
          remoteAddress: '10.62.0.9',
        });
        expect(res.statusCode).toBe(401);
      }
      expect((await refer('10.62.0.9')).statusCode).toBe(201);
    });
  });

  it('documents every public write’s 429 in /api/openapi.json', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    for (const [path, method] of [
      ['/api/accounts/request-demo/', 'post'],
      ['/api/newsletter/', 'post'],
      ['/api/providers/refer-customer/', 'post'],
      ['/api/accounts/register/', 'post'],
      ['/api/users/request-reset-password/', 'post'],
    ] as const) {
      const description: string = document.paths[path][method].responses['429']?.description ?? '';
      expect(description, path).toMatch(/^Demasiadas solicitudes \(\d+ por (dirección|correo) cada /);
    }
  });
});
