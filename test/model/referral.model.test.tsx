import { render, screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { PROVIDER_REQUEST_MESSAGES } from '../../src/domain/provider-requests';
import { wiredReferralMachine } from '../../src/routes/-referral-machines';
import { ReferralPage } from '../../src/views/referral/referral-page';
import { SERVER_WAIT } from '../support/server-wait';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { signInAs } from './harness/render-app';
import { testApp } from './harness/test-server';
import { REFERRAL_REJECTED, referralModel, VALID_REFERRAL } from './referral.model';

// Long enough to assert the toast, short enough for a fast suite; the machine's real value is 3 s.
const TOAST_MS = 700;

const LABELS: Record<keyof typeof VALID_REFERRAL, string> = {
  name: 'Nombre',
  company: 'Empresa',
  email: 'Correo electrónico',
  phone: 'Teléfono',
};

const submitButton = () => screen.getByRole('button', { name: /Enviar recomendación/ });
const storedReferrals = async () =>
  (await testApp().database.db.selectFrom('referrals').select('id').execute()).length;
const isDisabled = (element: HTMLElement) => (element as HTMLButtonElement | HTMLInputElement).disabled;
const inputValue = (label: string) => (screen.getByLabelText(label) as HTMLInputElement).value;

function errorMessages(state: AnyMachineSnapshot): string[] {
  return (state.context as { errors: string[] }).errors;
}

defineModelTests(referralModel, {
  setup: async () => {
    await signInAs('proveedor.demo');
    return { call: gateEndpoint('post', '/api/providers/refer-customer/'), stored: await storedReferrals() };
  },
  render: () => {
    render(<ReferralPage machine={wiredReferralMachine.provide({ delays: { TOAST_MS } })} />);
  },
  states: {
    '#referral.editing': async () => {
      await waitFor(() => expect(screen.queryAllByRole('alert')).toEqual([]), SERVER_WAIT);
      expect(isDisabled(submitButton())).toBe(false);
      expect(isDisabled(screen.getByLabelText('Nombre'))).toBe(false);
    },
    '#referral.submitting': async () => {
      await waitFor(() => expect(isDisabled(submitButton())).toBe(true), SERVER_WAIT);
      expect(isDisabled(screen.getByLabelText('Correo electrónico'))).toBe(true);
    },
    '#referral.sent': async ({ ctx }) => {
      const toast = await screen.findByRole('alert', {}, SERVER_WAIT);
      // Spec §8: the server's own message, and the form is cleared.
      expect(toast.textContent).toBe(PROVIDER_REQUEST_MESSAGES.referralSent);
      expect(await storedReferrals()).toBeGreaterThan(ctx.stored);
      await waitFor(() => expect(inputValue('Nombre')).toBe(''), SERVER_WAIT);
    },
    '#referral.failed': async ({ state }) => {
      const alerts = await screen.findAllByRole('alert', {}, SERVER_WAIT);
      expect(alerts.map((a) => a.textContent)).toEqual(errorMessages(state));
      expect(inputValue('Correo electrónico')).toBe(VALID_REFERRAL.email);
    },
  },
  events: {
    'referral.submit': async ({ user }) => {
      for (const [field, label] of Object.entries(LABELS)) {
        const input = screen.getByLabelText(label);
        await user.clear(input);
        await user.click(input);
        await user.paste(VALID_REFERRAL[field as keyof typeof VALID_REFERRAL]);
      }
      await user.click(submitButton());
    },
    'referral.dismiss': async ({ user }) => {
      const toast = (await screen.findAllByRole('alert', {}, SERVER_WAIT))[0]!.closest(
        '.bp6-toast',
      ) as HTMLElement;
      await user.click(within(toast).getByRole('button', { name: 'Cerrar' }));
    },
    'xstate.done.actor.submitReferral': async ({ ctx }) => {
      await ctx.call.pass();
      expect(ctx.call.bodies.at(-1)).toEqual(VALID_REFERRAL);
    },
    'xstate.error.actor.submitReferral': async ({ ctx, event }) => {
      const { status } = (event as unknown as { error: { status: number } }).error;
      if (status === 0) await ctx.call.networkError();
      else await ctx.call.respond(status, status === 400 ? REFERRAL_REJECTED : { detail: 'Error interno' });
    },
    'xstate.after.TOAST_MS.referral.sent': async () => {
      await waitFor(() => expect(screen.queryByRole('alert')).toBeNull(), { timeout: TOAST_MS * 3 });
    },
    'xstate.after.TOAST_MS.referral.failed': async () => {
      await waitFor(() => expect(screen.queryByRole('alert')).toBeNull(), { timeout: TOAST_MS * 3 });
    },
  },
});
