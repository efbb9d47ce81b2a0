import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

export const DEMO_PASSWORD = 'Flujo-Demo-2026!';

/** A cheap ALTCHA for tests that only need some solution (the real difficulty is tested once). */
export const CHEAP_ALTCHA = { cost: 10, counterMin: 5, counterMax: 50 };

/**
 * What the ALTCHA widget does: fetch a challenge from the server, solve the proof of work with altcha-lib's
 * solver, and return the base64 payload the sign-up form sends as recaptcha_token.
 */
export async function solveAltcha(app: FastifyInstance, action = 'register'): Promise<string> {
  const res = await app.inject({ method: 'GET', url: `/api/accounts/captcha/challenge/?action=${action}` });
  if (res.statusCode !== 200) throw new Error(`challenge: ${res.statusCode} ${res.body}`);
  const challenge = res.json<Challenge>();
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('ALTCHA challenge not solved');
  const payload = {
    challenge: { parameters: challenge.parameters, signature: challenge.signature },
    solution,
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

export interface Session {
  access: string;
  refresh: string;
}

export async function loginAs(
  app: FastifyInstance,
  username: string,
  password = DEMO_PASSWORD,
  remoteAddress = '127.0.0.1',
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/api/accounts/login/',
    payload: { username, password },
    remoteAddress,
  });
}

export async function sessionFor(
  app: FastifyInstance,
  username: string,
  password = DEMO_PASSWORD,
): Promise<Session> {
  const res = await loginAs(app, username, password);
  if (res.statusCode !== 200) throw new Error(`login ${username}: ${res.statusCode} ${res.body}`);
  return res.json<Session>();
}

export const bearer = (session: Session | string) => ({
  authorization: `Bearer ${typeof session === 'string' ? session : session.access}`,
});

let sequence = 0;

/** A valid sign-up payload with unique username and e-mail. */
export function signUpPayload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  sequence += 1;
  const tag = `${Date.now().toString(36)}${sequence}`;
  return {
    company: 'Aceros del Pacífico, S.A. de C.V.',
    email: `mariana.${tag}@aceros.example.mx`,
    last_name: 'Quintero',
    mobile_phone: '3312345678',
    name: 'Mariana',
    // Shares almost no letters with the generated names, so the similarity rule can never trip on a random tag.
    password1: 'Vhx-9Kw!Tq2-Jpy',
    password2: 'Vhx-9Kw!Tq2-Jpy',
    username: `mariana.${tag}`,
    receive_notification: true,
    recaptcha_token: 'to-be-replaced',
    ...overrides,
  };
}
