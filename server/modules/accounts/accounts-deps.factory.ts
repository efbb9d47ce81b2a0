import type { FastifyBaseLogger } from 'fastify';
import type { Captcha } from '../../captcha/captcha';
import { createCaptcha } from '../../captcha/create-captcha';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { createMailer, type Mailer } from '../../mail/mailer';
import { type Clock, systemClock } from '../auth/clock';
import { createThrottle } from '../auth/throttle';
import { createTokenService } from '../auth/tokens';
import type { AccountsDeps } from './accounts-deps';

/** Builds the session, mail and CAPTCHA services from the configuration; overrides come from tests. */
export function createAccountsDeps(
  db: Db,
  config: Config,
  log: FastifyBaseLogger,
  overrides: { mailer?: Mailer | undefined; captcha?: Captcha | undefined; now?: Clock | undefined } = {},
): AccountsDeps {
  const now = overrides.now ?? systemClock;
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
    captcha: overrides.captcha ?? createCaptcha(config, { db, now, log }),
    mailer: overrides.mailer ?? createMailer(db, { smtpUrl: config.smtpUrl, from: config.mailFrom, log }),
    appBaseUrl: config.appBaseUrl,
  };
}
