import Fastify from 'fastify';
import { integer } from 'superstruct';
import { afterEach, describe, expect, it } from 'vitest';
import {
  IdParams,
  MAX_PAGE,
  pageNumber,
  pageSize,
  pathId,
  payload,
  queryChoice,
  requiredText,
} from '../../src/domain/schemas/fields';
import { FieldErrors, registerErrorHandling } from './errors';
import { registerRequestValidation } from './request-validation';

const Body = payload({ name: requiredText(), count: integer() });

async function appWithRoute(config: Record<string, unknown> = {}) {
  const app = Fastify();
  registerErrorHandling(app);
  registerRequestValidation(app);
  const seen: unknown[] = [];
  app.post(
    '/api/thing/',
    {
      // A route's own preHandler (e.g. requireUser) answers before the body is looked at.
      preHandler: async (request) => {
        if (request.headers.authorization !== 'ok')
          throw Object.assign(new Error('Sin sesión'), { statusCode: 401 });
      },
      config: { openapi: { summary: 'A thing', description: 'Una cosa.', body: Body }, ...config },
    },
    async (request) => {
      seen.push(request.body);
      return { ok: true };
    },
  );
  app.post(
    '/api/raw/',
    { config: { openapi: { summary: 'Raw', description: 'Crudo.', body: { type: 'object' } } } },
    async (request) => {
      seen.push(request.body);
      return { ok: true };
    },
  );
  await app.ready();
  return { app, seen };
}

describe('registerRequestValidation', () => {
  let close: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await close?.();
    close = null;
  });

  const post = async (
    app: Awaited<ReturnType<typeof appWithRoute>>['app'],
    url: string,
    body: unknown,
    auth = 'ok',
  ) => app.inject({ method: 'POST', url, payload: body as object, headers: { authorization: auth } });

  it('hands the handler the clean value: trimmed, unknown fields stripped', async () => {
    const { app, seen } = await appWithRoute();
    close = () => app.close();
    const res = await post(app, '/api/thing/', { name: '  Ana ', count: 2, extra: 'x' });
    expect(res.statusCode).toBe(200);
    expect(seen).toEqual([{ name: 'Ana', count: 2 }]);
  });

  it('answers 400 with Spanish messages per field and never runs the handler', async () => {
    const { app, seen } = await appWithRoute();
    close = () => app.close();
    const res = await post(app, '/api/thing/', { name: ' ', count: 'dos' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ name: ['Este campo es obligatorio'], count: ['Valor no válido'] });
    expect((await post(app, '/api/thing/', {})).json()).toEqual({
      name: ['Este campo es obligatorio'],
      count: ['Este campo es obligatorio'],
    });
    expect(seen).toEqual([]);
  });

  it("runs after the route's own preHandlers: no session is a 401 whatever the body", async () => {
    const { app } = await appWithRoute();
    close = () => app.close();
    expect((await post(app, '/api/thing/', {}, 'no')).statusCode).toBe(401);
  });

  it("lets a route present the struct's messages in its own shape", async () => {
    const { app } = await appWithRoute({
      invalidBody: (errors: Record<string, string[]>) => {
        throw new FieldErrors(errors, 'errors');
      },
    });
    close = () => app.close();
    const res = await post(app, '/api/thing/', { name: 'Ana' });
    expect(res.json()).toEqual({ errors: { count: ['Este campo es obligatorio'] } });
  });

  it('leaves alone a route that documents a JSON Schema (it parses its body by hand)', async () => {
    const { app, seen } = await appWithRoute();
    close = () => app.close();
    expect((await post(app, '/api/raw/', { anything: 1 })).statusCode).toBe(200);
    expect(seen).toEqual([{ anything: 1 }]);
  });
});

describe('path and query structs', () => {
  const Query = payload({ page: pageNumber(), size: pageSize(50, 10), state: queryChoice(['a', 'b']) });

  async function appWithList() {
    const app = Fastify();
    registerErrorHandling(app);
    registerRequestValidation(app);
    const seen: unknown[] = [];
    app.get(
      '/api/things/:id/docs/:doc/',
      {
        config: {
          openapi: {
            summary: 'A doc',
            description: 'Un documento.',
            paramsStruct: payload({ id: pathId(), doc: pathId() }),
            paramsNotFound: { id: 'No existe la cosa.', doc: 'No existe el documento.' },
            queryStruct: Query,
          },
        },
      },
      async (request) => {
        seen.push({ params: request.params, query: request.query, sent: request.sentParams });
        return { ok: true };
      },
    );
    app.get(
      '/api/plain/:id/',
      { config: { openapi: { summary: 'Plain', description: 'Simple.', paramsStruct: IdParams } } },
      async (request) => request.params,
    );
    await app.ready();
    return { app, seen };
  }

  it('hands the handler numbers and defaults, and keeps the params as sent', async () => {
    const { app, seen } = await appWithList();
    const res = await app.inject({ method: 'GET', url: '/api/things/7/docs/9/?page=%202%20&other=x' });
    expect(res.statusCode).toBe(200);
    expect(seen).toEqual([
      {
        params: { id: 7, doc: 9 },
        query: { page: 2, size: 10, state: null },
        sent: { id: '7', doc: '9' },
      },
    ]);
    await app.close();
  });

  it("answers a path id no row can have with the route's 404, naming the first refused parameter", async () => {
    const { app } = await appWithList();
    for (const [url, detail] of [
      ['/api/things/0/docs/1/', 'No existe la cosa.'],
      ['/api/things/2147483648/docs/1/', 'No existe la cosa.'],
      ['/api/things/1/docs/01/', 'No existe el documento.'],
      ['/api/things/x/docs/y/', 'No existe la cosa.'],
    ] as const) {
      const res = await app.inject({ method: 'GET', url });
      expect([res.statusCode, res.json()], url).toEqual([404, { detail }]);
    }
    // Without a 404 of its own, a route answers 400 per field like a body.
    const plain = await app.inject({ method: 'GET', url: '/api/plain/abc/' });
    expect([plain.statusCode, plain.json()]).toEqual([400, { id: ['Valor no válido'] }]);
    await app.close();
  });

  it('answers a bad query with the same Spanish 400 per field as a body', async () => {
    const { app, seen } = await appWithList();
    const res = await app.inject({
      method: 'GET',
      url: `/api/things/1/docs/1/?page=${MAX_PAGE + 1}&size=51&state=c`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      page: ['Valor no válido'],
      size: ['Valor no válido'],
      state: ['Valor no válido'],
    });
    expect(seen).toEqual([]);
    await app.close();
  });
});
