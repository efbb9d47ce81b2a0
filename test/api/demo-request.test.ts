import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE_MESSAGE } from '../../src/domain/phone';
import { MAX_LENGTH, tooLongMessage } from '../../src/domain/schemas/fields';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { rowCount } from '../support/test-database';

const VALID = {
  first_name: 'Ana',
  last_name: 'Torres',
  phone: '5598765432',
  email: 'ana.torres@example.mx',
  company: 'Maquiladora Norte',
};

describe('POST /api/accounts/request-demo/', () => {
  let ctx: ApiTestContext;
  const count = () => rowCount(ctx.database.db, 'demo_requests');

  beforeAll(async () => {
    ctx = await createApiApp();
  });
  afterAll(() => ctx.close());

  it('stores a valid request and answers with the spec message', async () => {
    const before = await count();
    const res = await ctx.app.inject({ method: 'POST', url: '/api/accounts/request-demo/', payload: VALID });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: 'Solicitud enviada con éxito' });
    expect(await count()).toBe(before + 1);
    const row = await ctx.database.db
      .selectFrom('demo_requests')
      .selectAll()
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ ...VALID, source: 'solicitar-demo' });
  });

  it('records the alliances page as the source when it says so', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/accounts/request-demo/?source=alianzas-corporativas',
      payload: VALID,
    });
    expect(res.statusCode).toBe(201);
    const row = await ctx.database.db
      .selectFrom('demo_requests')
      .select('source')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.source).toBe('alianzas-corporativas');
  });

  it('rejects missing fields and a bad e-mail with Spanish messages per field, writing nothing', async () => {
    const before = await count();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/accounts/request-demo/',
      payload: { ...VALID, email: 'no-es-correo', company: '   ', phone: undefined },
    });
    expect(res.statusCode).toBe(400);
    const { errors } = res.json();
    expect(errors.email).toEqual(['Debe ser un correo valido']);
    expect(errors.company).toEqual(['Este campo es obligatorio']);
    expect(errors.phone).toEqual(['Este campo es obligatorio']);
    expect(await count()).toBe(before);
  });

  it("refuses a phone that is not 10 digits with the form's message (issue 33), writing nothing", async () => {
    const before = await count();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/accounts/request-demo/',
      payload: { ...VALID, phone: '55-ABC' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.phone).toEqual([PHONE_MESSAGE]);
    expect(await count()).toBe(before);
  });

  it("refuses a company over 150 characters at its field with the form's own message, writing nothing", async () => {
    const before = await count();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/accounts/request-demo/',
      payload: { ...VALID, company: 'Maquiladora '.repeat(42) },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ company: [tooLongMessage(MAX_LENGTH.demoCompany)] });
    expect(tooLongMessage(MAX_LENGTH.demoCompany)).toBe(
      'Asegúrate de que este campo no tenga más de 150 caracteres.',
    );
    expect(await count()).toBe(before);
  });

  it.each([
    ['an array', '[]'],
    ['null', 'null'],
    ['a number', '42'],
    ['broken JSON', '{"first_name":'],
  ])('answers 400, never 500, for %s', async (_name, payload) => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/accounts/request-demo/',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode).toBe(400);
  });
});
