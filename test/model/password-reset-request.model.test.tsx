import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { ACCOUNT_MESSAGES } from '../../server/modules/accounts/messages';
import { RESET_REQUEST_FAILED, UNKNOWN_EMAIL } from '../../src/machines/password-reset-request.machine';
import {
  ENDPOINT,
  emailInput,
  forgetThrottles,
  PATH,
  submitButton,
} from '../screens/password-reset-request.page';
import { SERVER_WAIT } from '../support/server-wait';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp } from './harness/render-app';
import { testApp } from './harness/test-server';
import { passwordResetRequestModel, REGISTERED_EMAIL } from './password-reset-request.model';

// The machine's real toast time is 3 s; waiting for it to pass needs some slack.

interface Ctx {
  call: ReturnType<typeof gateEndpoint>;
  mailsBefore: number;
}

async function mailsTo(recipient: string): Promise<{ body_text: string }[]> {
  return testApp()
    .database.db.selectFrom('mail_outbox')
    .select('body_text')
    .where('recipient', '=', recipient)
    .orderBy('id', 'desc')
    .execute();
}

function errorOf(state: AnyMachineSnapshot): string {
  return (state.context as { error: string }).error;
}

defineModelTests<Ctx>(passwordResetRequestModel, {
  setup: async () => {
    await forgetThrottles();
    return { call: gateEndpoint('post', ENDPOINT), mailsBefore: (await mailsTo(REGISTERED_EMAIL)).length };
  },
  render: () => {
    renderApp(PATH);
  },
  states: {
    '#passwordResetRequest.editing': async () => {
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Restablecer contraseña' }, SERVER_WAIT),
      ).toBeTruthy();
      await waitFor(() => expect(screen.queryAllByRole('alert')).toEqual([]), SERVER_WAIT);
      expect(screen.queryByRole('status')).toBeNull();
      expect(submitButton().disabled).toBe(false);
      expect(emailInput().disabled).toBe(false);
    },
    '#passwordResetRequest.submitting': async () => {
      await waitFor(() => expect(submitButton().disabled).toBe(true), SERVER_WAIT);
      expect(emailInput().disabled).toBe(true);
    },
    '#passwordResetRequest.sent': async ({ ctx }) => {
      // The server's own message, shown on the page; the form is cleared (spec §4).
      expect((await screen.findByRole('status', {}, SERVER_WAIT)).textContent).toBe(
        ACCOUNT_MESSAGES.resetRequested,
      );
      await waitFor(() => expect(emailInput().value).toBe(''), SERVER_WAIT);
      expect(submitButton().disabled).toBe(false);
      // Sent for real: the e-mail with the reset link is in the outbox.
      const mails = await mailsTo(REGISTERED_EMAIL);
      expect(mails.length).toBe(ctx.mailsBefore + 1);
      expect(mails[0]!.body_text).toContain('/auth/reiniciar-contrasena/?token=');
    },
    '#passwordResetRequest.failed': async ({ state }) => {
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      expect(alert.textContent).toBe(errorOf(state));
      expect([UNKNOWN_EMAIL, RESET_REQUEST_FAILED]).toContain(alert.textContent);
      // Nothing typed is lost on failure.
      expect(emailInput().value).toBe(REGISTERED_EMAIL);
      expect(submitButton().disabled).toBe(false);
    },
  },
  events: {
    'resetRequest.submit': async ({ user }) => {
      await user.clear(emailInput());
      await user.type(emailInput(), REGISTERED_EMAIL);
      await user.click(submitButton());
    },
    'resetRequest.dismiss': async ({ user }) => {
      const toast = (await screen.findByRole('alert', {}, SERVER_WAIT)).closest('.bp6-toast') as HTMLElement;
      await user.click(within(toast).getByRole('button', { name: 'Cerrar' }));
    },
    'xstate.done.actor.requestPasswordReset': async ({ ctx }) => {
      await ctx.call.pass();
      expect(ctx.call.bodies.at(-1)).toEqual({ email: REGISTERED_EMAIL });
    },
    'xstate.error.actor.requestPasswordReset': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number; body: unknown } };
      if (error.status === 0) await ctx.call.networkError();
      else await ctx.call.respond(error.status, error.body);
    },
    'xstate.after.TOAST_MS.passwordResetRequest.failed': async () => {
      await waitFor(() => expect(screen.queryByRole('alert')).toBeNull(), SERVER_WAIT);
    },
  },
});
