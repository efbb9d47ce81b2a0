import type { FastifyPluginAsync } from 'fastify';
import { CaptchaConfig } from '../../src/domain/schemas/session';
import type { RouteDoc } from '../http/openapi';
import { CAPTCHA_ACTIONS, type Captcha, isCaptchaAction } from './captcha';

const DOCS = {
  config: {
    summary: 'Which CAPTCHA the browser runs',
    description:
      'Qué CAPTCHA corre el navegador antes del registro (y del ingreso, cuando el servidor lo pide): altcha ' +
      '(propio) o recaptcha con su site_key.',
    response: CaptchaConfig,
  },
  challenge: {
    summary: 'A fresh ALTCHA challenge',
    description:
      'Desafío ALTCHA firmado, de un solo uso y con vencimiento, para el widget de la acción dada.',
    query: {
      action: {
        description: 'Acción para la que se emite el desafío.',
        schema: { enum: [...CAPTCHA_ACTIONS], default: 'register' },
      },
    },
    response: { type: 'object', description: 'Desafío ALTCHA (algorithm, challenge, salt, signature…).' },
    responses: {
      400: 'Acción de CAPTCHA desconocida.',
      404: 'El CAPTCHA configurado (reCAPTCHA) no usa desafíos de este servidor.',
    },
  },
} satisfies Record<string, RouteDoc>;

/** GET config/ (which CAPTCHA the browser runs) and challenge/ (an ALTCHA challenge for the widget). */
export const captchaRoutes: FastifyPluginAsync<{ captcha: Captcha }> = async (app, { captcha }) => {
  app.get('/config/', { config: { openapi: DOCS.config } }, async () => captcha.config);

  app.get('/challenge/', { config: { openapi: DOCS.challenge } }, async (request, reply) => {
    if (!captcha.createChallenge) {
      return reply.status(404).send({ detail: 'El CAPTCHA configurado no usa desafíos de este servidor.' });
    }
    const action = (request.query as { action?: unknown }).action ?? 'register';
    if (!isCaptchaAction(action)) return reply.status(400).send({ detail: 'Acción de CAPTCHA desconocida.' });
    // Every challenge is new and single-use: nothing may cache it.
    return reply.header('cache-control', 'no-store').send(await captcha.createChallenge(action));
  });
};
