import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { PasswordChange } from '../domain/schemas/session';
import {
  PASSWORD_CHANGE_FAILED,
  passwordChangeFieldErrors,
  passwordChangeMachine,
  passwordErrorMessage,
} from './password-change.machine';

const VALUES: PasswordChange = {
  old_password: 'a',
  new_password1: 'Nueva-Clave-1',
  new_password2: 'Nueva-Clave-1',
};

describe('passwordErrorMessage', () => {
  it('prefers the first old_password item (spec §8)', () => {
    const error = { status: 400, body: { new_password2: ['Común'], old_password: ['Incorrecta', 'Otra'] } };
    expect(passwordErrorMessage(error, 'x')).toBe('Incorrecta');
  });
  it('falls back to the first message of another field, then message/detail, of a 400', () => {
    expect(passwordErrorMessage({ status: 400, body: { token: ['Vencido'] } }, 'x')).toBe('Vencido');
    expect(passwordErrorMessage({ status: 400, body: { detail: 'Mal' } }, 'x')).toBe('Mal');
  });
  it('shows the throttle text of a 429', () => {
    const error = { status: 429, body: { detail: 'Demasiados intentos. Intenta de nuevo en unos minutos.' } };
    expect(passwordErrorMessage(error, 'x')).toBe('Demasiados intentos. Intenta de nuevo en unos minutos.');
    expect(passwordErrorMessage({ status: 429, body: {} }, 'x')).toBe('x');
  });
  it('never shows raw server text for other failures', () => {
    expect(passwordErrorMessage({ status: 500, body: { detail: 'Error interno' } }, 'x')).toBe('x');
    expect(passwordErrorMessage({ status: 0, body: null }, 'x')).toBe('x');
    expect(passwordErrorMessage(new Error('boom'), 'x')).toBe('x');
    expect(passwordErrorMessage({ status: 400, body: { old_password: [] } }, 'x')).toBe('x');
  });
});

describe('passwordChangeMachine', () => {
  it('sends the values and keeps the server message', async () => {
    const sent: PasswordChange[] = [];
    const actor = createActor(
      passwordChangeMachine.provide({
        actors: {
          changePassword: fromPromise<{ message: string }, PasswordChange>(async ({ input }) => {
            sent.push(input);
            return { message: 'Listo' };
          }),
        },
      }),
    ).start();
    actor.send({ type: 'passwordChange.submit', values: VALUES });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    const changed = await waitFor(actor, (s) => s.matches('changed'));
    expect(changed.context).toEqual({ message: 'Listo', error: null, fieldErrors: {} });
    expect(sent).toEqual([VALUES]);
  });

  it('shows the generic text when there is no answer, and clears it on dismiss', async () => {
    const actor = createActor(
      passwordChangeMachine.provide({
        actors: {
          changePassword: fromPromise<{ message: string }, PasswordChange>(async () => {
            throw { status: 0, body: null };
          }),
        },
      }),
    ).start();
    actor.send({ type: 'passwordChange.submit', values: VALUES });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context.error).toBe(PASSWORD_CHANGE_FAILED);
    actor.send({ type: 'passwordChange.dismiss' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('puts a wrong current password under its field, not in a toast, until the next attempt (issue 33)', async () => {
    let calls = 0;
    const actor = createActor(
      passwordChangeMachine.provide({
        actors: {
          changePassword: fromPromise<{ message: string }, PasswordChange>(async () => {
            calls += 1;
            if (calls === 1)
              throw { status: 400, body: { old_password: ['La contraseña actual es incorrecta.'] } };
            return { message: 'Listo' };
          }),
        },
      }),
    ).start();
    actor.send({ type: 'passwordChange.submit', values: VALUES });
    const corrected = await waitFor(actor, (s) => s.matches('editing') && calls === 1);
    expect(corrected.context).toEqual({
      message: null,
      error: null,
      fieldErrors: { old_password: ['La contraseña actual es incorrecta.'] },
    });
    actor.send({ type: 'passwordChange.submit', values: VALUES });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({});
    await waitFor(actor, (s) => s.matches('changed'));
  });

  it('keeps a 400 that names no field of the form in the toast', async () => {
    const actor = createActor(
      passwordChangeMachine.provide({
        actors: {
          changePassword: fromPromise<{ message: string }, PasswordChange>(async () => {
            throw { status: 400, body: { detail: 'Mal' } };
          }),
        },
      }),
    ).start();
    actor.send({ type: 'passwordChange.submit', values: VALUES });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context.error).toBe('Mal');
    expect(failed.context.fieldErrors).toEqual({});
  });

  it('shows each new-password rule once, under its own field, not again under the current password', async () => {
    const common = 'La contraseña es demasiado común.';
    const wrong = 'La contraseña actual es incorrecta.';
    expect(
      passwordChangeFieldErrors({ status: 400, body: { new_password2: [common], old_password: [common] } }),
    ).toEqual({ new_password2: [common] });
    expect(
      passwordChangeFieldErrors({
        status: 400,
        body: { new_password2: [common], old_password: [wrong, common] },
      }),
    ).toEqual({ new_password2: [common], old_password: [wrong] });
    expect(passwordChangeFieldErrors({ status: 500, body: { old_password: [wrong] } })).toEqual({});
  });
});
