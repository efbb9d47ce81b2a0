import type { FastifyError, FastifyInstance } from 'fastify';

/** A 400 with Spanish messages per field, the shape the spec's client reads ({field: [message]}). */
export class FieldErrors extends Error {
  readonly statusCode = 400;
  constructor(
    readonly fields: Record<string, string[]>,
    /** Some spec calls wrap the fields (demo request reads `errors`). */
    readonly wrapKey: string | null = null,
  ) {
    super('Datos inválidos');
  }
  body(): Record<string, unknown> {
    return this.wrapKey ? { [this.wrapKey]: this.fields } : this.fields;
  }
}

/** A refusal with a status and a Spanish {detail}, for what server/http itself refuses (a path id that cannot exist). */
export class RequestRefusal extends Error {
  constructor(
    readonly statusCode: 404,
    message: string,
  ) {
    super(message);
  }
}

interface StatusError {
  statusCode: number;
  message: string;
}

function hasStatus(error: unknown): error is StatusError {
  return typeof (error as StatusError)?.statusCode === 'number';
}

/**
 * One place turns errors into responses: known client errors keep their status and a Spanish
 * `detail`; anything unexpected is logged and answered with a generic 500 that leaks nothing.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof FieldErrors) return reply.status(400).send(error.body());
    if ((error as FastifyError).code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
      return reply.status(400).send({ detail: 'El cuerpo de la solicitud no es JSON válido.' });
    }
    if ((error as FastifyError).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send({ detail: 'La solicitud es demasiado grande.' });
    }
    if ((error as FastifyError).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(415).send({ detail: 'Tipo de contenido no admitido.' });
    }
    if ((error as FastifyError).code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return reply.status(400).send({ detail: 'El cuerpo de la solicitud está vacío.' });
    }
    if (hasStatus(error) && error.statusCode >= 400 && error.statusCode < 500) {
      // A throttle's 429 says when to come back (server/modules/auth/throttle.ts).
      const retryAfter = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
      if (error.statusCode === 429 && typeof retryAfter === 'number')
        reply.header('retry-after', String(retryAfter));
      // Fastify's own 4xx messages are English; ours are Spanish already.
      const fromFastify = (error as FastifyError).code?.startsWith('FST_') ?? false;
      const detail = fromFastify ? 'La solicitud no es válida.' : error.message;
      return reply.status(error.statusCode).send({ detail });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ detail: 'Error interno del servidor. Por favor, intenta de nuevo.' });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ detail: `No existe ${request.method} ${request.url.split('?')[0]}` });
  });
}
