import type { FastifyInstance } from 'fastify';
import type { Captcha } from '../../captcha/captcha';
import { createCaptcha } from '../../captcha/create-captcha';
import type { Config } from '../../config';
import { createPublicWriteLimiter } from '../auth/public-write-limits';
import { createThrottle } from '../auth/throttle';
import { createTokenService } from '../auth/tokens';
import type { AccountsDeps } from './accounts-deps';
import { findSessionUser, isUserActive } from './user.repository';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Builds the session and CAPTCHA services from the configuration, over the instance's database, mailer and
 * clock (server/plugins/core.plugin.ts); tests may pass a cheaper CAPTCHA and a pause that does not wait.
 */
export function createAccountsDeps(
  app: FastifyInstance,
  config: Config,
  captcha?: Captcha,
  pause?: (ms: number) => Promise<void>,
): AccountsDeps {
  const { db, mailer, clock: now, appBaseUrl } = app;
  const throttle = createThrottle(db, now);
  return {
    db,
    now,
    tokens: createTokenService({
      secret: config.jwtSecret,
      accessMinutes: config.accessTokenMinutes,
      refreshHours: config.refreshTokenHours,
      now,
    }),
    sessionUsers: { find: findSessionUser, isActive: isUserActive },
    throttle,
    publicWrites: createPublicWriteLimiter(throttle, config.publicWriteLimitFactor),
    captcha: captcha ?? createCaptcha(config, { db, now, log: app.log }),
    mailer,
    appBaseUrl,
    secretKey: config.satEncryptionKey,
    pause: pause ?? sleep,
  };
}
