import type { FastifyInstance, HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignUpRequest } from '../../src/domain/schemas/session';
import { type ApiTestContext, createApiApp } from '../support/api-app';

interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters?: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
  security?: unknown[];
}
type Schema = {
  type?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  [keyword: string]: unknown;
};
interface Document {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
}

const TREE_LINE = /^((?:[│ ] {3})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/;

/**
 * Every route the app registers, read from Fastify's own route tree (printRoutes), not from the hook that
 * builds the document: 'GET /api/invoices/:id/events/'. HEAD routes Fastify adds for each GET are left out.
 */
function registeredRoutes(app: FastifyInstance): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = TREE_LINE.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    const path = `${stack.join('')}${match[2]}`;
    stack.push(match[2] ?? '');
    for (const method of (match[3] ?? '').split(', ').filter((m) => m !== '' && m !== 'HEAD')) {
      routes.push(`${method} ${path}`);
    }
  }
  return routes;
}

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const toFastifyPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

function operations(document: Document): [string, string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(
      ([method, operation]) => [method.toUpperCase(), path, operation] as [string, string, Operation],
    ),
  );
}

describe('GET /api/openapi.json', () => {
  let ctx: ApiTestContext;
  let document: Document;
  beforeAll(async () => {
    ctx = await createApiApp();
    const res = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    document = res.json();
  });
  afterAll(() => ctx.close());

  it('is an OpenAPI 3.1 document of both services', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBe('Flujo API');
    const tags = new Set(operations(document).flatMap(([, , op]) => op.tags));
    expect(tags).toEqual(new Set(['invoices', 'accounts']));
  });

  it('documents every route the server registers, with an English summary and a Spanish description', () => {
    const routes = registeredRoutes(ctx.app).filter((route) => route.split(' ')[1]?.startsWith('/api/'));
    // The tree parser must really see the routes: a few known ones, including nested and parameterised paths.
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /api/health/',
        'POST /api/accounts/login/',
        'PUT /api/accounts/profile/',
        'POST /api/providers/advanced-invoices/download/',
        'GET /api/providers/forward-payment/:id/',
        'GET /api/invoices/:id/events/',
        'POST /api/corporates/manually-requests/reject/',
      ]),
    );
    expect(routes.length).toBeGreaterThanOrEqual(25);
    const missing = routes.filter((route) => {
      const [method = '', path = ''] = route.split(' ');
      const item = document.paths[toOpenApiPath(path)] ?? document.paths[`${toOpenApiPath(path)}/`];
      const operation = item?.[method.toLowerCase()];
      return !operation?.summary || !operation.description;
    });
    expect(missing).toEqual([]);
  });

  it('documents nothing the server does not answer', () => {
    for (const [method, path] of operations(document)) {
      expect(
        ctx.app.hasRoute({ method: method as HTTPMethods, url: toFastifyPath(path) }),
        `${method} ${path}`,
      ).toBe(true);
    }
    const ids = operations(document).map(([, , op]) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('marks exactly the calls that need a session: they answer 401 without a token, the others never do', async () => {
    for (const [method, path, operation] of operations(document)) {
      const res = await ctx.app.inject({
        method: method as HTTPMethods,
        url: path.replace(/\{[^}]+\}/g, '1'),
        ...(method === 'GET' ? {} : { payload: {} }),
        remoteAddress: '10.99.0.1',
      });
      const secured = operation.security !== undefined;
      expect(res.statusCode === 401, `${method} ${path}: ${res.statusCode}`).toBe(secured);
      if (secured) expect(operation.responses['401']).toBeDefined();
    }
  });

  it('describes request bodies from the structs the routes validate with', () => {
    const register = document.paths['/api/accounts/register/']?.post;
    const schema = register?.requestBody?.content['application/json']?.schema;
    expect(Object.keys(schema?.properties ?? {}).sort()).toEqual(Object.keys(SignUpRequest.schema).sort());
    expect(schema?.required).not.toContain('receive_notification');
    expect(schema?.required).toContain('recaptcha_token');
    expect(schema?.properties?.email).toMatchObject({ type: 'string', format: 'email' });
    expect(register?.responses['201']).toBeDefined();

    const authorize = document.paths['/api/corporates/manually-requests/authorize/']?.post;
    const batch = authorize?.requestBody?.content['application/json']?.schema;
    expect(batch?.type).toBe('array');
    expect(batch?.items?.required).toEqual(['invoice_id', 'payment_date']);

    const download = document.paths['/api/providers/advanced-invoices/download/']?.post;
    expect(download?.requestBody?.content['application/json']?.schema.properties?.invoice_ids).toMatchObject({
      type: 'array',
    });
    expect(Object.keys(download?.responses['200']?.content ?? {})).toEqual(['application/zip']);

    // Every field of every body has a type: a new kind of field check must be taught to the converter.
    for (const [method, path, operation] of operations(document)) {
      const body = operation.requestBody?.content['application/json']?.schema;
      if (!body) continue;
      const owner = body.type === 'array' ? body.items : body;
      for (const [field, fieldSchema] of Object.entries(owner?.properties ?? {})) {
        const typed = ['type', 'enum', 'const', 'anyOf', 'oneOf'].some((keyword) => keyword in fieldSchema);
        expect(typed, `${method} ${path} ${field}`).toBe(true);
      }
    }
  });

  it('says what each indicator of the account statements means (spec §3, decision 0065)', () => {
    const spec = {
      '/api/providers/account/statement/': [
        'payment_date',
        'total_by_date',
        'has_cost_center',
        'used_credit_percentage',
      ],
      '/api/corporates/account/statement/': [
        'payment_date',
        'total_by_date',
        'has_cost_center',
        'spei_balance',
        'suppliers_customers',
      ],
    };
    for (const [path, fields] of Object.entries(spec)) {
      const page = document.paths[path]?.get?.responses['200']?.content?.['application/json']?.schema;
      const indicators = page?.properties?.indicators?.properties ?? {};
      for (const field of fields) {
        expect(indicators[field]?.description, `${path} ${field}`).toMatch(/\w{3,}/);
      }
      // Every indicator the page carries is explained, not only the spec's new ones.
      for (const [field, schema] of Object.entries(indicators)) {
        expect(schema.description, `${path} ${field}`).toEqual(expect.any(String));
      }
    }
  });

  it('names the query filters of the lists and the Idempotency-Key of the money-moving calls', () => {
    const alliances = document.paths['/api/providers/alliances/']?.get;
    expect(alliances?.parameters?.map((p) => p.name)).toEqual(
      expect.arrayContaining(['search', 'period', 'status', 'page', 'page_size']),
    );
    const idempotent = operations(document)
      .filter(([, , op]) => op.parameters?.some((p) => p.in === 'header' && p.name === 'Idempotency-Key'))
      .map(([method, path]) => `${method} ${path}`)
      .sort();
    expect(idempotent).toEqual([
      'POST /api/corporates/full-payment/qoute/',
      'POST /api/corporates/manually-requests/authorize/',
      'POST /api/corporates/manually-requests/reject/',
      'POST /api/corporates/quotes/accepted/',
      'POST /api/corporates/quotes/pre-approved/',
      'POST /api/corporates/quotes/rejected/',
      'POST /api/factoring/',
      'POST /api/operator/collections/',
      'POST /api/operator/collections/bank-statement/',
      'POST /api/operator/collections/credits/apply/',
      'POST /api/operator/collections/unidentified/{id}/approve/',
      'POST /api/operator/collections/unidentified/{id}/assign/',
      'POST /api/operator/corporates/{id}/collection-log/',
      'POST /api/operator/desk/{id}/approve/',
      'POST /api/operator/disbursements/',
      'POST /api/operator/disbursements/{id}/confirmation/',
      'POST /api/operator/exposure/caps/{id}/approve/',
      'POST /api/operator/programmes/{id}/approve/',
      'POST /api/providers/forward-payment/',
      'POST /api/providers/request-payment/',
    ]);
  });

  it('has every path parameter declared and every $ref resolvable', () => {
    for (const [method, path, operation] of operations(document)) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      expect(declared, `${method} ${path}`).toEqual(names);
    }
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)];
    expect(refs.length).toBeGreaterThan(0);
    for (const [, name] of refs) expect(document.components.schemas[name ?? '']).toBeDefined();
  });
});
