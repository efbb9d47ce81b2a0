import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { SERVER_MESSAGES } from '../../src/domain/schemas/session';

// The served OpenAPI document as the generated tests read it (openapi-fuzz, authorization-matrix).

export type Schema = { [keyword: string]: unknown };

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

export interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string }>;
  security?: unknown[];
  /** Who may call it (server/http/openapi.ts): 'anonymous', 'provider', 'corporate' or 'user'. */
  'x-roles'?: string[];
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

export interface DocumentedOperation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  path: string;
  operation: Operation;
}

/** GET /api/openapi.json from the app itself: the tests follow whatever the server documents. */
export async function servedDocument(app: FastifyInstance): Promise<OpenApiDocument> {
  const res = await app.inject({ method: 'GET', url: '/api/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`openapi.json: ${res.statusCode}`);
  return res.json<OpenApiDocument>();
}

export function documentedOperations(document: OpenApiDocument): DocumentedOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      method: method.toUpperCase() as DocumentedOperation['method'],
      path,
      operation,
    })),
  );
}

/** Follows a local `#/components/schemas/…` reference. */
export function resolveSchema(document: OpenApiDocument, schema: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.replace('#/components/schemas/', '');
  return document.components.schemas[name] ?? {};
}

// NOTE: spec §8 makes the server answer this English text (the client maps it to Spanish), so it is allowed.
const SPEC_ENGLISH_MESSAGES = new Set<string>([SERVER_MESSAGES.unknownResetEmail]);
// Words that only an English message would use; Spanish messages carry accents or common Spanish words.
const ENGLISH = /\b(the|must|should|is|are|body|required|expected|invalid|property|not found|unsupported)\b/i;
const SPANISH =
  /[áéíóúñü¿¡]|\b(de|la|el|no|es|en|un|una|los|las|por|para|que|del|al|con|debe|campo|valor|solicitud|factura|sesión|credenciales|demasiad[oa]s|requerid[oa]|obligatori[oa]|fecha|correo|contraseña|usuario|empresa|intenta|permitid[oa])\b/i;

/** The human messages of an error body: detail, message, and every field's messages ({field: [msg]}, {errors: …}). */
export function errorMessages(body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return [];
  const found: string[] = [];
  const record = body as Record<string, unknown>;
  for (const key of ['detail', 'message']) {
    if (typeof record[key] === 'string') found.push(record[key] as string);
  }
  const fields = (
    typeof record.errors === 'object' && record.errors !== null ? record.errors : record
  ) as Record<string, unknown>;
  for (const value of Object.values(fields)) {
    if (Array.isArray(value)) found.push(...value.filter((item): item is string => typeof item === 'string'));
  }
  return found;
}

/** Why a 4xx answer is not a JSON body with Spanish messages, or null when it is. */
export function spanishErrorProblem(res: LightMyRequestResponse): string | null {
  if (!String(res.headers['content-type'] ?? '').startsWith('application/json')) {
    return `content-type ${String(res.headers['content-type'])}`;
  }
  let body: unknown;
  try {
    body = res.json();
  } catch {
    return 'body is not JSON';
  }
  const messages = errorMessages(body);
  if (messages.length === 0) return `no message in ${res.body.slice(0, 200)}`;
  for (const message of messages) {
    if (SPEC_ENGLISH_MESSAGES.has(message)) continue;
    // Only the server's own wording before a ':' is checked for English: after it a message may quote the caller's
    // input ('Factura no encontrada: <referencia>.'), which can hold anything.
    const own = message.split(':')[0] ?? message;
    if (ENGLISH.test(own) || !SPANISH.test(message)) return `not Spanish: ${message}`;
  }
  return null;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The path with its {parameters} replaced (each value URL-encoded unless `raw`). */
export function fillPath(path: string, values: Record<string, string>, raw = false): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name] ?? '1';
    // A lone surrogate cannot be %-encoded; it goes as U+FFFD, which is what a browser would send.
    return raw ? value : encodeURIComponent(value.replace(LONE_SURROGATE, '\ufffd'));
  });
}
