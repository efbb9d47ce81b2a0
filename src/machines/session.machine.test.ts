import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { MESSAGES } from '../domain/schemas/fields';
import { SERVER_MESSAGES } from '../domain/schemas/session';
import type { LoginAttempt } from '../domain/session';
import { type SessionTokens, type StoredSession, sessionMachine } from './session.machine';

const CREDENTIALS = { username: 'proveedor.demo', password: 'x' };
const CAPTCHA_REQUIRED = {
  status: 400,
  body: { captcha_token: [SERVER_MESSAGES.loginCaptchaRequired], captcha_required: true },
};

/** A signed-out session whose login answers the given failures, recording each attempt. */
function signedOut(failures: unknown[]) {
  const attempts: LoginAttempt[] = [];
  const machine = sessionMachine.provide({
    actors: {
      readStoredSession: fromPromise<StoredSession>(async () => ({ accessToken: null })),
      login: fromPromise<SessionTokens, LoginAttempt>(async ({ input }) => {
        attempts.push(input);
        throw failures.shift();
      }),
    },
    delays: { ERROR_TOAST_MS: 60_000 },
  });
  return { actor: createActor(machine).start(), attempts };
}

async function tryLogin(actor: ReturnType<typeof signedOut>['actor']) {
  actor.send({ type: 'session.login', credentials: CREDENTIALS });
  await waitFor(actor, (state) => state.matches({ unauthenticated: 'failed' }));
}

describe('session machine: the CAPTCHA a login may need', () => {
  it('asks for the CAPTCHA on every later try once the server said it is required', async () => {
    const { actor, attempts } = signedOut([
      { status: 401, body: { detail: 'Error en contraseña o usuario' } },
      CAPTCHA_REQUIRED,
      { status: 401, body: { detail: 'Error en contraseña o usuario' } },
    ]);
    await waitFor(actor, (state) => state.matches({ unauthenticated: 'idle' }));
    await tryLogin(actor);
    expect(actor.getSnapshot().context.captchaRequired).toBe(false);
    await tryLogin(actor);
    expect(actor.getSnapshot().context.captchaRequired).toBe(true);
    expect(actor.getSnapshot().context.error).toBe(SERVER_MESSAGES.loginCaptchaRequired);
    await tryLogin(actor);
    expect(attempts.map((attempt) => attempt.withCaptcha)).toEqual([false, false, true]);
    expect(attempts.every((attempt) => attempt.credentials === CREDENTIALS)).toBe(true);
  });

  it('shows a refused CAPTCHA as its message', async () => {
    const { actor } = signedOut([
      { status: 400, body: { captcha_token: [MESSAGES.captchaFailed], captcha_required: true } },
    ]);
    await waitFor(actor, (state) => state.matches({ unauthenticated: 'idle' }));
    await tryLogin(actor);
    expect(actor.getSnapshot().context).toMatchObject({
      captchaRequired: true,
      error: MESSAGES.captchaFailed,
    });
  });
});
