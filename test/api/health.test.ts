// @postgresql: health names the engine it runs on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiTestContext, createApiApp } from '../support/api-app';

describe('GET /api/health/', () => {
  let ctx: ApiTestContext;
  beforeAll(async () => {
    ctx = await createApiApp();
  });
  afterAll(() => ctx.close());

  it('answers ok with the database kind', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      database: process.env.TEST_DATABASE_URL ? 'postgresql' : 'pglite',
    });
  });

  it('answers unknown API paths with a JSON 404 in Spanish', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/no-existe/' });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toContain('No existe');
  });

  it('sets security headers', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health/' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
