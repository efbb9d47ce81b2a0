import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { type FieldErrors as FieldErrorMap, validateForm } from '../../src/domain/schemas/validate';
import { FieldErrors } from './errors';
import { isStruct } from './struct-schema';

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
    /** This route's answer to a body its struct refuses (see registerBodyValidation). */
    invalidBody?: InvalidBodyReply;
  }
}

function validator(
  struct: Parameters<typeof validateForm>[0],
  invalidBody: InvalidBodyReply | undefined,
): preHandlerAsyncHookHandler {
  return async function validateBody(request, reply) {
    const result = validateForm(struct, request.body);
    if (result.ok) {
      // Handlers read the clean value: trimmed, defaults applied, unknown fields stripped.
      request.body = result.value;
      return;
    }
    if (!invalidBody) throw new FieldErrors(result.errors);
    invalidBody(result.errors, request, reply);
    if (!reply.sent) throw new FieldErrors(result.errors);
    // The route replied itself (e.g. a redirect): the handler does not run.
    return reply;
  };
}

/**
 * One validation path (docs/decisions/0022-one-validation-path.md): every route whose OpenAPI entry declares
 * its body as a struct of src/domain/schemas gets a preHandler that validates the body with that struct and
 * answers 400 with Spanish messages per field, so no handler or service validates by hand. The check is
 * appended after the route's own preHandlers, so a missing session is still a 401 (and a throttle still counts
 * the attempt) before the body is looked at. Routes that parse their body by hand (a multipart upload, the ZIP
 * download) declare a JSON Schema instead and are left alone. Call before the services are registered.
 */
export function registerBodyValidation(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const body = route.config?.openapi?.body;
    if (!isStruct(body)) return;
    const own = route.preHandler === undefined ? [] : [route.preHandler].flat();
    route.preHandler = [...own, validator(body, route.config?.invalidBody)];
  });
}
