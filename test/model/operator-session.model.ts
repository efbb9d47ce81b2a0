import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { OPERATOR_LOGIN_MESSAGES } from '../../src/domain/schemas/operator-session';
import { operatorSessionMachine } from '../../src/machines/operator-session.machine';
import type { MachineModel } from './harness/model';

/** The demo operator of the file's own database (server/seed/demo-operators.ts). */
export const OPERATOR_CREDENTIALS = { username: 'operador.demo', password: 'Flujo-Demo-2026!' };

/** A server error whose text must never reach the operator. */
export const SERVER_ERROR_BODY = { detail: 'Error interno del servidor' };

// Outcomes of each step: the challenge, an ordinary session (a provider at the operators' door), a wrong
// password, a lockout (429), a server error and no answer; for the code, the session, a wrong code (400), a
// challenge over (401), a lockout (429), a server error and no answer.
export const operatorSessionModel: MachineModel = {
  id: 'operator-session',
  machine: operatorSessionMachine,
  // The code step looks different when it asks for a recovery code; the guards read that too.
  abstract: (s: AnyMachineSnapshot) => [s.value, (s.context as { recovery: boolean }).recovery],
  events: [
    { type: 'operatorSession.submitPassword', credentials: OPERATOR_CREDENTIALS },
    { type: 'xstate.done.actor.login', output: { mfa_required: true, mfa_token: 'reto' } },
    { type: 'xstate.done.actor.login', output: { access: 'a', refresh: 'r' } },
    {
      type: 'xstate.error.actor.login',
      error: { status: 401, body: { detail: 'Error en contraseña o usuario' } },
    },
    {
      type: 'xstate.error.actor.login',
      error: { status: 429, body: { detail: OPERATOR_LOGIN_MESSAGES.locked } },
    },
    { type: 'xstate.error.actor.login', error: { status: 500, body: SERVER_ERROR_BODY } },
    { type: 'xstate.error.actor.login', error: { status: 0, body: null } },
    { type: 'operatorSession.submitCode', code: '123456' },
    { type: 'operatorSession.useRecoveryCode' },
    { type: 'operatorSession.useAuthenticator' },
    { type: 'operatorSession.restart' },
    {
      type: 'xstate.done.actor.verifyCode',
      output: { access: 'a', refresh: 'r', is_corporate: false, operator: {} },
    },
    {
      type: 'xstate.error.actor.verifyCode',
      error: { status: 400, body: { code: [OPERATOR_LOGIN_MESSAGES.wrongCode] } },
    },
    {
      type: 'xstate.error.actor.verifyCode',
      error: { status: 401, body: { detail: OPERATOR_LOGIN_MESSAGES.challengeExpired } },
    },
    {
      type: 'xstate.error.actor.verifyCode',
      error: { status: 429, body: { detail: OPERATOR_LOGIN_MESSAGES.locked } },
    },
    { type: 'xstate.error.actor.verifyCode', error: { status: 500, body: SERVER_ERROR_BODY } },
    { type: 'xstate.error.actor.verifyCode', error: { status: 0, body: null } },
  ] as readonly EventObject[],
};
