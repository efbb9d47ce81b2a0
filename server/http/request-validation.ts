import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { type FieldErrors as FieldErrorMap, validateForm } from '../../src/domain/schemas/validate';
import { FieldErrors, RequestRefusal } from './errors';
import type { ParamsNotFound } from './openapi';
import { type AnyStruct, isStruct } from './struct-schema';

/**
 * How a route answers a body its struct refuses, when not as the plain 400 {campo: [mensaje]}: it may throw
 * (another 400 shape, e.g. {errors: {...}}) or send its own reply (a redirect back to an HTML form). Pure
 * presentation: the rules themselves are the struct's.
 */
export type InvalidBodyReply = (
  errors: FieldErrorMap,
  request: FastifyRequest,
  reply: FastifyReply,
) => FastifyReply | undefined;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's answer to a body its struct refuses (see registerRequestValidation). */
    invalidBody?: InvalidBodyReply;
  }
  interface FastifyRequest {
    /** The path parameters as the caller sent them, before the route's struct read them (the operator audit). */
    sentParams: unknown;
  }
}

interface RouteStructs {
  body: AnyStruct | null;
  params: AnyStruct | null;
  query: AnyStruct | null;
  /** The {detail} of the 404 for path parameters the params struct refuses; null: a 400 per field. */
  paramsNotFound: ParamsNotFound | null;
  invalidBody: InvalidBodyReply | undefined;
}

/** The 404's message: the route's one message, or the first refused parameter's (in the order the route lists them). */
function notFoundMessage(notFound: ParamsNotFound | null, errors: FieldErrorMap): string | null {
  if (notFound === null || typeof notFound === 'string') return notFound;
  const refused = Object.keys(notFound).find((name) => errors[name] !== undefined);
  return refused === undefined ? (Object.values(notFound)[0] ?? null) : (notFound[refused] ?? null);
}

function validator(structs: RouteStructs): preHandlerAsyncHookHandler {
  return async function validateRequest(request, reply) {
    // The body first, then the path, then the query: a bad body was a 400 before the id was looked at.
    if (structs.body) {
      const result = validateForm(structs.body, request.body);
      if (result.ok) {
        // Handlers read the clean value: trimmed, defaults applied, unknown fields stripped.
        request.body = result.value;
      } else {
        if (!structs.invalidBody) throw new FieldErrors(result.errors);
        structs.invalidBody(result.errors, request, reply);
        if (!reply.sent) throw new FieldErrors(result.errors);
        // The route replied itself (e.g. a redirect): the handler does not run.
        return reply;
      }
    }
    if (structs.params) {
      const result = validateForm(structs.params, request.params);
      if (!result.ok) {
        // An id that cannot exist is reported exactly like a missing row, so ids reveal nothing.
        const notFound = notFoundMessage(structs.paramsNotFound, result.errors);
        if (notFound !== null) throw new RequestRefusal(404, notFound);
        throw new FieldErrors(result.errors);
      }
      request.sentParams = request.params;
      request.params = result.value;
    }
    if (structs.query) {
      const result = validateForm(structs.query, request.query);
      if (!result.ok) throw new FieldErrors(result.errors);
      request.query = result.value;
    }
    return undefined;
  };
}

/**
 * One validation path (docs/decisions/0022-one-validation-path.md): every route whose OpenAPI entry declares
 * its body, path parameters or query string as a struct of src/domain/schemas gets a preHandler that validates
 * them with those structs and answers 400 with Spanish messages per field (a path id the struct refuses: 404),
 * so no handler or service parses its input by hand. The check is appended after the route's own preHandlers,
 * so a missing session is still a 401 (and a throttle still counts the attempt) before the input is looked at.
 * Routes that parse their body by hand (a multipart upload, the ZIP download) declare a JSON Schema instead and
 * are left alone. Call before the services are registered.
 */
export function registerRequestValidation(app: FastifyInstance): void {
  app.decorateRequest('sentParams', null);
  app.addHook('onRoute', (route) => {
    const doc = route.config?.openapi;
    const structs: RouteStructs = {
      body: isStruct(doc?.body) ? doc.body : null,
      params: doc?.paramsStruct ?? null,
      query: doc?.queryStruct ?? null,
      paramsNotFound: doc?.paramsNotFound ?? null,
      invalidBody: route.config?.invalidBody,
    };
    if (!structs.body && !structs.params && !structs.query) return;
    const own = route.preHandler === undefined ? [] : [route.preHandler].flat();
    route.preHandler = [...own, validator(structs)];
  });
}
