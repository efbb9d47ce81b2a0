import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { NewsletterSubscription } from '../../../src/domain/schemas/session';
import { FieldErrors } from '../../http/errors';
import type { RouteDoc } from '../../http/openapi';
import type { RequestGuardConfig } from '../../http/request-guards';
import { TooManyAttemptsError } from '../auth/http-errors';
import { type PublicWriteLimiter, publicWriteLimitDoc } from '../auth/public-write-limits';
import { insertSubscription } from './newsletter.repository';

export const NEWSLETTER_SUBSCRIBED = 'Suscripción registrada';
/** Where a browser form goes back to when it names no page, or names something that is not one of ours. */
const DEFAULT_RETURN_PATH = '/inicio/';
// Only a site path such as /compradores/ is accepted as `origen`: no scheme, host or '//' (no open redirect).
const SITE_PATH = /^\/(?:[a-z0-9-]+\/)*$/;
const FORM_BODY_LIMIT = 4096;

const SUBSCRIBE_DOC: RouteDoc = {
  summary: 'Subscribe to the newsletter',
  description:
    'Suscribe un correo al boletín. JSON: 201 o 400; formulario HTML (origen = página del sitio): 303 de vuelta ' +
    'a esa página con ?boletin=suscrito|error.',
  body: NewsletterSubscription,
  bodyFields: { origen: { type: 'string', description: 'Solo formulario: ruta del sitio a la que volver.' } },
  bodyMediaTypes: ['application/x-www-form-urlencoded'],
  status: 201,
  response: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  responses: {
    303: { description: 'Formulario HTML: redirección a la página de origen.' },
    400: {
      description: 'Correo inválido, dentro de errors: {errors: {email: [mensaje]}}.',
      schema: { type: 'object', properties: { errors: { $ref: '#/components/schemas/FieldErrors' } } },
    },
    403: 'Enviado desde otro sitio (Sec-Fetch-Site: cross-site).',
    429: `${publicWriteLimitDoc('newsletter')} El formulario HTML vuelve a su página con ?boletin=limite.`,
  },
};

/** The form's outcome, read by the footer after the redirect (src/views/common/newsletter-box.tsx). */
type Outcome = 'suscrito' | 'error' | 'limite';

function backToPage(reply: FastifyReply, origin: unknown, outcome: Outcome) {
  const path = typeof origin === 'string' && SITE_PATH.test(origin) ? origin : DEFAULT_RETURN_PATH;
  return reply.redirect(`${path}?boletin=${outcome}#boletin`, 303);
}

/**
 * Newsletter subscriptions (docs/decisions/0006-newsletter.md), mounted at /api/newsletter/.
 * JSON clients get 201 or 400 with field errors; the public pages' plain HTML form gets a 303 back to the
 * page it was sent from, so it works without JavaScript.
 */
export const newsletterService: FastifyPluginAsync<{ publicWrites: PublicWriteLimiter }> = async (
  app,
  { publicWrites },
) => {
  const { db } = app;
  // Scoped to this plugin: HTML forms post url-encoded bodies, which nothing else in the API accepts.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  // The e-mail check refuses NUL itself, so a plain HTML form still gets its redirect back.
  const ownTextChecks: RequestGuardConfig = { checksOwnText: true };
  const fromForm = (request: FastifyRequest) =>
    request.headers['content-type']?.startsWith('application/x-www-form-urlencoded') ?? false;
  const originOf = (request: FastifyRequest) =>
    fromForm(request) ? (request.body as { origen?: unknown }).origen : undefined;

  app.post<{ Body: NewsletterSubscription }>(
    '/',
    {
      // A page on another site could post our form for someone else's address; browsers say when they do.
      preHandler: async (request, reply) => {
        if (request.headers['sec-fetch-site'] === 'cross-site') {
          return reply.status(403).send({ detail: 'Solicitud no permitida desde otro sitio.' });
        }
        // Before the body is checked, so refused addresses count too.
        try {
          await publicWrites.take('newsletter', { address: request.ip });
        } catch (error) {
          if (error instanceof TooManyAttemptsError && fromForm(request)) {
            reply.header('retry-after', String(error.retryAfterSeconds));
            return backToPage(reply, originOf(request), 'limite');
          }
          throw error;
        }
      },
      config: {
        ...ownTextChecks,
        openapi: SUBSCRIBE_DOC,
        invalidBody: (errors, request, reply) => {
          if (fromForm(request)) return backToPage(reply, originOf(request), 'error');
          throw new FieldErrors(errors, 'errors');
        },
      },
    },
    async (request, reply) => {
      // Subscribing twice answers the same: the response never tells whether an address was on the list.
      await insertSubscription(db, request.body.email);
      if (fromForm(request)) return backToPage(reply, originOf(request), 'suscrito');
      return reply.status(201).send({ message: NEWSLETTER_SUBSCRIBED });
    },
  );
};
