import type { EventObject } from 'xstate';
import { MESSAGES as HTTP_MESSAGES } from '../../server/modules/auth/http-errors';
import { signUpMachine } from '../../src/machines/sign-up.machine';
import { SIGN_UP_VALUES } from '../fixtures/sign-up';
import type { MachineModel } from './harness/model';

/** The server's real 400 for a taken username (test/api/accounts-register.test.ts). */
export const USERNAME_TAKEN = { username: ['Ya existe un usuario con este nombre de usuario.'] };

/** The server's real 429 for too many sign-ups from one address. */
export const TOO_MANY_SIGN_UPS = { detail: HTTP_MESSAGES.tooManyAttempts };

/** A server error whose text must never reach the visitor. */
export const SERVER_ERROR = { detail: 'Error interno del servidor' };

export const signUpModel: MachineModel = {
  id: 'sign-up',
  machine: signUpMachine,
  events: [
    { type: 'signUp.submit', values: SIGN_UP_VALUES },
    { type: 'signUp.dismiss' },
    { type: 'xstate.done.actor.obtainCaptcha', output: 'altcha-payload' },
    { type: 'xstate.error.actor.obtainCaptcha', error: new Error('CAPTCHA no disponible') },
    { type: 'xstate.done.actor.register', output: { message: 'ok' } },
    // Refused: a taken username (400), too many attempts (429), a server error (500), no response.
    { type: 'xstate.error.actor.register', error: { status: 400, body: USERNAME_TAKEN } },
    { type: 'xstate.error.actor.register', error: { status: 429, body: TOO_MANY_SIGN_UPS } },
    { type: 'xstate.error.actor.register', error: { status: 500, body: SERVER_ERROR } },
    { type: 'xstate.error.actor.register', error: { status: 0, body: null } },
  ] as readonly EventObject[],
};
