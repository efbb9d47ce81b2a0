import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { SIGN_UP_VALUES } from '../../test/fixtures/sign-up';
import type { SignUpRequest } from '../domain/schemas/session';
import { SIGN_UP_FAILED, signUpErrorMessage, signUpMachine } from './sign-up.machine';

const THROTTLED = 'Demasiados intentos. Intenta de nuevo en unos minutos.';

describe('signUpErrorMessage', () => {
  it('shows the first field error of a 400', () => {
    const error = { status: 400, body: { username: ['Ya existe un usuario con este nombre de usuario.'] } };
    expect(signUpErrorMessage(error)).toBe('Ya existe un usuario con este nombre de usuario.');
  });
  it("shows the server's own text of a 429 (too many attempts)", () => {
    expect(signUpErrorMessage({ status: 429, body: { detail: THROTTLED } })).toBe(THROTTLED);
    expect(signUpErrorMessage({ status: 429, body: {} })).toBe(SIGN_UP_FAILED);
    expect(signUpErrorMessage({ status: 429, body: { detail: '  ' } })).toBe(SIGN_UP_FAILED);
  });
  it('never shows raw server text for other failures', () => {
    expect(signUpErrorMessage({ status: 500, body: { detail: 'Error interno' } })).toBe(SIGN_UP_FAILED);
    expect(signUpErrorMessage({ status: 400, body: { detail: 'Mal' } })).toBe(SIGN_UP_FAILED);
    expect(signUpErrorMessage({ status: 0, body: null })).toBe(SIGN_UP_FAILED);
    expect(signUpErrorMessage(new Error('boom'))).toBe(SIGN_UP_FAILED);
  });
});

describe('signUpMachine', () => {
  it('shows the throttle text of a refused sign-up and keeps no field errors', async () => {
    const sent: SignUpRequest[] = [];
    const actor = createActor(
      signUpMachine.provide({
        actors: {
          obtainCaptcha: fromPromise<string>(async () => 'captcha'),
          register: fromPromise<unknown, SignUpRequest>(async ({ input }) => {
            sent.push(input);
            throw { status: 429, body: { detail: THROTTLED } };
          }),
        },
      }),
    ).start();
    actor.send({ type: 'signUp.submit', values: SIGN_UP_VALUES });
    const failed = await waitFor(actor, (state) => state.matches('failed'));
    expect(failed.context.message).toBe(THROTTLED);
    expect(failed.context.fieldErrors).toEqual({});
    expect(failed.context.captchaToken).toBeNull();
    expect(sent).toEqual([{ ...SIGN_UP_VALUES, recaptcha_token: 'captcha' }]);
    actor.stop();
  });
});
