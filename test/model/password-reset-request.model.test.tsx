import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { ACCOUNT_MESSAGES } from '../../server/modules/accounts/messages';
import { RESET_REQUEST_FAILED, UNKNOWN_EMAIL } from '../../src/machines/password-reset-request.machine';
import { ENDPOINT, emailInput, PATH, submitButton } from '../screens/password-reset-request.page';
import { SERVER_WAIT } from '../support/server-wait';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp } from './harness/render-app';
import { world } from './harness/world';
import { passwordResetRequestModel } from './password-reset-request.model';

// The machine's real toast time is 3 s; waiting for it to pass needs some slack.

interface Ctx {
  call: ReturnType<typeof gateEndpoint>;
  email: string;
  mailsBefore: number;
}

/**
 * The registered address the paths type: the model's REGISTERED_EMAIL (the demo provider's) in process, the
 * world's provider's in a remote run.
 */
async function registeredEmail(): Promise<string> {
  return (await world.parties()).provider.email;
}

function errorOf(state: AnyMachineSnapshot): string {
  return (state.context as { error: string }).error;
}

defineModelTests<Ctx>(passwordResetRequestModel, {
  setup: async () => {
    await world.forgetThrottles();
    const email = await registeredEmail();
    return { call: gateEndpoint('post', ENDPOINT), email, mailsBefore: (await world.mailsTo(email)).length };
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
      const mails = await world.mailsTo(ctx.email);
      expect(mails.length).toBe(ctx.mailsBefore + 1);
      expect(mails[0]!.body_text).toContain('/auth/reiniciar-contrasena/?token=');
    },
    '#passwordResetRequest.failed': async ({ ctx, state }) => {
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      expect(alert.textContent).toBe(errorOf(state));
      expect([UNKNOWN_EMAIL, RESET_REQUEST_FAILED]).toContain(alert.textContent);
      // Nothing typed is lost on failure.
      expect(emailInput().value).toBe(ctx.email);
      expect(submitButton().disabled).toBe(false);
    },
  },
  events: {
    'resetRequest.submit': async ({ ctx, user }) => {
      await user.clear(emailInput());
      await user.type(emailInput(), ctx.email);
      await user.click(submitButton());
    },
    'resetRequest.dismiss': async ({ user }) => {
      const toast = (await screen.findByRole('alert', {}, SERVER_WAIT)).closest('.bp6-toast') as HTMLElement;
      await user.click(within(toast).getByRole('button', { name: 'Cerrar' }));
    },
    'xstate.done.actor.requestPasswordReset': async ({ ctx }) => {
      await ctx.call.pass();
      expect(ctx.call.bodies.at(-1)).toEqual({ email: ctx.email });
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
