import { screen, waitFor, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import type { Profile, ProfileUpdate } from '../../src/domain/schemas/session';
import { PROFILE_LOAD_FAILED, PROFILE_SAVE_FAILED, PROFILE_SAVED } from '../../src/machines/profile.machine';
import { ACCESS_TOKEN_KEY } from '../../src/stores/storage-keys';
import { ENDPOINT, input, LABELS, PATH, saveButton, type TextField } from '../screens/profile.page';
import { SERVER_WAIT } from '../support/server-wait';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp, signInAs } from './harness/render-app';
import { callServer } from './harness/test-server';
import { world } from './harness/world';
import { PROFILE_EDITS, profileModel, REJECTED_BODY } from './profile.model';

// The machine's real snackbar time is 2 s (spec §9).

const CLABE_LABELS = {
  disbursement_clabe: 'CLABE de dispersión',
  wallet_clabe: 'CLABE de monedero',
  credit_payment_clabe: 'CLABE para pago de crédito',
} as const;

interface Ctx {
  load: ReturnType<typeof gateEndpoint>;
  save: ReturnType<typeof gateEndpoint>;
  assign: ReturnType<typeof vi.spyOn>;
  access: string;
  /** What the form must show: the server's profile once loaded, the typed values once edited. */
  shown: ProfileUpdate | null;
  fault: number | null;
}

const notifications = () => screen.getByLabelText('Recibir notificaciones') as HTMLInputElement;

/** The profile as the server holds it now, read with the same session. */
async function serverProfile(access: string): Promise<Profile> {
  const response = await callServer('GET', ENDPOINT, { headers: { authorization: `Bearer ${access}` } });
  if (response.status !== 200) throw new Error(`GET profile failed: ${JSON.stringify(response.body)}`);
  return response.body as Profile;
}

function editableOf(profile: Profile): ProfileUpdate {
  const { first_name, last_name, mobile_phone, company, receive_notification } = profile;
  return { first_name, last_name, mobile_phone, company, receive_notification };
}

function expectForm(values: ProfileUpdate): void {
  for (const [field, label] of Object.entries(LABELS))
    expect(input(label).value).toBe(values[field as TextField]);
  expect(notifications().checked).toBe(values.receive_notification);
}

function expectSessionEnded(ctx: Ctx): void {
  // Spec §8: a 401 clears all local storage and sends the browser to '/'.
  expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
  expect(localStorage.length).toBe(0);
  expect(ctx.assign).toHaveBeenCalledWith('/');
}

function errorOf(state: AnyMachineSnapshot): string {
  return (state.context as { error: string }).error;
}

defineModelTests<Ctx>(profileModel, {
  setup: async () => {
    const { provider } = await world.parties();
    const { access } = await signInAs(provider.username, provider.password);
    return {
      load: gateEndpoint('get', ENDPOINT),
      save: gateEndpoint('put', ENDPOINT),
      // A DOM test cannot reload the page; the spy records the reload to '/' that a 401 asks for.
      assign: vi.spyOn(Location.prototype, 'assign').mockImplementation(() => {}),
      access,
      shown: null,
      fault: null,
    };
  },
  render: () => {
    renderApp(PATH);
  },
  teardown: (ctx) => ctx.assign.mockRestore(),
  states: {
    '#profile.loading': async () => {
      expect(await screen.findByRole('heading', { level: 1, name: 'Perfil' }, SERVER_WAIT)).toBeTruthy();
      expect(await screen.findByLabelText('Cargando perfil…', {}, SERVER_WAIT)).toBeTruthy();
      expect(screen.queryByLabelText('Nombre')).toBeNull();
    },
    '#profile.loadFailed': async ({ ctx }) => {
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      expect(alert.textContent).toContain(PROFILE_LOAD_FAILED);
      expect(within(alert).getByRole('button', { name: 'Reintentar' })).toBeTruthy();
      expect(screen.queryByLabelText('Nombre')).toBeNull();
      if (ctx.fault === 401) expectSessionEnded(ctx);
    },
    '#profile.ready.editing': async ({ ctx }) => {
      await waitFor(() => expect(screen.queryAllByRole('alert')).toEqual([]), SERVER_WAIT);
      expect(saveButton().disabled).toBe(false);
      expectForm(ctx.shown!);
      // Spec §3: each CLABE read-only, and only when the server has one.
      const profile = await serverProfile(ctx.access);
      for (const [field, label] of Object.entries(CLABE_LABELS)) {
        const value = profile[field as keyof typeof CLABE_LABELS];
        const clabe = screen.queryByLabelText(label) as HTMLInputElement | null;
        if (value) {
          expect(clabe?.value).toBe(value);
          expect(clabe?.readOnly).toBe(true);
        } else {
          expect(clabe).toBeNull();
        }
      }
    },
    '#profile.ready.saving': async () => {
      await waitFor(() => expect(saveButton().disabled).toBe(true), SERVER_WAIT);
      expect(input('Nombre').disabled).toBe(true);
    },
    '#profile.ready.saved': async ({ ctx }) => {
      expect((await screen.findByRole('alert', {}, SERVER_WAIT)).textContent).toBe(PROFILE_SAVED);
      // Saved for real, and the form shows what the server stored.
      expect(editableOf(await serverProfile(ctx.access))).toEqual(ctx.shown);
      expectForm(ctx.shown!);
    },
    '#profile.ready.failed': async ({ ctx, state }) => {
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      expect(alert.textContent).toBe(errorOf(state));
      expect([REJECTED_BODY.company[0], PROFILE_SAVE_FAILED]).toContain(alert.textContent);
      // Nothing typed is lost.
      expectForm(ctx.shown!);
      if (ctx.fault === 401) expectSessionEnded(ctx);
    },
  },
  events: {
    'xstate.done.actor.loadProfile': async ({ ctx }) => {
      await ctx.load.pass();
      ctx.shown = editableOf(await serverProfile(ctx.access));
      await screen.findByLabelText('Nombre', {}, SERVER_WAIT);
    },
    'xstate.error.actor.loadProfile': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number; body: unknown } };
      ctx.fault = error.status;
      if (error.status === 0) await ctx.load.networkError();
      else await ctx.load.respond(error.status, error.body);
    },
    'profile.retry': async ({ ctx, user }) => {
      ctx.fault = null;
      await user.click(screen.getByRole('button', { name: 'Reintentar' }));
    },
    'profile.save': async ({ ctx, user }) => {
      for (const field of ['last_name', 'mobile_phone'] as const) {
        await user.clear(input(LABELS[field]));
        await user.type(input(LABELS[field]), PROFILE_EDITS[field]);
      }
      if (notifications().checked !== PROFILE_EDITS.receive_notification) await user.click(notifications());
      ctx.shown = { ...ctx.shown!, ...PROFILE_EDITS };
      await user.click(saveButton());
    },
    'profile.dismiss': async ({ user }) => {
      const toast = (await screen.findByRole('alert', {}, SERVER_WAIT)).closest('.bp6-toast') as HTMLElement;
      await user.click(within(toast).getByRole('button', { name: 'Cerrar' }));
    },
    'xstate.done.actor.saveProfile': async ({ ctx }) => {
      await ctx.save.pass();
      expect(ctx.save.bodies.at(-1)).toEqual(ctx.shown);
    },
    'xstate.error.actor.saveProfile': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number; body: unknown } };
      ctx.fault = error.status;
      if (error.status === 0) await ctx.save.networkError();
      else await ctx.save.respond(error.status, error.body);
    },
    'xstate.after.TOAST_MS.profile.ready.saved': async () => {
      await waitFor(() => expect(screen.queryByRole('alert')).toBeNull(), SERVER_WAIT);
    },
    'xstate.after.TOAST_MS.profile.ready.failed': async () => {
      await waitFor(() => expect(screen.queryByRole('alert')).toBeNull(), SERVER_WAIT);
    },
  },
});
