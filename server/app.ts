import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { Captcha } from './captcha/captcha';
import { type Config, loadConfig } from './config';
import type { DatabaseHandle } from './db/database';
import { registerErrorHandling } from './http/errors';
import { redactingLogger } from './http/log-redaction';
import { registerOpenApi } from './http/openapi';
import { registerRequestGuards } from './http/request-guards';
import { registerRequestValidation } from './http/request-validation';
import { flujoJobs } from './jobs/flujo-jobs';
import { createJobRunner } from './jobs/job-runner';
import { createMailer, type Mailer } from './mail/mailer';
import { createAccountsDeps } from './modules/accounts/accounts-deps.factory';
import { registerAuthentication } from './modules/auth/authenticate';
import { type Clock, systemClock } from './modules/auth/clock';
import { createSessionCache } from './modules/auth/session-cache';
import { createListAnswers } from './modules/invoices/list-answers';
import { type CfdiAuthenticity, createCfdiAuthenticity } from './modules/sat/cfdi-authenticity';
import { registerSandboxSatStatus } from './modules/sat/sandbox-sat-status.routes';
import { createSatDeps } from './modules/sat/sat-deps';
import { TEST_SUPPORT_PREFIX, testSupportRoutes } from './modules/test-support/test-support.routes';
import { corePlugin } from './plugins/core.plugin';
import { invoicesService } from './services/invoices-service.plugin';
import { satPaymentComplementImporter, wireModules } from './services/module-wiring';
import { userService } from './services/user-service.plugin';

/** The two back-end services of the spec; a deployment may run them apart (VITE_*_API_URL). */
export type ServiceName = 'invoices' | 'accounts';

export interface AppDeps {
  database: DatabaseHandle;
  /** Directory of the built SPA (vite build output); omitted in API-only tests. */
  spaDir?: string;
  logger?: FastifyServerOptions['logger'];
  /** main.ts passes the loaded config; tests get defaults with a random JWT secret per app. */
  config?: Config;
  /** Default: SMTP when config.smtpUrl is set, else the mail_outbox table. */
  mailer?: Mailer;
  /** Default: reCAPTCHA when configured, else ALTCHA. Tests pass a cheaper ALTCHA difficulty. */
  captcha?: Captcha;
  /** Injectable time for token, link and throttle expiry. */
  now?: Clock;
  /** The wait before a wrong password's 401 (default a real timer); tests record it instead of waiting. */
  pause?: (ms: number) => Promise<void>;
  /** Which services this process mounts; default both. */
  services?: readonly ServiceName[];
  /**
   * Run the scheduled jobs (mail delivery, pruning, the SAT sandbox poller) while the app is open: main.ts
   * sets it; tests leave it off and call a job's work themselves.
   */
  runJobs?: boolean;
  /** Default: from the config (trust store, SAT status URL or the sandbox SAT). Tests pass a silent SAT. */
  authenticity?: CfdiAuthenticity;
}

/** Test and tool default: the environment's defaults with a throwaway signing secret (never a file). */
function defaultConfig(): Config {
  return loadConfig({
    JWT_SECRET: randomBytes(48).toString('base64url'),
    SAT_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  });
}

/** Builds the HTTP app: the invoices service at /api/ and the user service at /api/accounts/. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  wireModules();
  const config = deps.config ?? defaultConfig();
  const app = Fastify({
    // Whatever logger the caller passes (main.ts, a test's stream), no reset or invitation token reaches it.
    logger: redactingLogger(deps.logger),
    bodyLimit: 1_048_576,
    // Only behind a known proxy may X-Forwarded-For name the client (per-address throttles read it);
    // otherwise anyone could pick their own address by sending the header.
    trustProxy: config.trustProxy,
    // A malformed URL (say, a bad %-escape) never reaches the error handler; answer it in Spanish too.
    frameworkErrors: (_error, _request, reply: FastifyReply) => {
      void reply.status(400).send({ detail: 'La solicitud no es válida.' });
    },
  });
  await app.register(helmet, {
    // The SPA bundles everything it loads; no third-party origin is allowed.
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        workerSrc: ["'self'", 'blob:'],
        // The operators' PDF viewer shows a KYB document fetched with the token from a blob: URL (decision 0051).
        frameSrc: ["'self'", 'blob:'],
        objectSrc: ["'self'", 'blob:'],
        upgradeInsecureRequests: null,
      },
    },
  });
  registerErrorHandling(app);
  registerRequestGuards(app);
  const db = deps.database.db;
  const clock = deps.now ?? systemClock;
  const authenticity = deps.authenticity ?? createCfdiAuthenticity(config, db, clock);
  await app.register(corePlugin, {
    database: deps.database,
    db,
    mailer: deps.mailer ?? createMailer(db, { smtpUrl: config.smtpUrl, log: app.log }),
    clock,
    appBaseUrl: config.appBaseUrl,
    authenticity,
    listAnswers: createListAnswers(db, { kept: config.listAnswersKept }),
  });
  const accounts = createAccountsDeps(app, config, deps.captcha, deps.pause);
  const sessions = await createSessionCache({ database: deps.database, sessionUsers: accounts.sessionUsers });
  app.decorate('sessionCache', sessions);
  app.addHook('onClose', () => sessions.close());
  registerAuthentication(app, { tokens: accounts.tokens, sessions });
  // Development and tests: the sandbox SAT's status service over HTTP, as SAT serves it (decision 0056).
  if (!config.production && !config.satStatusUrl) registerSandboxSatStatus(app, authenticity);
  // Before the services: it collects their routes for GET /api/openapi.json.
  registerOpenApi(app);
  registerRequestValidation(app);

  const services = deps.services ?? ['invoices', 'accounts'];
  // The user service's SAT routes and the development SAT poller job share these.
  const sat = createSatDeps(config, {
    db,
    mailer: accounts.mailer,
    now: clock,
    authenticity,
    paymentComplements: satPaymentComplementImporter,
  });
  if (services.includes('invoices')) {
    await app.register(invoicesService, {
      prefix: '/api',
      accounts,
      uploads: { maxBytes: config.uploadMaxBytes },
      operatorEmail: config.operatorEmail,
      collectionClabe: config.collectionClabe,
    });
  }
  if (services.includes('accounts')) {
    await app.register(userService, { prefix: '/api/accounts', accounts, sat });
  }
  // Absent (404) unless the configuration enables it with its token (decision 0048).
  if (config.testSupportToken) {
    await app.register(testSupportRoutes, {
      prefix: TEST_SUPPORT_PREFIX,
      token: config.testSupportToken,
      config,
    });
  }
  if (deps.runJobs) {
    const scheduled = flujoJobs({
      db,
      log: app.log,
      smtp: config.smtpUrl ? { url: config.smtpUrl, from: config.mailFrom } : null,
      mailPollMs: config.mailPollMs,
      sat: sat.autoApproveSeconds !== null ? { deps: sat, autoApproveSeconds: sat.autoApproveSeconds } : null,
      authenticity,
      appBaseUrl: config.appBaseUrl,
      collectionClabe: config.collectionClabe,
      collectionsDay: { mailer: accounts.mailer, appBaseUrl: config.appBaseUrl },
    });
    const runner = createJobRunner({ db, jobs: scheduled.jobs, log: app.log });
    app.addHook('onReady', async () => runner.start());
    // onClose runs once the server has stopped accepting; the database closes after (main.ts).
    app.addHook('onClose', async () => {
      await runner.stop();
      scheduled.close();
    });
  }

  if (deps.spaDir && existsSync(join(deps.spaDir, 'index.html'))) registerSpa(app, deps.spaDir);
  return app;
}

/**
 * Serves the built SPA: @fastify/static registers one route per built file (wildcard: false), including
 * each prerendered public page's directory (/inicio/ → inicio/index.html, decision 0007) and sends the
 * build's .br/.gz copies; every other non-API GET gets index.html so /auth/ingresar/ and /dashboard/...
 * load the app.
 */
function registerSpa(app: FastifyInstance, spaDir: string): void {
  const indexHtml = readFileSync(join(spaDir, 'index.html'));
  app.register(fastifyStatic, {
    root: spaDir,
    wildcard: false,
    index: ['index.html'],
    preCompressed: true,
  });
  app.get('/*', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path.startsWith('/api/')) {
      return reply.status(404).send({ detail: `No existe ${request.method} ${path}` });
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
  });
}
