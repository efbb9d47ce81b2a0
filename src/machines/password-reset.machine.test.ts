import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { PasswordReset } from '../domain/schemas/session';
import { PASSWORD_RESET_FAILED, passwordResetMachine } from './password-reset.machine';

const VALUES: PasswordReset = { new_password: 'Nueva-Clave-1', token: 'abc' };

function machineAnswering(answer: () => Promise<{ message: string }>, onLogin: () => void) {
  return passwordResetMachine.provide({
    actors: { resetPassword: fromPromise<{ message: string }, PasswordReset>(answer) },
    actions: { goToLogin: onLogin },
    delays: { REDIRECT_MS: 10, TOAST_MS: 10 },
  });
}

describe('passwordResetMachine', () => {
  it('shows the server message, then goes to login after REDIRECT_MS (spec §4)', async () => {
    let logins = 0;
    const actor = createActor(
      machineAnswering(
        async () => ({ message: 'Listo' }),
        () => logins++,
      ),
    ).start();
    actor.send({ type: 'passwordReset.submit', values: VALUES });
    const done = await waitFor(actor, (s) => s.matches('done'));
    expect(done.context.message).toBe('Listo');
    expect(logins).toBe(0);
    await waitFor(actor, (s) => s.status === 'done');
    expect(logins).toBe(1);
  });

  it('shows the first old_password error (spec §8) and returns to editing after the toast', async () => {
    const actor = createActor(
      machineAnswering(
        async () => {
          throw { status: 400, body: { old_password: ['El enlace expiró.'], token: ['El enlace expiró.'] } };
        },
        () => {},
      ),
    ).start();
    actor.send({ type: 'passwordReset.submit', values: VALUES });
    expect((await waitFor(actor, (s) => s.matches('failed'))).context.error).toBe('El enlace expiró.');
    expect((await waitFor(actor, (s) => s.matches('editing'))).context.error).toBeNull();
  });

  it('uses its own text when the server gives none', async () => {
    const actor = createActor(
      machineAnswering(
        async () => {
          throw { status: 500, body: { detail: 'Error interno' } };
        },
        () => {},
      ),
    ).start();
    actor.send({ type: 'passwordReset.submit', values: VALUES });
    expect((await waitFor(actor, (s) => s.matches('failed'))).context.error).toBe(PASSWORD_RESET_FAILED);
  });
});
