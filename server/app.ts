import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { DatabaseHandle } from './db/database';
import { registerErrorHandling } from './http/errors';
import { accountsService } from './modules/accounts/accounts.routes';
import { invoicesService } from './modules/invoices/invoices.routes';

export interface AppDeps {
  database: DatabaseHandle;
  /** Directory of the built SPA (vite build output); omitted in API-only tests. */
  spaDir?: string;
  logger?: FastifyServerOptions['logger'];
}

/** Builds the HTTP app: the invoices service at /api/ and the user service at /api/accounts/. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? false,
    bodyLimit: 1_048_576,
    // Spread requests behind a proxy keep their client address for throttling.
    trustProxy: true,
  });
  await app.register(helmet, {
    // The SPA bundles everything it loads; no third-party origin is allowed.
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        workerSrc: ["'self'", 'blob:'],
        upgradeInsecureRequests: null,
      },
    },
  });
  registerErrorHandling(app);

  await app.register(invoicesService, { prefix: '/api', database: deps.database });
  await app.register(accountsService, { prefix: '/api/accounts', db: deps.database.db });

  if (deps.spaDir && existsSync(join(deps.spaDir, 'index.html'))) registerSpa(app, deps.spaDir);
  return app;
}

/**
 * Serves the built SPA: @fastify/static registers one route per built file (wildcard: false), and every
 * other non-API GET gets index.html so /inicio/, /auth/ingresar/ and /dashboard/... load the app.
 */
function registerSpa(app: FastifyInstance, spaDir: string): void {
  const indexHtml = readFileSync(join(spaDir, 'index.html'));
  app.register(fastifyStatic, { root: spaDir, wildcard: false, index: false });
  app.get('/*', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path.startsWith('/api/')) {
      return reply.status(404).send({ detail: `No existe ${request.method} ${path}` });
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
  });
}
