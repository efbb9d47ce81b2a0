import { readFileSync } from 'node:fs';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { OPERATOR_ROLES, type OperatorRole } from '../../src/domain/operator-roles';
import { MAX_KEY_LENGTH } from '../modules/idempotency/idempotency.service';
import { type AnyStruct, isStruct, type JsonSchema, structToJsonSchema } from './struct-schema';

/** Where the document is served (ARCHITECTURE: paths the spec does not show are documented by the server). */
export const OPENAPI_PATH = '/api/openapi.json';

/** A query-string or path parameter of a route. */
export interface ParameterDoc {
  /** Spanish. */
  description: string;
  schema?: JsonSchema;
  required?: boolean;
}

/** One 404 message for any refused path parameter, or one per parameter (the first refused one answers). */
export type ParamsNotFound = string | Readonly<Record<string, string>>;

/**
 * A route's entry in the OpenAPI document, given where the route is declared (`config: { openapi }`), so the
 * document is generated from the routes the app really registers. Method, path, path parameters and whether a
 * session is required (the `app.requireUser` preHandler) come from the route itself.
 */
export interface RouteDoc {
  /** One short line in English. */
  summary: string;
  /** One or two lines in Spanish: what the call is for and the rules a client meets. */
  description: string;
  /** The JSON body: the struct the route validates it with, or a JSON Schema when the route parses it by hand. */
  body?: AnyStruct | JsonSchema;
  /** Schemas for body fields a struct cannot describe (a union), merged over the converted ones. */
  bodyFields?: Record<string, JsonSchema>;
  /** Other media types the body may come in (besides JSON). */
  bodyMediaTypes?: string[];
  /** The one media type the body comes in when it is not JSON (a multipart upload). */
  bodyMediaType?: string;
  /** Descriptions (and, for a parameter its struct cannot describe finely, the schema) of the query parameters. */
  query?: Record<string, ParameterDoc>;
  params?: Record<string, ParameterDoc>;
  /** The struct of src/domain/schemas the query string is validated with (server/http/request-validation.ts). */
  queryStruct?: AnyStruct;
  /** The struct the path parameters are validated with; handlers read its clean values. */
  paramsStruct?: AnyStruct;
  /** The Spanish {detail} of the 404 for path parameters paramsStruct refuses (an id no row can have). */
  paramsNotFound?: ParamsNotFound;
  /** The success answer's body (a response struct of src/domain/schemas, or a JSON Schema). */
  response?: AnyStruct | JsonSchema;
  /** Success status; 200 by default. */
  status?: number;
  /** Media type of the success answer; JSON by default. */
  responseMediaType?: string;
  /**
   * The other answers a client should handle, status → Spanish description (a {detail} body) or description and
   * body schema (none for a bodiless answer); 400 and 401 are added when they apply.
   */
  responses?: Record<number, string | { description: string; schema?: JsonSchema }>;
  /** Money-moving POST that accepts an `Idempotency-Key` (ARCHITECTURE "Data"). */
  idempotent?: boolean;
  /**
   * The account kinds a route behind a session serves (`x-roles`); the others get 403. Default: both, which is
   * what a route means when it takes any signed-in company (profile, SAT link, the invoice calls a corporate
   * may also make as the issuer of invoices).
   */
  roles?: readonly AccountRole[];
  /** Back-office routes (roles ['operator']): the operator roles served, null for every one (x-operator-roles). */
  operatorRoles?: readonly OperatorRole[] | null;
}

/** An account kind (companies.is_corporate), or Flujo's own operators (issue 19's back office). */
export type AccountRole = 'provider' | 'corporate' | 'operator';
const ALL_ACCOUNT_ROLES: readonly AccountRole[] = ['provider', 'corporate'];

/** The same docs, each serving only these account kinds (a module whose routes all share one role). */
export function withRoles<T extends Record<string, RouteDoc>>(only: readonly AccountRole[], docs: T): T {
  return Object.fromEntries(Object.entries(docs).map(([name, doc]) => [name, { ...doc, roles: only }])) as T;
}

/**
 * Who may call an operation, machine-readable in the document (`x-roles`): 'anonymous' for the calls without a
 * session (anyone may call them), else the account kinds served. test/api/authorization-matrix.test.ts checks it
 * against the server's answers for every operation.
 */
function roles(route: CollectedRoute): string[] {
  if (!route.authenticated) return ['anonymous'];
  return [...(route.doc?.roles ?? ALL_ACCOUNT_ROLES)];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's entry in GET /api/openapi.json. */
    openapi?: RouteDoc;
  }
}

/** A route as the onRoute hook saw it. */
export interface CollectedRoute {
  method: string;
  /** OpenAPI path: '/api/invoices/{id}/events/'. */
  path: string;
  doc: RouteDoc | null;
  authenticated: boolean;
}

const JSON_MEDIA_TYPE = 'application/json';
const ACCOUNTS_PREFIX = '/api/accounts/';
const PATH_PARAMETER = /:([A-Za-z0-9_]+)/g;

const FIELD_ERRORS: JsonSchema = {
  type: 'object',
  description: 'Mensajes en español por campo: {campo: [mensaje, …]}.',
  additionalProperties: { type: 'array', items: { type: 'string' } },
};
const DETAIL: JsonSchema = {
  type: 'object',
  properties: { detail: { type: 'string' } },
  required: ['detail'],
};

function toSchema(value: AnyStruct | JsonSchema): JsonSchema {
  return isStruct(value) ? structToJsonSchema(value) : value;
}

/** The object whose properties are the body's fields: the body itself, or the items of a batch body. */
function fieldsOwner(schema: JsonSchema): JsonSchema {
  return schema.type === 'array' && typeof schema.items === 'object' ? (schema.items as JsonSchema) : schema;
}

function requestBodySchema(doc: RouteDoc): JsonSchema | null {
  if (!doc.body) return null;
  // A copy: the route's own doc object must not change when its fields are merged in.
  const schema = structuredClone(toSchema(doc.body));
  if (!doc.bodyFields) return schema;
  const owner = fieldsOwner(schema);
  owner.properties = { ...(owner.properties as JsonSchema), ...doc.bodyFields };
  return schema;
}

/** The service a path belongs to (ARCHITECTURE "Services and calls"). */
function serviceTag(path: string): string {
  return path.startsWith(ACCOUNTS_PREFIX) ? 'accounts' : 'invoices';
}

function operationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '');
  return [method.toLowerCase(), ...words.map((word) => word[0]!.toUpperCase() + word.slice(1))].join('');
}

/** The JSON Schema of each field of a params or query struct, by name. */
function structFields(struct: AnyStruct | undefined): {
  properties: Record<string, JsonSchema>;
  required: string[];
} {
  if (!struct) return { properties: {}, required: [] };
  const schema = structToJsonSchema(struct);
  return {
    properties: (schema.properties ?? {}) as Record<string, JsonSchema>,
    required: (schema.required ?? []) as string[],
  };
}

function parameters(route: CollectedRoute, doc: RouteDoc): JsonSchema[] {
  const pathFields = structFields(doc.paramsStruct);
  const pathNames = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  const inPath = pathNames.map((name) => ({
    name,
    in: 'path',
    required: true,
    description: doc.params?.[name]?.description,
    schema: doc.params?.[name]?.schema ?? pathFields.properties[name] ?? { type: 'string' },
  }));
  // The struct names every parameter the route reads; `query` adds the Spanish descriptions.
  const queryFields = structFields(doc.queryStruct);
  const queryNames = [...new Set([...Object.keys(doc.query ?? {}), ...Object.keys(queryFields.properties)])];
  const inQuery = queryNames.map((name) => ({
    name,
    in: 'query',
    required: doc.query?.[name]?.required ?? queryFields.required.includes(name),
    description: doc.query?.[name]?.description,
    schema: doc.query?.[name]?.schema ?? queryFields.properties[name] ?? { type: 'string' },
  }));
  const headers = doc.idempotent
    ? [
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Clave única por intento (p. ej. un UUID): repetir la llamada con la misma clave devuelve la primera ' +
            'respuesta (cabecera idempotent-replayed) y nunca actúa dos veces.',
          schema: { type: 'string', minLength: 1, maxLength: MAX_KEY_LENGTH },
        },
      ]
    : [];
  return [...inPath, ...inQuery, ...headers];
}

function operation(route: CollectedRoute): JsonSchema {
  const doc = route.doc ?? { summary: '', description: '' };
  const body = requestBodySchema(doc);
  const status = String(doc.status ?? 200);
  const responses: Record<string, JsonSchema> = {
    [status]: {
      description: 'Respuesta correcta.',
      ...(doc.response || doc.responseMediaType
        ? {
            content: {
              [doc.responseMediaType ?? JSON_MEDIA_TYPE]: {
                schema: doc.response ? toSchema(doc.response) : { type: 'string', format: 'binary' },
              },
            },
          }
        : {}),
    },
  };
  if (body || doc.query || doc.queryStruct || (doc.paramsStruct && !doc.paramsNotFound)) {
    responses['400'] = {
      description: 'Datos inválidos.',
      content: { [JSON_MEDIA_TYPE]: { schema: { $ref: '#/components/schemas/FieldErrors' } } },
    };
  }
  if (route.authenticated) {
    responses['401'] = {
      description: 'Sin sesión, o el token de acceso venció o fue revocado.',
      content: { [JSON_MEDIA_TYPE]: { schema: { $ref: '#/components/schemas/Detail' } } },
    };
  }
  if (doc.paramsNotFound) {
    responses['404'] = {
      description:
        typeof doc.paramsNotFound === 'string'
          ? doc.paramsNotFound
          : [...new Set(Object.values(doc.paramsNotFound))].join(' / '),
      content: { [JSON_MEDIA_TYPE]: { schema: { $ref: '#/components/schemas/Detail' } } },
    };
  }
  for (const [code, answer] of Object.entries(doc.responses ?? {})) {
    const { description, schema } =
      typeof answer === 'string'
        ? { description: answer, schema: { $ref: '#/components/schemas/Detail' } }
        : answer;
    responses[code] = { description, ...(schema ? { content: { [JSON_MEDIA_TYPE]: { schema } } } : {}) };
  }
  const parameterList = parameters(route, doc);
  return {
    operationId: operationId(route.method, route.path),
    summary: doc.summary,
    description: doc.description,
    tags: [serviceTag(route.path)],
    ...(parameterList.length > 0 ? { parameters: parameterList } : {}),
    ...(body
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries(
              (doc.bodyMediaType
                ? [doc.bodyMediaType]
                : [JSON_MEDIA_TYPE, ...(doc.bodyMediaTypes ?? [])]
              ).map((type) => [type, { schema: body }]),
            ),
          },
        }
      : {}),
    responses,
    ...(route.authenticated ? { security: [{ bearerAuth: [] }] } : {}),
    'x-roles': roles(route),
    ...(doc.operatorRoles !== undefined
      ? { 'x-operator-roles': doc.operatorRoles ?? [...OPERATOR_ROLES] }
      : {}),
  };
}

function packageVersion(): string {
  const file = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

/** The OpenAPI 3.1 document of these routes. */
export function openApiDocument(routes: readonly CollectedRoute[]): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const sorted = [...routes].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  for (const route of sorted) {
    const item = paths[route.path] ?? {};
    item[route.method.toLowerCase()] = operation(route);
    paths[route.path] = item;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Flujo API',
      version: packageVersion(),
      description:
        'Los dos servicios de Flujo: facturas en /api/ y usuarios en /api/accounts/. Rutas con diagonal final, ' +
        'listas paginadas {count, next, previous, results} de 25 por página, errores en español ({detail} o ' +
        '{campo: [mensaje]}). Generado a partir de las rutas que el servidor registra.',
    },
    servers: [{ url: '/' }],
    tags: [
      {
        name: 'invoices',
        description: 'Servicio de facturas (/api/): pronto pago, proveedores, corporativos.',
      },
      {
        name: 'accounts',
        description: 'Servicio de usuarios (/api/accounts/): sesión, registro, perfil, SAT.',
      },
    ],
    paths,
    components: {
      schemas: { FieldErrors: FIELD_ERRORS, Detail: DETAIL },
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'Token de acceso de /api/accounts/login/ o /api/accounts/token/refresh/.',
        },
      },
    },
  };
}

function usesRequireUser(app: FastifyInstance, route: RouteOptions): boolean {
  const handlers = [route.preHandler ?? []].flat();
  return handlers.includes(app.requireUser);
}

/**
 * A plugin's '/' route answers at '/api/newsletter' and '/api/newsletter/' (the hook sees the first); it is
 * documented with the trailing slash, like every other path.
 */
function documentedPath(route: RouteOptions & { routePath: string }): string {
  const pluginRoot = route.routePath === '' || route.routePath === '/';
  const url = pluginRoot && !route.url.endsWith('/') ? `${route.url}/` : route.url;
  return url.replace(PATH_PARAMETER, '{$1}');
}

/**
 * Collects every API route registered after this call (an onRoute hook on the root, so every plugin's routes
 * pass through it) and serves their OpenAPI document at GET /api/openapi.json. Call it before the services are
 * registered, and after `registerAuthentication` (routes behind `app.requireUser` are marked as needing a token).
 */
export function registerOpenApi(app: FastifyInstance): void {
  const routes: CollectedRoute[] = [];
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    for (const method of [route.method].flat()) {
      // Fastify adds a HEAD for every GET by itself.
      if (method === 'HEAD') continue;
      routes.push({
        method,
        path: documentedPath(route),
        doc: route.config?.openapi ?? null,
        authenticated: usesRequireUser(app, route),
      });
    }
  });

  let document: JsonSchema | null = null;
  app.get(
    OPENAPI_PATH,
    {
      config: {
        openapi: {
          summary: 'This OpenAPI document',
          description: 'Este documento OpenAPI 3.1, generado de las rutas que el servidor registra.',
          response: { type: 'object', required: ['openapi', 'paths'] },
        },
      },
    },
    async () => {
      // Routes are fixed once the app is ready: build the document once.
      document ??= openApiDocument(routes);
      return document;
    },
  );
}
