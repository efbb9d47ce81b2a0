import type { EventObject } from 'xstate';
import { INVALID_REFRESH_TOKEN } from '../../src/domain/session';
import { sessionMachine } from '../../src/machines/session.machine';
import type { MachineModel } from './harness/model';

function unsignedJwt(exp: number): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ exp })}.firma`;
}

/** What the browser may hold at load (spec §4): the test seeds storage to match the partition. */
export const STORED = {
  valid: unsignedJwt(4_102_444_800), // 2100-01-01
  expired: unsignedJwt(1_577_836_800), // 2020-01-01
  undecodable: 'esto-no-es-un-jwt',
} as const;

export const DEMO_CREDENTIALS = { username: 'proveedor.demo', password: 'Flujo-Demo-2026!' };

export const sessionModel: MachineModel = {
  id: 'session',
  machine: sessionMachine,
  events: [
    { type: 'xstate.done.actor.readStoredSession', output: { accessToken: STORED.valid } },
    { type: 'xstate.done.actor.readStoredSession', output: { accessToken: STORED.expired } },
    { type: 'xstate.done.actor.readStoredSession', output: { accessToken: STORED.undecodable } },
    { type: 'xstate.done.actor.readStoredSession', output: { accessToken: null } },
    // Storage disabled by the browser (privacy settings): reading it throws a SecurityError.
    { type: 'xstate.error.actor.readStoredSession', error: 'SecurityError' },
    { type: 'session.login', credentials: DEMO_CREDENTIALS },
    { type: 'xstate.done.actor.login', output: { access: STORED.valid, refresh: 'r' } },
    {
      type: 'xstate.error.actor.login',
      error: { status: 401, body: { detail: 'Error en contraseña o usuario' } },
    },
    { type: 'xstate.error.actor.login', error: { status: 0, body: null } },
    {
      type: 'xstate.error.actor.login',
      error: { status: 500, body: { detail: 'Error interno del servidor. Por favor, intenta de nuevo.' } },
    },
    { type: 'session.dismissError' },
    { type: 'session.logout' },
    // Logout outcomes: the server revoked the session; it failed or did not answer (signed out all the same).
    { type: 'xstate.done.actor.revokeSession' },
    {
      type: 'xstate.error.actor.revokeSession',
      error: { status: 500, body: { detail: 'Error interno del servidor. Por favor, intenta de nuevo.' } },
    },
    { type: 'xstate.error.actor.revokeSession', error: { status: 0, body: null } },
    { type: 'xstate.done.actor.refreshSession', output: { access: STORED.valid, refresh: 'r2' } },
    // Refresh outcomes: rotated, session over (401, or no refresh token left: 'Invalid refresh token'),
    // server error and no response (both retried later).
    { type: 'xstate.error.actor.refreshSession', error: { status: 401, body: { detail: 'Token inválido' } } },
    { type: 'xstate.error.actor.refreshSession', error: { message: INVALID_REFRESH_TOKEN } },
    {
      type: 'xstate.error.actor.refreshSession',
      error: { status: 500, body: { detail: 'Error interno del servidor. Por favor, intenta de nuevo.' } },
    },
    { type: 'xstate.error.actor.refreshSession', error: { status: 0, body: null } },
  ] as readonly EventObject[],
};
