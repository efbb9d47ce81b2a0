import type { EventObject } from 'xstate';
import type { SignUpForm } from '../../src/domain/schemas/session';
import { signUpMachine } from '../../src/machines/sign-up.machine';
import type { MachineModel } from './harness/model';

export const SIGN_UP_VALUES: SignUpForm = {
  name: 'Ana',
  last_name: 'Quintero',
  username: 'ana.quintero',
  mobile_phone: '5512349876',
  company: 'Refacciones Quintero',
  email: 'ana.quintero@ejemplo.mx',
  password1: 'Cobranza-Segura-2026',
  password2: 'Cobranza-Segura-2026',
  receive_notification: false,
};

/** The server's real 400 for a taken username (test/api/accounts-register.test.ts). */
export const USERNAME_TAKEN = { username: ['Ya existe un usuario con este nombre de usuario.'] };

export const signUpModel: MachineModel = {
  id: 'sign-up',
  machine: signUpMachine,
  events: [
    { type: 'signUp.submit', values: SIGN_UP_VALUES },
    { type: 'signUp.dismiss' },
    { type: 'xstate.done.actor.obtainCaptcha', output: 'altcha-payload' },
    { type: 'xstate.error.actor.obtainCaptcha', error: new Error('CAPTCHA no disponible') },
    { type: 'xstate.done.actor.register', output: { message: 'ok' } },
    { type: 'xstate.error.actor.register', error: { status: 400, body: USERNAME_TAKEN } },
    { type: 'xstate.error.actor.register', error: { status: 0, body: null } },
  ] as readonly EventObject[],
};
