import type { FastifyPluginAsync } from 'fastify';
import { type Captcha, isCaptchaAction } from './captcha';

/** GET config/ (which CAPTCHA the browser runs) and challenge/ (an ALTCHA challenge for the widget). */
export const captchaRoutes: FastifyPluginAsync<{ captcha: Captcha }> = async (app, { captcha }) => {
  app.get('/config/', async () => captcha.config);

  app.get('/challenge/', async (request, reply) => {
    if (!captcha.createChallenge) {
      return reply.status(404).send({ detail: 'El CAPTCHA configurado no usa desafíos de este servidor.' });
    }
    const action = (request.query as { action?: unknown }).action ?? 'register';
    if (!isCaptchaAction(action)) return reply.status(400).send({ detail: 'Acción de CAPTCHA desconocida.' });
    // Every challenge is new and single-use: nothing may cache it.
    return reply.header('cache-control', 'no-store').send(await captcha.createChallenge(action));
  });
};
