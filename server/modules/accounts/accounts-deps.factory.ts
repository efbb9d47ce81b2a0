import type { FastifyInstance } from 'fastify';
import type { Captcha } from '../../captcha/captcha';
import { createCaptcha } from '../../captcha/create-captcha';
import type { Config } from '../../config';
import { createThrottle } from '../auth/throttle';
import { createTokenService } from '../auth/tokens';
import type { AccountsDeps } from './accounts-deps';

/**
 * Builds the session and CAPTCHA services from the configuration, over the instance's database, mailer and
 * clock (server/plugins/core.plugin.ts); tests may pass a cheaper CAPTCHA.
 */
export function createAccountsDeps(app: FastifyInstance, config: Config, captcha?: Captcha): AccountsDeps {
  const { db, mailer, clock: now, appBaseUrl } = app;
  return {
    db,
    now,
    tokens: createTokenService({
      secret: config.jwtSecret,
      accessMinutes: config.accessTokenMinutes,
      refreshHours: config.refreshTokenHours,
      now,
    }),
    throttle: createThrottle(db, now),
    captcha: captcha ?? createCaptcha(config, { db, now, log: app.log }),
    mailer,
    appBaseUrl,
  };
}
