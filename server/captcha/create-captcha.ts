import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/database';
import type { Clock } from '../modules/auth/clock';
import { createAltchaCaptcha } from './altcha';
import type { Captcha } from './captcha';
import { createRecaptchaCaptcha } from './recaptcha';

/** reCAPTCHA v3 when both keys are configured, else the self-hosted ALTCHA proof of work. */
export function createCaptcha(
  config: Pick<Config, 'recaptcha' | 'altchaHmacKey'>,
  deps: { db: Db; now: Clock; log: Pick<FastifyBaseLogger, 'warn'> },
): Captcha {
  if (config.recaptcha) {
    return createRecaptchaCaptcha({
      ...config.recaptcha,
      onError: (error) => deps.log.warn({ err: error }, 'reCAPTCHA verification unavailable'),
    });
  }
  return createAltchaCaptcha({ db: deps.db, hmacKey: config.altchaHmacKey, now: deps.now });
}
