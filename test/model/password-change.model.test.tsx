import { screen, waitFor, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { ACCOUNT_MESSAGES } from '../../server/modules/accounts/messages';
import { verifyPassword } from '../../server/modules/accounts/password';
import { PASSWORD_CHANGE_FAILED } from '../../src/machines/password-change.machine';
import { ACCESS_TOKEN_KEY } from '../../src/stores/storage-keys';
import { ENDPOINT, input, LABELS, PATH, submitButton, USERNAME } from '../screens/password-change.page';
import { SERVER_WAIT } from '../support/server-wait';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp, signInAs } from './harness/render-app';
import { testApp } from './harness/test-server';
import {
  CHANGE_VALUES,
  CHANGED_PASSWORD,
  passwordChangeModel,
  SERVER_ERROR_BODY,
  WRONG_CURRENT_BODY,
} from './password-change.model';

// The machine's real snackbar time is 2 s (spec §9).

interface Ctx {
  call: ReturnType<typeof gateEndpoint>;
  assign: ReturnType<typeof vi.spyOn>;
  passwordHash: string;
  /** The status of the last fault the model released, to tell a 401 apart in the failed state. */
  fault: number | null;
}

const db = () => testApp().database.db;

async function passwordHashOf(username: string): Promise<string> {
  const row = await db()
    .selectFrom('users')
    .select('password_hash')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return row.password_hash;
}

function contextOf(state: AnyMachineSnapshot): {
  message: string | null;
  error: string | null;
  fieldErrors: { old_password?: string[] };
} {
  return state.context as ReturnType<typeof contextOf>;
}

defineModelTests<Ctx>(passwordChangeModel, {
  setup: async () => {
    await db().deleteFrom('throttle_hits').execute();
    const passwordHash = await passwordHashOf(USERNAME);
    await signInAs(USERNAME);
    return {
      call: gateEndpoint('post', ENDPOINT),
      // A DOM test cannot reload the page; the spy records the reload to '/' that a 401 asks for.
      assign: vi.spyOn(Location.prototype, 'assign').mockImplementation(() => {}),
      passwordHash,
      fault: null,
    };
  },
  render: () => {
    renderApp(PATH);
  },
  teardown: async (ctx) => {
    ctx.assign.mockRestore();
    // A successful path changed the demo user's password; the next path signs in with the seeded one.
    await db()
      .updateTable('users')
      .set({ password_hash: ctx.passwordHash })
      .where('username', '=', USERNAME)
      .execute();
  },
  states: {
    '#passwordChange.editing': async ({ state }) => {
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Cambiar clave' }, SERVER_WAIT),
      ).toBeTruthy();
      await waitFor(() => expect(screen.queryAllByRole('alert')).toEqual([]), SERVER_WAIT);
      // Issue 33: a wrong current password stays under its field (the server's text), not in a toast; what
      // was typed stays for the correction, which starts there.
      const current = input(LABELS.old_password);
      if (contextOf(state).fieldErrors.old_password) {
        await waitFor(() => expect(current.getAttribute('aria-invalid')).toBe('true'), SERVER_WAIT);
        const message = document.getElementById(current.getAttribute('aria-describedby') ?? '');
        expect(message?.textContent).toBe(WRONG_CURRENT_BODY.old_password[0]);
        expect(current.value).toBe(CHANGE_VALUES.old_password);
        await waitFor(() => expect(document.activeElement).toBe(current), SERVER_WAIT);
      } else {
        expect(current.getAttribute('aria-invalid')).toBeNull();
      }
      for (const label of Object.values(LABELS)) expect(input(label).disabled).toBe(false);
      expect(submitButton().disabled).toBe(false);
      // Spec §5: the server-enforced rules are static hints.
      expect(screen.getByText('Su contraseña no puede ser una clave utilizada comúnmente.')).toBeTruthy();
    },
    '#passwordChange.submitting': async () => {
      await waitFor(() => expect(submitButton().disabled).toBe(true), SERVER_WAIT);
      expect(input(LABELS.old_password).disabled).toBe(true);
    },
    '#passwordChange.changed': async ({ state }) => {
      // The server's message for 2 s; the passwords leave the form; the new one is the one that works.
      expect((await screen.findByRole('alert', {}, SERVER_WAIT)).textContent).toBe(
        ACCOUNT_MESSAGES.passwordChanged,
      );
      expect(contextOf(state).error).toBeNull();
      await waitFor(() => expect(input(LABELS.new_password1).value).toBe(''), SERVER_WAIT);
      expect(input(LABELS.old_password).value).toBe('');
      // Checked on the stored hash, not by logging in: the 2 s snackbar must still be there for the next step.
      expect(await verifyPassword(await passwordHashOf(USERNAME), CHANGED_PASSWORD)).toBe(true);
    },
    '#passwordChange.failed': async ({ ctx, state }) => {
      const toast = await screen.findByRole('alert', {}, SERVER_WAIT);
      expect(toast.textContent).toBe(contextOf(state).error);
      // A 400 naming the fields shows under them (the editing state); anything else shows the generic text,
      // never the server's own (a 500's detail included).
      expect(toast.textContent).toBe(PASSWORD_CHANGE_FAILED);
      expect(toast.textContent).not.toContain(SERVER_ERROR_BODY.detail);
      if (ctx.fault === 401) {
        // Spec §8: a 401 clears all local storage and sends the browser to '/'.
        expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
        expect(localStorage.length).toBe(0);
        expect(ctx.assign).toHaveBeenCalledWith('/');
      } else {
        // What was typed stays for a correction.
        expect(input(LABELS.old_password).value).toBe(CHANGE_VALUES.old_password);
        expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeTruthy();
      }
    },
  },
  events: {
    'passwordChange.submit': async ({ user }) => {
      for (const [field, label] of Object.entries(LABELS)) {
        await user.clear(input(label));
        await user.type(input(label), CHANGE_VALUES[field as keyof typeof LABELS]);
      }
      await user.click(submitButton());
    },
    'passwordChange.dismiss': async ({ user }) => {
      const toast = (await screen.findByRole('alert', {}, SERVER_WAIT)).closest('.bp6-toast') as HTMLElement;
      await user.click(within(toast).getByRole('button', { name: 'Cerrar' }));
    },
    'xstate.done.actor.changePassword': async ({ ctx }) => {
      await ctx.call.pass();
      expect(ctx.call.bodies.at(-1)).toEqual(CHANGE_VALUES);
    },
    'xstate.error.actor.changePassword': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number; body: unknown } };
      ctx.fault = error.status;
      if (error.status === 0) await ctx.call.networkError();
      else await ctx.call.respond(error.status, error.body);
    },
    'xstate.after.TOAST_MS.passwordChange.changed': async () => {
      await waitFor(() => expect(screen.queryByRole('alert')).toBeNull(), SERVER_WAIT);
    },
    'xstate.after.TOAST_MS.passwordChange.failed': async () => {
      await waitFor(() => expect(screen.queryByRole('alert')).toBeNull(), SERVER_WAIT);
    },
  },
});
