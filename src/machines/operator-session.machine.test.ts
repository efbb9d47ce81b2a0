import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type {
  MfaLoginRequest,
  OperatorLoginAnswer,
  OperatorSessionResponse,
} from '../domain/schemas/operator-session';
import { type LoginRequest, SERVER_MESSAGES } from '../domain/schemas/session';
import type { LoginAttempt } from '../domain/session';
import {
  NOT_AN_OPERATOR,
  OPERATOR_LOGIN_FAILED,
  operatorLoginError,
  operatorSessionMachine,
} from './operator-session.machine';

const CREDENTIALS: LoginRequest = { username: 'operador.demo', password: 'x' };
const SESSION: OperatorSessionResponse = {
  access: 'a',
  refresh: 'r',
  is_corporate: false,
  operator: { username: 'operador.demo', first_name: 'Andrea', last_name: 'V', roles: ['analista'] },
};

function actorWith(codeAnswers: Array<OperatorSessionResponse | { status: number; body: unknown }>) {
  const sentCodes: MfaLoginRequest[] = [];
  const started: OperatorSessionResponse[] = [];
  const machine = operatorSessionMachine.provide({
    actors: {
      login: fromPromise<OperatorLoginAnswer, LoginAttempt>(async () => ({
        mfa_required: true,
        mfa_token: 'tok',
      })),
      verifyCode: fromPromise<OperatorSessionResponse, MfaLoginRequest>(async ({ input }) => {
        sentCodes.push(input);
        const answer = codeAnswers.shift();
        if (!answer || 'status' in answer) throw answer;
        return answer;
      }),
    },
    actions: { startSession: (_, { session }) => started.push(session) },
  });
  return { actor: createActor(machine).start(), sentCodes, started };
}

describe('operatorLoginError', () => {
  it("shows a 4xx's own words and hides a server error's", () => {
    expect(operatorLoginError({ status: 400, body: { code: ['Mal código'] } })).toBe('Mal código');
    expect(operatorLoginError({ status: 401, body: { detail: 'Expiró' } })).toBe('Expiró');
    expect(operatorLoginError({ status: 500, body: { detail: 'Error interno' } })).toBe(
      OPERATOR_LOGIN_FAILED,
    );
    expect(operatorLoginError({ status: 0, body: null })).toBe(OPERATOR_LOGIN_FAILED);
  });
});

describe('operatorSessionMachine: the CAPTCHA a login may need (decision 0061)', () => {
  it('solves the CAPTCHA on every later try once the server said it is required, and says why', async () => {
    const attempts: LoginAttempt[] = [];
    const failures: unknown[] = [
      { status: 401, body: { detail: 'Error en contraseña o usuario' } },
      {
        status: 400,
        body: { captcha_token: [SERVER_MESSAGES.loginCaptchaRequired], captcha_required: true },
      },
      { status: 401, body: { detail: 'Error en contraseña o usuario' } },
    ];
    const machine = operatorSessionMachine.provide({
      actors: {
        login: fromPromise<OperatorLoginAnswer, LoginAttempt>(async ({ input }) => {
          attempts.push(input);
          throw failures.shift();
        }),
      },
    });
    const actor = createActor(machine).start();
    for (let i = 0; i < 3; i++) {
      actor.send({ type: 'operatorSession.submitPassword', credentials: CREDENTIALS });
      await waitFor(actor, (s) => s.matches('password') && s.context.error !== null);
      if (i === 1) expect(actor.getSnapshot().context.error).toBe(SERVER_MESSAGES.loginCaptchaRequired);
    }
    expect(attempts.map((attempt) => attempt.withCaptcha)).toEqual([false, false, true]);
    expect(actor.getSnapshot().context.captchaRequired).toBe(true);
  });
});

describe('operatorSessionMachine', () => {
  it('goes password → code → signed in, sending the challenge with the code', async () => {
    const { actor, sentCodes, started } = actorWith([{ status: 400, body: { code: ['Mal'] } }, SESSION]);
    actor.send({ type: 'operatorSession.submitPassword', credentials: CREDENTIALS });
    await waitFor(actor, (s) => s.matches('code'));
    actor.send({ type: 'operatorSession.submitCode', code: '000000' });
    await waitFor(actor, (s) => s.matches('code') && s.context.error === 'Mal');
    actor.send({ type: 'operatorSession.useRecoveryCode' });
    expect(actor.getSnapshot().context.recovery).toBe(true);
    actor.send({ type: 'operatorSession.submitCode', code: 'ABCDE-FGHJK' });
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(sentCodes).toEqual([
      { mfa_token: 'tok', code: '000000' },
      { mfa_token: 'tok', code: 'ABCDE-FGHJK' },
    ]);
    expect(started).toEqual([SESSION]);
  });

  it('locks on a 429 and asks the password again on a 401', async () => {
    const locked = actorWith([{ status: 429, body: { detail: 'Bloqueado' } }]);
    locked.actor.send({ type: 'operatorSession.submitPassword', credentials: CREDENTIALS });
    await waitFor(locked.actor, (s) => s.matches('code'));
    locked.actor.send({ type: 'operatorSession.submitCode', code: '000000' });
    await waitFor(locked.actor, (s) => s.matches('locked'));
    expect(locked.actor.getSnapshot().context).toMatchObject({ error: 'Bloqueado', mfaToken: null });

    const expired = actorWith([{ status: 401, body: { detail: 'Expiró' } }]);
    expired.actor.send({ type: 'operatorSession.submitPassword', credentials: CREDENTIALS });
    await waitFor(expired.actor, (s) => s.matches('code'));
    expired.actor.send({ type: 'operatorSession.submitCode', code: '000000' });
    await waitFor(expired.actor, (s) => s.matches('password'));
    expect(expired.actor.getSnapshot().context).toMatchObject({ error: 'Expiró', mfaToken: null });
  });

  it('turns away a provider whose password opened an ordinary session', async () => {
    const machine = operatorSessionMachine.provide({
      actors: {
        login: fromPromise<OperatorLoginAnswer, LoginAttempt>(async () => ({ access: 'a', refresh: 'r' })),
      },
    });
    const actor = createActor(machine).start();
    actor.send({ type: 'operatorSession.submitPassword', credentials: CREDENTIALS });
    await waitFor(actor, (s) => s.matches('password') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe(NOT_AN_OPERATOR);
  });
});
