import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CORPORATE, DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { formatMoneyAmount, MAX_MONEY_INPUT } from '../../src/domain/money';
import { OPERATOR_ROLES } from '../../src/domain/operator-roles';
import { bearer, type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp, testConfig } from '../support/api-app';
import {
  type DocumentedOperation,
  documentedOperations,
  fillPath,
  type OpenApiDocument,
  type Parameter,
  resolveSchema,
  type Schema,
  servedDocument,
  spanishErrorProblem,
} from '../support/openapi';
import { createOperatorSession } from '../support/operator';

/**
 * Schema-driven fuzzing of every documented operation, for each role, with fast-check: requests that follow the
 * OpenAPI document and hostile ones (wrong types, huge or odd strings, nulls, extra and missing fields, deep
 * nesting, garbage ids), and conforming values at the edges of each numeric and date field (maxima, one past
 * them, zero, negatives, int4 and safe-integer limits, the first and last calendar days). Every answer must be
 * below 500, every 4xx a JSON body with a Spanish message, and the server healthy at the end. The seed is
 * printed; FUZZ_SEED=<n> replays a run.
 */

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
// Requests per operation and role; an anonymous call of a protected operation is always the same 401, so fewer.
const RUNS = 115;
const RUNS_ANONYMOUS_ON_PROTECTED = 40;
// A call without a session answers the same whoever's token comes along; the signed-in roles try it less.
const RUNS_SIGNED_IN_ON_PUBLIC = 30;
const RUNS_ANONYMOUS_ON_PUBLIC = 85;
// Calls with no parameters and no body (health, the template, this document) have only headers to vary.
const RUNS_WITHOUT_INPUT = 15;
const MIN_REQUESTS = 10_000;
// An operator holding every role reaches the back office; elsewhere it is refused like any stranger, so fewer.
const RUNS_OPERATOR = 60;
const RUNS_OPERATOR_ELSEWHERE = 10;

type Role = 'anonymous' | 'provider' | 'corporate' | 'operator';
const ROLES: readonly Role[] = ['anonymous', 'provider', 'corporate', 'operator'];

interface FuzzRequest {
  pathValues: Record<string, string>;
  rawPath: boolean;
  query: [string, string][];
  headers: Record<string, string>;
  payload?: string | Buffer;
}

/** What the generators draw real values from: ids and RFCs of the demo world (the caller's and others'). */
interface Pools {
  ids: number[];
  /** Companies' ids, for the fields that name one (corporate_id). */
  companyIds: number[];
  rfcs: string[];
}

const MAX_DEPTH = 4;
const PRINTABLE = fc.constantFrom(
  ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).filter((c) => c !== '\u007f'),
);

function seedFor(index: number): number {
  // A different, reproducible stream per operation and role.
  return (SEED ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;
}

const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

// The calendar's ends and the days around today: valid dates a date field must answer below 500.
const isoDate = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -400, max: 400 }).map(dayFromToday) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '9999-12-31',
      '0001-01-01',
      '1970-01-01',
      '2000-02-29',
      dayFromToday(0),
      dayFromToday(1),
      dayFromToday(-1),
    ),
  },
);

const INT4_MAX = 2 ** 31 - 1;

/** Integers at the edges: zero, −1, the int4 column's last value and one past it, the last safe integer. */
function integerEdges(schema: Schema): number[] {
  const edges = [0, -1, 1, INT4_MAX, INT4_MAX + 1, -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER];
  for (const bound of [schema.minimum, schema.maximum]) {
    if (typeof bound === 'number') edges.push(bound - 1, bound, bound + 1);
  }
  return edges;
}

// Money at its edges: Flujo's bound and a centavo past it, the last amount in safe-integer centavos and one
// past it, numeric(18,2)'s maximum and one past it; zero, a centavo, negatives.
const MONEY_EDGES = [
  formatMoneyAmount(MAX_MONEY_INPUT),
  formatMoneyAmount(MAX_MONEY_INPUT + 1),
  formatMoneyAmount(Number.MAX_SAFE_INTEGER),
  '90071992547409.92',
  '999999999999999.99',
  '9999999999999999.99',
  '10000000000000000.00',
  '0',
  '0.00',
  '0.01',
  '-1',
  '-0.01',
  '-1.00',
];

/**
 * The edges of a numeric pattern (e.g. ^-?\d{1,16}\.\d{2}$): the longest run of nines each bounded digit group
 * allows and one digit more, with and without decimals, and the money edges above.
 */
function numericPatternEdges(pattern: string): string[] {
  const widths = [...pattern.matchAll(/\\d\{(?:\d+,)?(\d+)\}/g)].map((match) => Number(match[1]));
  const nines = widths.flatMap((width) => ['9'.repeat(width), '9'.repeat(width + 1)]);
  return [...nines, ...nines.map((digits) => `${digits}.99`), ...MONEY_EDGES];
}

/** True for a pattern of numbers: it takes an integer or a two-decimal amount. */
function isNumericPattern(pattern: RegExp): boolean {
  return ['1', '1.00', '15', '15.50'].some((text) => pattern.test(text)) && !pattern.test('a');
}

const hugeString = fc
  .tuple(
    fc.constantFrom('x', 'ñ', '🦄', '\u202e', 'ab\u0000', '\ud800'),
    fc.integer({ min: 1_000, max: 20_000 }),
  )
  .map(([unit, times]) => unit.repeat(times));

const oddStrings = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  '\ud800',
  '\udfff',
  '🦄',
  'Ñandú ü ß 中文 العربية',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '%00',
  '../../etc/passwd',
  '1e309',
  '-0',
  'NaN',
  'Infinity',
  'null',
  'true',
  '[]',
  '{}',
  '9'.repeat(400),
  '2026-02-30',
  '0000-00-00',
  '9999-12-31',
  '-1',
  '0x10',
  '1.5',
);

const bigNumbers = fc.constantFrom(
  0,
  -1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 2,
  1e21,
  -1e308,
  1e308,
  0.1,
  -0.000001,
  Number.MAX_SAFE_INTEGER,
);

function nested(depth: number, leaf: unknown, asArray: boolean): unknown {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
  return value;
}

/** A value of any wrong kind for a field. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  bigNumbers,
  fc.string({ unit: 'binary', maxLength: 40 }),
  oddStrings,
  hugeString,
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  fc
    .tuple(fc.integer({ min: 20, max: 300 }), fc.boolean())
    .map(([depth, asArray]) => nested(depth, 1, asArray)),
);

function idArbitrary(pools: Pools, schema: Schema, name: string): fc.Arbitrary<number> {
  const real = /corporate|company|provider/.test(name) ? pools.companyIds : pools.ids;
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...real) },
    { weight: 1, arbitrary: fc.integer({ min: -3, max: 100_000 }) },
    { weight: 1, arbitrary: fc.constantFrom(...integerEdges(schema)) },
  );
}

function stringArbitrary(schema: Schema, name: string, pools: Pools): fc.Arbitrary<unknown> {
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.format === 'date') return isoDate;
  if (/rfc/i.test(name)) return fc.oneof(fc.constantFrom(...pools.rfcs), fc.string({ maxLength: 14 }));
  if (typeof schema.pattern === 'string') {
    let pattern: RegExp | null = null;
    try {
      pattern = new RegExp(schema.pattern);
    } catch {
      // A pattern JavaScript cannot read: any string.
    }
    if (pattern) {
      const matching = fc.stringMatching(pattern).filter((text) => text.length <= 60);
      if (!isNumericPattern(pattern)) return matching;
      return fc.oneof(
        { weight: 1, arbitrary: matching },
        { weight: 1, arbitrary: fc.constantFrom(...numericPatternEdges(schema.pattern)) },
      );
    }
  }
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = Math.max(
    minLength,
    Math.min(typeof schema.maxLength === 'number' ? schema.maxLength : 40, 40),
  );
  return fc.string({ minLength, maxLength });
}

/** A value the schema accepts (as far as JSON Schema says; the structs' refinements may still refuse it). */
function conforming(
  document: OpenApiDocument,
  raw: Schema,
  pools: Pools,
  name = '',
  depth = 0,
): fc.Arbitrary<unknown> {
  const schema = resolveSchema(document, raw);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  if ('const' in schema) return fc.constant(schema.const);
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length > 0) {
    return fc.oneof(...alternatives.map((option) => conforming(document, option, pools, name, depth)));
  }
  const types = [schema.type].flat().filter((type): type is string => typeof type === 'string');
  if (types.length > 1) {
    return fc.oneof(...types.map((type) => conforming(document, { ...schema, type }, pools, name, depth)));
  }
  switch (types[0]) {
    case 'string':
      return stringArbitrary(schema, name, pools);
    case 'integer':
      return /(^|_)ids?$|^id_/.test(name)
        ? idArbitrary(pools, schema, name)
        : fc.oneof(
            { weight: 3, arbitrary: fc.integer({ min: -5, max: 5_000 }) },
            { weight: 1, arbitrary: fc.constantFrom(...integerEdges(schema)) },
          );
    case 'number':
      return fc.oneof(
        { weight: 2, arbitrary: fc.integer({ min: 0, max: 100_000 }) },
        { weight: 2, arbitrary: fc.double({ min: 0, max: 1e6, noNaN: true }) },
        { weight: 1, arbitrary: fc.constantFrom(...integerEdges(schema), 0.001, 1e21, -0.01) },
      );
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = (schema.items as Schema | undefined) ?? {};
      // Batch bodies of ids: the caller's and others' invoices.
      const itemName = name.replace(/s$/, '');
      return depth > MAX_DEPTH
        ? fc.constant([])
        : fc.array(conforming(document, items, pools, itemName, depth + 1), {
            minLength: typeof schema.minItems === 'number' ? schema.minItems : 0,
            maxLength: 4,
          });
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = ((schema.required as string[] | undefined) ?? []).filter((key) => key in properties);
      if (depth > MAX_DEPTH || Object.keys(properties).length === 0) {
        return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
      }
      const model = Object.fromEntries(
        Object.entries(properties).map(([key, child]) => [
          key,
          conforming(document, child, pools, key, depth + 1),
        ]),
      );
      return fc.record(model, { requiredKeys: required });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A conforming body bent one way: a field of the wrong kind, a required field missing, extra fields. */
function mutated(document: OpenApiDocument, schema: Schema, pools: Pools): fc.Arbitrary<unknown> {
  const resolved = resolveSchema(document, schema);
  return fc
    .tuple(
      conforming(document, resolved, pools),
      fc.nat(),
      hostileValue,
      fc.constantFrom('wrong', 'missing', 'extra'),
    )
    .map(([value, pick, hostile, how]) => {
      const target = Array.isArray(value) ? value[0] : value;
      if (typeof target !== 'object' || target === null) return hostile;
      const record = target as Record<string, unknown>;
      const keys = Object.keys(record);
      const key = keys.length > 0 ? keys[pick % keys.length]! : 'campo';
      if (how === 'wrong') record[key] = hostile;
      else if (how === 'missing') delete record[key];
      else Object.assign(record, { extra: hostile, ['__proto__']: { admin: true }, constructor: hostile });
      return value;
    });
}

/** Bodies no schema allows, as raw text: broken JSON, other top-level types, deep nesting, oversized. */
const rawHostileJson: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '',
      '{',
      '{"a":',
      'null',
      '[]',
      '0',
      '"texto"',
      'true',
      '{"__proto__":{"x":1}}',
      '[1,2,3]',
    ),
  },
  {
    weight: 2,
    arbitrary: fc
      .integer({ min: 500, max: 20_000 })
      .map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  },
  {
    weight: 2,
    arbitrary: fc
      .integer({ min: 500, max: 20_000 })
      .map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  },
  // Past the 1 MB body limit.
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1_100_000, max: 1_300_000 }).map((size) => `{"a":"${'x'.repeat(size)}"}`),
  },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
);

function queryArbitrary(
  document: OpenApiDocument,
  parameters: Parameter[],
  pools: Pools,
): fc.Arbitrary<[string, string][]> {
  const toText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
  const perParameter = parameters.map(
    (parameter) =>
      fc.oneof(
        {
          weight: 3,
          arbitrary: conforming(document, parameter.schema, pools, parameter.name).map((v) => [
            [parameter.name, toText(v)],
          ]),
        },
        { weight: 2, arbitrary: fc.constant([]) },
        { weight: 2, arbitrary: hostileValue.map((v) => [[parameter.name, toText(v).slice(0, 5_000)]]) },
        // The same parameter twice (Fastify then gives the route an array).
        {
          weight: 1,
          arbitrary: fc.tuple(fc.string(), fc.string()).map(([a, b]) => [
            [parameter.name, a],
            [parameter.name, b],
          ]),
        },
      ) as fc.Arbitrary<[string, string][]>,
  );
  const unknown = fc.array(
    fc.tuple(fc.string({ minLength: 1, maxLength: 10 }), fc.string({ maxLength: 20 })),
    {
      maxLength: 2,
    },
  );
  return fc.tuple(fc.tuple(...perParameter), unknown).map(([known, extra]) => [...known.flat(), ...extra]);
}

function pathValueArbitrary(pools: Pools): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...pools.ids).map(String) },
    { weight: 1, arbitrary: oddStrings },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
    { weight: 1, arbitrary: fc.integer({ min: -10, max: 10_000_000 }).map(String) },
  );
}

const idempotencyKey: fc.Arbitrary<Record<string, string>> = fc.oneof(
  fc.constant({}),
  fc.uuid().map((key) => ({ 'idempotency-key': key })),
  fc.string({ unit: PRINTABLE, minLength: 0, maxLength: 600 }).map((key) => ({ 'idempotency-key': key })),
);

/** A bad Authorization header for anonymous calls, now and then. */
const badAuthorization: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom('Bearer ', 'Basic ', 'bearer ', ''),
        fc.string({ unit: PRINTABLE, maxLength: 300 }),
      )
      .map(([scheme, token]) => ({ authorization: `${scheme}${token}` })),
  },
);

function multipart(
  parts: { name: string; filename?: string; type?: string; content: string }[],
  boundary = 'fuzzlimite',
) {
  const body = parts
    .map(
      (part) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}\r\n` +
        `${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n${part.content}\r\n`,
    )
    .join('');
  return Buffer.from(`${body}--${boundary}--\r\n`);
}

/** A few hostile uploads for a multipart operation: no parsing of real files, just what a script could send. */
const HOSTILE_UPLOADS: { headers: Record<string, string>; payload: string | Buffer }[] = [
  { headers: { 'content-type': 'application/json' }, payload: '{"file":"nada"}' },
  { headers: { 'content-type': 'multipart/form-data' }, payload: 'sin límite' },
  {
    headers: { 'content-type': 'multipart/form-data; boundary=fuzzlimite' },
    payload: Buffer.from('--fuzzlimite--\r\n'),
  },
  {
    headers: { 'content-type': 'multipart/form-data; boundary=fuzzlimite' },
    payload: multipart([
      { name: 'file', filename: 'facturas.zip', type: 'application/zip', content: 'PK\u0003\u0004basura' },
    ]),
  },
  {
    headers: { 'content-type': 'multipart/form-data; boundary=fuzzlimite' },
    payload: multipart([
      {
        name: 'file',
        filename: 'plantilla.xlsx',
        type: 'application/octet-stream',
        content: '\u0000'.repeat(100),
      },
    ]),
  },
  {
    headers: { 'content-type': 'multipart/form-data; boundary=fuzzlimite' },
    payload: multipart([
      { name: 'otro', content: 'valor' },
      { name: 'payment_date', content: '2026-99-99' },
    ]),
  },
  {
    headers: { 'content-type': 'multipart/form-data; boundary=fuzzlimite' },
    payload: Buffer.from(
      '--fuzzlimite\r\nContent-Disposition: form-data; name="file"; filename="x.zip"\r\n\r\nPK',
    ),
  },
];

function requestArbitrary(document: OpenApiDocument, entry: DocumentedOperation, role: Role, pools: Pools) {
  const parameters = entry.operation.parameters ?? [];
  const pathNames = parameters.filter((p) => p.in === 'path').map((p) => p.name);
  const queryParameters = parameters.filter((p) => p.in === 'query');
  const idempotent = parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key');
  const content = entry.operation.requestBody?.content ?? {};
  const jsonSchema = content['application/json']?.schema;
  const formSchema = content['application/x-www-form-urlencoded']?.schema;

  const pathValues = fc
    .tuple(...pathNames.map(() => pathValueArbitrary(pools)))
    .map((values) => Object.fromEntries(values.map((value, i) => [pathNames[i]!, value])));
  const json = (value: unknown) => JSON.stringify(value) ?? 'null';
  const body: fc.Arbitrary<{ payload?: string; contentType?: string }> = jsonSchema
    ? fc.oneof(
        { weight: 4, arbitrary: conforming(document, jsonSchema, pools).map((v) => ({ payload: json(v) })) },
        { weight: 4, arbitrary: mutated(document, jsonSchema, pools).map((v) => ({ payload: json(v) })) },
        { weight: 2, arbitrary: rawHostileJson.map((payload) => ({ payload })) },
        {
          weight: formSchema ? 2 : 0,
          arbitrary: fc
            .tuple(
              conforming(document, formSchema ?? {}, pools),
              fc.string({ unit: 'binary', maxLength: 80 }),
            )
            .map(([value, garbage]) => ({
              payload:
                typeof value === 'object' && value !== null
                  ? new URLSearchParams(
                      Object.entries(value).map(([k, v]) => [k, typeof v === 'string' ? v : json(v)]),
                    ).toString()
                  : garbage,
              contentType: 'application/x-www-form-urlencoded',
            })),
        },
        // A JSON body in a media type the route does not take.
        { weight: 1, arbitrary: fc.constant({ payload: '{}', contentType: 'text/plain' }) },
      )
    : // Calls without a body sometimes get one anyway.
      fc.oneof(
        { weight: 4, arbitrary: fc.constant<{ payload?: string; contentType?: string }>({}) },
        { weight: 1, arbitrary: rawHostileJson.map((payload) => ({ payload })) },
      );

  return fc
    .record({
      pathValues,
      // Now and then the path value goes in unencoded (a '/', '%zz' or a space in the URL itself).
      rawPath: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
      query: queryArbitrary(document, queryParameters, pools),
      key: idempotent ? idempotencyKey : fc.constant({}),
      auth: role === 'anonymous' ? badAuthorization : fc.constant({}),
      body: entry.method === 'GET' ? fc.constant<{ payload?: string; contentType?: string }>({}) : body,
    })
    .map(
      ({ pathValues: values, rawPath, query, key, auth, body: { payload, contentType } }): FuzzRequest => ({
        pathValues: values,
        rawPath,
        query,
        headers: {
          ...key,
          ...auth,
          ...(payload !== undefined ? { 'content-type': contentType ?? 'application/json' } : {}),
        },
        payload,
      }),
    );
}

describe('schema-driven fuzzing of /api/openapi.json', () => {
  let ctx: ApiTestContext;
  let document: OpenApiDocument;
  let pools: Pools;
  const sessions: Partial<Record<Role, Session>> = {};
  const serverErrors: string[] = [];

  beforeAll(async () => {
    // Sessions outlive the run on a slow machine.
    ctx = await createApiApp({
      config: testConfig({ ACCESS_TOKEN_MINUTES: '60' }),
      // The errors behind a 500, for the report (the app logs them as 'unhandled error').
      logger: {
        level: 'error',
        stream: {
          write: (line: string) => {
            const entry = JSON.parse(line) as { err?: { message?: string; stack?: string } };
            serverErrors.push(entry.err?.stack?.split('\n').slice(0, 4).join(' | ') ?? line);
          },
        },
      },
    });
    document = await servedDocument(ctx.app);
    sessions.provider = await sessionFor(ctx.app, 'proveedor.demo');
    sessions.corporate = await sessionFor(ctx.app, 'corporativo.demo');
    sessions.operator = await createOperatorSession(ctx, { roles: OPERATOR_ROLES });
    const db = ctx.database.db;
    const ids = [
      ...(await db.selectFrom('invoices').select('id').execute()).map((row) => row.id),
      ...(await db.selectFrom('factoring_requests').select('id').execute()).map((row) => row.id),
      ...(await db.selectFrom('quotations').select('id').execute()).map((row) => row.id),
    ];
    const companyIds = (await db.selectFrom('companies').select('id').execute()).map((row) => row.id);
    pools = {
      ids: ids.length > 0 ? [...new Set(ids)] : [1],
      companyIds: companyIds.length > 0 ? companyIds : [1],
      rfcs: [DEMO_CORPORATE.rfc, ...DEMO_PROVIDERS.map((provider) => provider.rfc), 'XAXX010101000'],
    };
  });
  afterAll(() => ctx.close());

  it('answers every generated request below 500, each 4xx with a Spanish JSON message, and stays healthy', async () => {
    const started = performance.now();
    const statuses = new Map<number, number>();
    const problems: string[] = [];
    let total = 0;

    const send = async (entry: DocumentedOperation, role: Role, options: InjectOptions, label: string) => {
      const session = sessions[role];
      let res: LightMyRequestResponse;
      try {
        res = await ctx.app.inject({
          ...options,
          headers: { ...(options.headers as Record<string, string>), ...(session ? bearer(session) : {}) },
        });
      } catch (error) {
        problems.push(`${role} ${entry.method} ${label}: inject threw ${String(error)}`);
        return;
      }
      total += 1;
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode >= 500) {
        const cause = serverErrors.at(-1) ?? res.body.slice(0, 300);
        // First in the report: a 5xx matters more than a wording problem.
        problems.unshift(`${res.statusCode} ${role} ${entry.method} ${label}: ${cause}`);
      } else if (res.statusCode >= 400) {
        const problem = spanishErrorProblem(res);
        if (problem) problems.push(`${res.statusCode} ${role} ${entry.method} ${label}: ${problem}`);
      }
    };

    const entries = documentedOperations(document);
    const secondsPerOperation = new Map<string, number>();
    let index = 0;
    for (const entry of entries) {
      const operationStarted = performance.now();
      const isUpload = Object.keys(entry.operation.requestBody?.content ?? {}).some((type) =>
        type.startsWith('multipart/'),
      );
      for (const role of ROLES) {
        index += 1;
        if (isUpload) {
          for (const upload of HOSTILE_UPLOADS) {
            await send(entry, role, { method: entry.method, url: entry.path, ...upload }, entry.path);
          }
          continue;
        }
        const hasInput =
          (entry.operation.parameters ?? []).length > 0 || entry.operation.requestBody !== undefined;
        const secured = entry.operation.security !== undefined;
        const runs = !hasInput
          ? RUNS_WITHOUT_INPUT
          : secured
            ? role === 'anonymous'
              ? RUNS_ANONYMOUS_ON_PROTECTED
              : role === 'operator'
                ? entry.path.startsWith('/api/operator/')
                  ? RUNS_OPERATOR
                  : RUNS_OPERATOR_ELSEWHERE
                : RUNS
            : role === 'anonymous'
              ? RUNS_ANONYMOUS_ON_PUBLIC
              : role === 'operator'
                ? RUNS_OPERATOR_ELSEWHERE
                : RUNS_SIGNED_IN_ON_PUBLIC;
        const requests = fc.sample(requestArbitrary(document, entry, role, pools), {
          seed: seedFor(index),
          numRuns: runs,
        });
        for (const request of requests) {
          const path = fillPath(entry.path, request.pathValues, request.rawPath);
          const search = new URLSearchParams(request.query).toString();
          const url = search ? `${path}?${search}` : path;
          await send(
            entry,
            role,
            { method: entry.method, url, headers: request.headers, payload: request.payload },
            url.slice(0, 200),
          );
        }
      }
      secondsPerOperation.set(`${entry.method} ${entry.path}`, (performance.now() - operationStarted) / 1000);
    }

    const health = await ctx.app.inject({ method: 'GET', url: '/api/health/' });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const table = [...statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `  ${status}: ${count}`)
      .join('\n');
    const slowest = [...secondsPerOperation.entries()]
      .sort(([, a], [, b]) => b - a)
      .slice(0, 8)
      .map(([operation, time]) => `  ${operation}: ${time.toFixed(1)} s`)
      .join('\n');
    console.log(
      `openapi fuzz: seed ${SEED} (replay with FUZZ_SEED=${SEED}), ${entries.length} operations × ${ROLES.length} roles, ` +
        `${total} requests in ${seconds} s\nstatuses:\n${table}\nslowest operations:\n${slowest}`,
    );
    expect(problems.slice(0, 30), `seed ${SEED}: ${problems.length} problems`).toEqual([]);
    expect(total).toBeGreaterThanOrEqual(MIN_REQUESTS);
    expect(health.statusCode).toBe(200);
  }, 600_000);
});
