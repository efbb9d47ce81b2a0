import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type AppDeps, buildApp, type ServiceName } from '../../server/app';
import { type AltchaDifficulty, createAltchaCaptcha } from '../../server/captcha/altcha';
import type { Captcha } from '../../server/captcha/captcha';
import { type Config, loadConfig } from '../../server/config';
import type { DatabaseHandle } from '../../server/db/database';
import type { Mailer } from '../../server/mail/mailer';
import type { Clock } from '../../server/modules/auth/clock';
import { TEST_DEMO_AUTHORITY_DIR } from './demo-authority';
import { createTestDatabase } from './test-database';
import { TEST_SECRET_KEY } from './test-secrets';

export interface ApiTestContext {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** The app's configuration (its JWT secret signs test sessions: test/support/operator.ts). */
  config: Config;
  /** The app's clock. */
  now: Clock;
  close(): Promise<void>;
}

export interface ApiAppOptions {
  config?: Config;
  mailer?: Mailer;
  now?: Clock;
  /** A ready captcha (e.g. reCAPTCHA with a fake fetch). */
  captcha?: Captcha;
  /** ALTCHA with this difficulty instead of the production one (cheap solves in tests). */
  altchaDifficulty?: AltchaDifficulty;
  /** The wait before a wrong password's 401; default none (no test waits it out; one records it). */
  pause?: AppDeps['pause'];
  /** Mount only these services (default both). */
  services?: readonly ServiceName[];
  /** Fastify's logger (default none); the fuzz test reads the errors behind a 500 from it. */
  logger?: AppDeps['logger'];
  /** What proves CFDI; default the test authority and the sandbox SAT (a test passes a SAT that never answers). */
  authenticity?: AppDeps['authenticity'];
}

/** The real app on a private seeded database, called through inject(). */
export async function createApiApp(options: ApiAppOptions = {}): Promise<ApiTestContext> {
  const database = await createTestDatabase();
  const captcha =
    options.captcha ??
    (options.altchaDifficulty
      ? createAltchaCaptcha({
          db: database.db,
          hmacKey: randomBytes(32).toString('hex'),
          now: options.now ?? (() => new Date()),
          difficulty: options.altchaDifficulty,
        })
      : undefined);
  const config = options.config ?? testConfig();
  const now = options.now ?? (() => new Date());
  const app = await buildApp({
    database,
    config,
    mailer: options.mailer,
    now: options.now,
    captcha,
    pause: options.pause ?? (async () => {}),
    services: options.services,
    logger: options.logger,
    authenticity: options.authenticity,
  });
  await app.ready();
  return {
    app,
    database,
    config,
    now,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/**
 * Tests post the public forms many times from one address (inject's 127.0.0.1), so their limits are raised;
 * the throttle tests pass testConfig(PRODUCTION_LIMITS) to meet the real ones.
 */
const TEST_PUBLIC_WRITE_LIMIT_FACTOR = '1000';
export const PRODUCTION_LIMITS = { PUBLIC_WRITE_LIMIT_FACTOR: '1' } as const;

/**
 * loadConfig for a test: the given variables plus throwaway secrets, so nothing is read from or written to
 * DATA_DIR (the development secret files), and the public forms' limits raised (above).
 */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    JWT_SECRET: randomBytes(48).toString('base64url'),
    // Fixed: the template's demo operators have their TOTP secrets sealed with it.
    SAT_ENCRYPTION_KEY: TEST_SECRET_KEY.toString('base64'),
    PUBLIC_WRITE_LIMIT_FACTOR: TEST_PUBLIC_WRITE_LIMIT_FACTOR,
    DEMO_AUTHORITY_DIR: TEST_DEMO_AUTHORITY_DIR,
    ...env,
  });
}

/** A clock tests move forward instead of sleeping. */
export function testClock(): { now: Clock; advanceMinutes(minutes: number): void } {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advanceMinutes(minutes) {
      offsetMs += minutes * 60_000;
    },
  };
}
