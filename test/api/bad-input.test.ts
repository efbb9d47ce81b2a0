import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { getJson } from '../support/pronto-pago';
import { rowCount } from '../support/test-database';

// Input PostgreSQL cannot store or Fastify rejects on its own: each must be a Spanish 400, never a 500.
describe('bad input on any route', () => {
  let ctx: ApiTestContext;
  const demoRequests = () => rowCount(ctx.database.db, 'demo_requests');

  beforeAll(async () => {
    ctx = await createApiApp();
  });
  afterAll(() => ctx.close());

  it('refuses a NUL character in a body field with a 400 naming the field, and stores nothing', async () => {
    const before = await demoRequests();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/accounts/request-demo/',
      payload: {
        first_name: 'Ana',
        last_name: 'Torres',
        phone: '5598765432',
        email: 'ana.torres@example.mx',
        company: 'Maquiladora\u0000 Norte',
      },
    });
    expect(res.statusCode).toBe(400);
    // The public form's own shape, which its client reads (spec §8: the first message of each `errors` entry).
    expect(res.json()).toEqual({ errors: { company: ['Valor no válido'] } });
    expect(await demoRequests()).toBe(before);

    const newsletter = await ctx.app.inject({
      method: 'POST',
      url: '/api/newsletter/',
      payload: { email: 'a\u0000@example.mx' },
    });
    expect(newsletter.statusCode).toBe(400);
    expect(newsletter.json()).toEqual({ errors: { email: ['Debe ser un correo valido'] } });
    const htmlForm = await ctx.app.inject({
      method: 'POST',
      url: '/api/newsletter/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a%00%40example.mx&origen=%2Fcompradores%2F',
    });
    expect(htmlForm.statusCode).toBe(303);
    expect(htmlForm.headers.location).toBe('/compradores/?boletin=error#boletin');
  });

  it('refuses a NUL character in a query parameter', async () => {
    const provider = await sessionFor(ctx.app, 'proveedor.demo');
    const res = await getJson(ctx.app, '/api/providers/alliances/?search=abc%00def', provider);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ search: ['Valor no válido'] });
  });

  it('answers an empty JSON body or another Fastify refusal in Spanish', async () => {
    const empty = await ctx.app.inject({
      method: 'POST',
      url: '/api/accounts/login/',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ detail: 'El cuerpo de la solicitud está vacío.' });

    const badUrl = await ctx.app.inject({ method: 'GET', url: '/api/providers/%zz/' });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json()).toEqual({ detail: 'La solicitud no es válida.' });
  });
});
