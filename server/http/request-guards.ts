import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '../../src/domain/schemas/fields';
import { FieldErrors } from './errors';

const NUL = '\u0000';

/** The first path (top-level key or index) under which a string holds a NUL character, or null. */
function pathWithNul(value: unknown, depth = 0): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? '' : null;
  if (depth > 32 || typeof value !== 'object' || value === null) return null;
  for (const [key, child] of Object.entries(value)) {
    if (key.includes(NUL) || pathWithNul(child, depth + 1) !== null) return key;
  }
  return null;
}

/** Route config: the route's own field checks refuse NUL in the shape its client reads (e.g. `{errors: …}`). */
export interface RequestGuardConfig {
  checksOwnText?: boolean;
}

/**
 * PostgreSQL text cannot hold U+0000, so a NUL anywhere in a body, query or path parameter would
 * reach the database as an error (a 500). It is never meaningful input: refuse it up front, as a
 * 400 naming the field, on every route at once; a route whose answers have another shape (the public
 * forms) opts out with `config: { checksOwnText: true }` and refuses it in its field checks.
 */
export function registerRequestGuards(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    if ((request.routeOptions.config as RequestGuardConfig).checksOwnText) return;
    for (const part of [request.params, request.query, request.body]) {
      const path = pathWithNul(part);
      if (path !== null) throw new FieldErrors({ [path === '' ? '_form' : path]: [MESSAGES.invalid] });
    }
  });
}
