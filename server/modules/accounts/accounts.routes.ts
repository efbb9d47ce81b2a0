import type { FastifyPluginAsync } from 'fastify';
import { DemoRequest } from '../../../src/domain/schemas/session';
import { validateForm } from '../../../src/domain/schemas/validate';
import { captchaRoutes } from '../../captcha/captcha.routes';
import { FieldErrors } from '../../http/errors';
import type { RequestGuardConfig } from '../../http/request-guards';
import { currentUser } from '../auth/authenticate';
import { retryAfterOnThrottle } from '../auth/http-errors';
import { changePassword, getProfile, login, refresh, register, updateProfile } from './accounts.service';
import type { AccountsDeps } from './accounts-deps';
import { insertDemoRequest } from './demo-request.repository';
import { dummyPasswordHash } from './password';

export const DEMO_REQUEST_SOURCES = ['solicitar-demo', 'alianzas-corporativas'] as const;

/** The user service (mounted at /api/accounts/): session, sign-up, profile, password change, demo request. */
export const accountsService: FastifyPluginAsync<AccountsDeps> = async (app, deps) => {
  const { db } = deps;
  retryAfterOnThrottle(app);
  // Computed now, so the first login of an unknown username is not slower than the others.
  await dummyPasswordHash();

  app.post('/login/', async (request) => login(deps, request.body, request.ip));
  app.post('/token/refresh/', async (request) => refresh(deps, request.body));
  app.post('/register/', async (request, reply) =>
    reply.status(201).send(await register(deps, request.body, request.ip)),
  );

  app.get('/profile/', { preHandler: app.requireUser }, async (request) =>
    getProfile(deps, currentUser(request)),
  );
  app.put('/profile/', { preHandler: app.requireUser }, async (request) =>
    updateProfile(deps, currentUser(request), request.body),
  );
  app.post('/update-password/', { preHandler: app.requireUser }, async (request) =>
    changePassword(deps, currentUser(request), request.body),
  );

  await app.register(captchaRoutes, { prefix: '/captcha', captcha: deps.captcha });

  // Every field goes through the shared text checks, which refuse NUL under `errors` like any other mistake.
  const ownTextChecks: { config: RequestGuardConfig } = { config: { checksOwnText: true } };
  app.post('/request-demo/', ownTextChecks, async (request, reply) => {
    const result = validateForm(DemoRequest, request.body);
    // The spec's client reads the first message of each entry of `errors`.
    if (!result.ok) throw new FieldErrors(result.errors, 'errors');
    const source = (request.query as { source?: string }).source ?? 'solicitar-demo';
    await insertDemoRequest(
      db,
      result.value,
      (DEMO_REQUEST_SOURCES as readonly string[]).includes(source) ? source : 'solicitar-demo',
    );
    return reply.status(201).send({ message: 'Solicitud enviada con éxito' });
  });
};
