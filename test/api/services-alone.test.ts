import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../server/seed/demo-world';
import { type ApiTestContext, createApiApp } from '../support/api-app';

const DEMO_PROVIDER_USERNAME = 'proveedor.demo';

// ARCHITECTURE: the invoices service (/api/) and the user service (/api/accounts/) are two plugins, each
// able to run in a process of its own.

describe('the user service alone', () => {
  let ctx: ApiTestContext;
  beforeAll(async () => {
    ctx = await createApiApp({ services: ['accounts'] });
  });
  afterAll(() => ctx.close());

  it('logs in and answers the SAT link, and has none of the invoices service', async () => {
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/accounts/login/',
      payload: { username: DEMO_PROVIDER_USERNAME, password: DEMO_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const auth = { authorization: `Bearer ${login.json().access}` };
    const ciec = await ctx.app.inject({ method: 'GET', url: '/api/accounts/ciec/', headers: auth });
    expect(ciec.statusCode).toBe(200);

    for (const url of ['/api/health/', '/api/providers/alliances/', '/api/newsletter/']) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: auth });
      expect(res.statusCode, url).toBe(404);
    }
  });
});

describe('the invoices service alone', () => {
  let ctx: ApiTestContext;
  beforeAll(async () => {
    ctx = await createApiApp({ services: ['invoices'] });
  });
  afterAll(() => ctx.close());

  it('answers health, reset and pronto-pago calls, and has none of the user service', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health/' })).statusCode).toBe(200);
    const reset = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/request-reset-password/',
      payload: { email: 'nadie@example.com' },
    });
    expect(reset.statusCode).toBe(400);
    expect(reset.json()).toEqual({ message: 'User with this email does not exist' });
    // Without a token the provider list is refused as unauthenticated, so the route exists.
    const list = await ctx.app.inject({ method: 'GET', url: '/api/providers/alliances/' });
    expect(list.statusCode).toBe(401);

    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/accounts/login/',
      payload: { username: DEMO_PROVIDER_USERNAME, password: DEMO_PASSWORD },
    });
    expect(login.statusCode).toBe(404);
  });
});
