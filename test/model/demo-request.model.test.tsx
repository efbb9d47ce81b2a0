import { render, screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { wiredDemoRequestMachine } from '../../src/routes/-machines';
import { DemoRequestPage } from '../../src/views/public/demo-request-page';
import { SERVER_WAIT } from '../support/server-wait';
import { demoRequestModel, REJECTED_BY_SERVER, VALID_DEMO_REQUEST } from './demo-request.model';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { testApp } from './harness/test-server';

// Long enough to assert the toast, short enough for a fast suite; the machine's real value is 3 s.
const TOAST_MS = 700;

const LABELS: Record<keyof typeof VALID_DEMO_REQUEST, string> = {
  first_name: 'Nombre',
  last_name: 'Apellido',
  phone: 'Teléfono',
  email: 'Correo electrónico',
  company: 'Empresa',
};

const submitButton = () => screen.getByRole('button', { name: /Solicitar demo/ });
const storedRequests = async () =>
  (await testApp().database.db.selectFrom('demo_requests').select('id').execute()).length;

const isDisabled = (element: HTMLElement) => (element as HTMLButtonElement | HTMLInputElement).disabled;
const inputValue = (label: string) => (screen.getByLabelText(label) as HTMLInputElement).value;

function errorMessages(state: AnyMachineSnapshot): string[] {
  return (state.context as { errors: string[] }).errors;
}

defineModelTests(demoRequestModel, {
  setup: async () => ({
    call: gateEndpoint('post', '/api/accounts/request-demo/'),
    stored: await storedRequests(),
  }),
  render: () => {
    render(<DemoRequestPage machine={wiredDemoRequestMachine.provide({ delays: { TOAST_MS } })} />);
  },
  states: {
    '#demoRequest.editing': async () => {
      await waitFor(() => expect(screen.queryAllByRole('alert')).toEqual([]), SERVER_WAIT);
      expect(isDisabled(submitButton())).toBe(false);
      expect(isDisabled(screen.getByLabelText('Nombre'))).toBe(false);
    },
    '#demoRequest.submitting': async () => {
      await waitFor(() => expect(isDisabled(submitButton())).toBe(true), SERVER_WAIT);
      expect(isDisabled(screen.getByLabelText('Correo electrónico'))).toBe(true);
    },
    '#demoRequest.sent': async ({ ctx }) => {
      const toast = await screen.findByRole('alert', {}, SERVER_WAIT);
      expect(toast.textContent).toBe('Solicitud enviada con éxito');
      // Sent for real: the row is in the database and the form is cleared.
      expect(await storedRequests()).toBeGreaterThan(ctx.stored);
      await waitFor(() => expect(inputValue('Nombre')).toBe(''), SERVER_WAIT);
    },
    '#demoRequest.failed': async ({ state }) => {
      const alerts = await screen.findAllByRole('alert', {}, SERVER_WAIT);
      expect(alerts.map((a) => a.textContent)).toEqual(errorMessages(state));
      // Nothing typed is lost on failure.
      expect(inputValue('Correo electrónico')).toBe(VALID_DEMO_REQUEST.email);
    },
  },
  events: {
    'demo.submit': async ({ user }) => {
      for (const [field, label] of Object.entries(LABELS)) {
        const input = screen.getByLabelText(label);
        await user.clear(input);
        await user.click(input);
        await user.paste(VALID_DEMO_REQUEST[field as keyof typeof VALID_DEMO_REQUEST]);
      }
      await user.click(submitButton());
    },
    'demo.dismiss': async ({ user }) => {
      const toast = (await screen.findAllByRole('alert', {}, SERVER_WAIT))[0]!.closest(
        '.bp6-toast',
      ) as HTMLElement;
      await user.click(within(toast).getByRole('button', { name: 'Cerrar' }));
    },
    'xstate.done.actor.submitDemoRequest': async ({ ctx }) => {
      await ctx.call.pass();
      expect(ctx.call.bodies.at(-1)).toEqual(VALID_DEMO_REQUEST);
    },
    'xstate.error.actor.submitDemoRequest': async ({ ctx, event }) => {
      const { status } = (event as unknown as { error: { status: number } }).error;
      if (status === 0) await ctx.call.networkError();
      else await ctx.call.respond(status, status === 400 ? REJECTED_BY_SERVER : { detail: 'Error interno' });
    },
    'xstate.after.TOAST_MS.demoRequest.sent': async () => {
      await waitFor(() => expect(screen.queryByRole('alert')).toBeNull(), { timeout: TOAST_MS * 3 });
    },
    'xstate.after.TOAST_MS.demoRequest.failed': async () => {
      await waitFor(() => expect(screen.queryByRole('alert')).toBeNull(), { timeout: TOAST_MS * 3 });
    },
  },
});
