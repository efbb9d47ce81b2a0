import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { rowCount } from '../support/test-database';

const URL = '/api/newsletter/';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('POST /api/newsletter/', () => {
  let ctx: ApiTestContext;
  const stored = async (email: string) =>
    ctx.database.db
      .selectFrom('newsletter_subscriptions')
      .select(['email', 'created_at'])
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .execute();
  const total = () => rowCount(ctx.database.db, 'newsletter_subscriptions');

  beforeAll(async () => {
    ctx = await createApiApp();
  });
  afterAll(() => ctx.close());

  it('stores a JSON subscription and answers 201', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: URL,
      payload: { email: ' lucia.mendez@example.mx ' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: 'Suscripción registrada' });
    const rows = await stored('lucia.mendez@example.mx');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.email).toBe('lucia.mendez@example.mx');
  });

  it('keeps one row per address whatever the letter case, and answers the same the second time', async () => {
    const before = await total();
    const first = await ctx.app.inject({
      method: 'POST',
      url: URL,
      payload: { email: 'Compras@Example.mx' },
    });
    const again = await ctx.app.inject({
      method: 'POST',
      url: URL,
      payload: { email: 'compras@example.MX' },
    });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await total()).toBe(before + 1);
  });

  it('rejects a missing or malformed address with the Spanish field message, storing nothing', async () => {
    const before = await total();
    for (const payload of [
      {},
      { email: '' },
      { email: 'no-es-correo' },
      { email: `${'a'.repeat(250)}@x.mx` },
    ]) {
      const res = await ctx.app.inject({ method: 'POST', url: URL, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.email[0]).toMatch(/^(Este campo es obligatorio|Debe ser un correo valido)$/);
    }
    expect(await total()).toBe(before);
  });

  it('accepts the footer form and sends the browser back to its page with the outcome', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: URL,
      headers: FORM,
      payload: 'email=tesoreria%40altamira.example.mx&origen=%2Fcompradores%2F',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/compradores/?boletin=suscrito#boletin');
    expect(await stored('tesoreria@altamira.example.mx')).toHaveLength(1);
  });

  it('sends a bad form back with boletin=error, and never redirects off the site', async () => {
    const bad = await ctx.app.inject({
      method: 'POST',
      url: URL,
      headers: FORM,
      payload: 'email=nada&origen=%2Fcalculadora%2F',
    });
    expect(bad.statusCode).toBe(303);
    expect(bad.headers.location).toBe('/calculadora/?boletin=error#boletin');
    for (const origen of ['https://evil.example/', '//evil.example/', '/../x', 'inicio']) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: URL,
        headers: FORM,
        payload: `email=a%40b.mx&origen=${encodeURIComponent(origen)}`,
      });
      expect(res.headers.location).toBe('/inicio/?boletin=suscrito#boletin');
    }
  });

  it('refuses a form posted from another site', async () => {
    const before = await total();
    const res = await ctx.app.inject({
      method: 'POST',
      url: URL,
      headers: { ...FORM, 'sec-fetch-site': 'cross-site' },
      payload: 'email=victima%40example.mx',
    });
    expect(res.statusCode).toBe(403);
    expect(await total()).toBe(before);
  });

  it('answers 400, never 500, for a body that is not an object', async () => {
    for (const payload of ['[]', 'null', '"correo@example.mx"', '{"email":']) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: URL,
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode).toBe(400);
    }
  });
});
