import type { FastifyRequest, FastifyServerOptions } from 'fastify';

// Password-reset and invitation links carry their token in the query (`?token=…`): whoever reads a log must not
// be able to follow one (decision 0060). Any parameter named …token is hidden, so a future one is covered too.
const SECRET_PARAMETER = /([?&;#][\w.-]*token=)[^&#\s"'<>]*/gi;

export const REDACTED = '[redacted]';

/** The text with the value of every `token=`-like URL parameter replaced by REDACTED. */
export function redactSecrets(text: string): string {
  return text.replace(SECRET_PARAMETER, `$1${REDACTED}`);
}

/** Fastify's default request serializer (method, url, host, address), with the URL redacted. */
function redactedRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactSecrets(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * The logger options every Flujo app gets (buildApp): the request serializer above, and every string logged
 * (Fastify's own "Route GET:/…?token=… not found", any message) passed through redactSecrets.
 */
export function redactingLogger(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const options = logger === true ? {} : logger;
  return {
    ...options,
    serializers: { ...options.serializers, req: redactedRequest },
    hooks: {
      ...options.hooks,
      logMethod(args, method) {
        const redacted = args.map((arg: unknown) => (typeof arg === 'string' ? redactSecrets(arg) : arg));
        return method.apply(this, redacted as Parameters<typeof method>);
      },
    },
  };
}
