import { screen, waitFor, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { rfcCheckDigit } from '../../src/domain/rfc';
import { SAT_LINK_REJECTED_WARNING, SatStatus, type SatStatusCode } from '../../src/domain/sat-status';
import { SAT_LINK_FAILED, SAT_LINK_SENT, SAT_LINK_WAITING } from '../../src/machines/sat-link.machine';
import { wiredSatLinkMachine } from '../../src/routes/-sat-machines';
import { ACCESS_TOKEN_KEY } from '../../src/stores/storage-keys';
import { userStore } from '../../src/stores/user.store';
import { ENDPOINT, input, PATH, PRONTO_PAGO, submitButton } from '../screens/sat-link.page';
import { addCompanyWithUser } from '../support/pronto-pago';
import { SERVER_WAIT } from '../support/server-wait';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp, signInAs } from './harness/render-app';
import { testApp } from './harness/test-server';
import { MODEL_CIEC, RFC_TAKEN_BODY, satLinkModel } from './sat-link.model';

// The machine's real snackbar time is 3 s (spec §9).
// The real poll waits 15 s; the test polls every 50 ms, and the gate holds each poll until the model answers.
const testMachine = wiredSatLinkMachine.provide({ delays: { POLL_MS: 50 } });

let sequence = 0;
/** A fresh, valid RFC per path: the server gives each RFC to one company only. */
function freshRfc(): string {
  sequence += 1;
  const homoclave = sequence.toString(36).toUpperCase().padStart(2, '0');
  const base = `PRUE900101${homoclave}`;
  return base + rfcCheckDigit(base);
}

interface Ctx {
  username: string;
  rfc: string;
  companyId: number;
  status: ReturnType<typeof gateEndpoint>;
  submit: ReturnType<typeof gateEndpoint>;
  assign: ReturnType<typeof vi.spyOn>;
  router: ReturnType<typeof renderApp>['router'] | null;
  fault: number | null;
  /** The typed RFC now belongs to another company: the next submit types a fresh one. */
  rfcTaken: boolean;
}

/** The message under a field (its form group's helper text), or null. */
const fieldMessage = (label: string) =>
  input(label).closest('.bp6-form-group')?.querySelector('.bp6-form-helper-text')?.textContent ?? null;

/** The server's field errors the machine holds sit under their fields, and nothing else does. */
async function expectServerFieldErrors(state: AnyMachineSnapshot): Promise<void> {
  const { fieldErrors } = state.context as { fieldErrors: { rfc?: string[]; ciec?: string[] } };
  await waitFor(() => {
    expect(fieldMessage('RFC')).toBe(fieldErrors.rfc?.[0] ?? null);
    expect(fieldMessage('Contraseña CIEC')).toBe(fieldErrors.ciec?.[0] ?? null);
  }, SERVER_WAIT);
}

/** What the operator decides (approve, reject) happens on the server; the test writes the same status. */
async function setServerStatus(ctx: Ctx, status: SatStatusCode): Promise<void> {
  await testApp()
    .database.db.updateTable('companies')
    .set({ sat_status: status, rfc: status === SatStatus.DONT_SENT ? null : ctx.rfc })
    .where('id', '=', ctx.companyId)
    .execute();
}

async function serverStatus(ctx: Ctx): Promise<number> {
  const row = await testApp()
    .database.db.selectFrom('companies')
    .select('sat_status')
    .where('id', '=', ctx.companyId)
    .executeTakeFirstOrThrow();
  return row.sat_status;
}

function statusOf(state: AnyMachineSnapshot): number {
  return (state.context as { status: number }).status;
}

function outputStatus(event: unknown): SatStatusCode {
  return (event as { output: { sat_credentials_status: SatStatusCode } }).output.sat_credentials_status;
}

function expectWaiting(): void {
  expect(screen.getByRole('status').textContent).toBe(SAT_LINK_WAITING);
  expect(screen.queryByRole('form', { name: 'Credenciales SAT' })).toBeNull();
  expect(screen.queryByLabelText('RFC')).toBeNull();
}

async function answerStatus(ctx: Ctx, event: unknown): Promise<void> {
  await setServerStatus(ctx, outputStatus(event));
  await ctx.status.pass();
}

defineModelTests<Ctx>(satLinkModel, {
  setup: async () => {
    const username = `sat.modelo.${Date.now().toString(36)}.${sequence}`;
    const { companyId } = await addCompanyWithUser(testApp().database.db, {
      rfc: null,
      name: `Empresa ${username}`,
      username,
      satStatus: SatStatus.DONT_SENT,
    });
    await signInAs(username);
    return {
      username,
      rfc: freshRfc(),
      companyId,
      status: gateEndpoint('get', ENDPOINT),
      submit: gateEndpoint('post', ENDPOINT),
      // A DOM test cannot reload the page; the spy records the reload to '/' that a 401 asks for.
      assign: vi.spyOn(Location.prototype, 'assign').mockImplementation(() => {}),
      router: null,
      fault: null,
      rfcTaken: false,
    };
  },
  render: (ctx) => {
    ctx.router = renderApp(PATH, { machines: { satLink: testMachine } }).router;
  },
  teardown: (ctx) => ctx.assign.mockRestore(),
  states: {
    '#satLink.loading': async () => {
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Credenciales SAT' }, SERVER_WAIT),
      ).toBeTruthy();
      expect(await screen.findByLabelText('Consultando tu vinculación…', {}, SERVER_WAIT)).toBeTruthy();
      expect(screen.queryByLabelText('RFC')).toBeNull();
    },
    '#satLink.form.editing': async ({ state }) => {
      await screen.findByLabelText('RFC', {}, SERVER_WAIT);
      await waitFor(() => expect(screen.queryAllByRole('alert')).toEqual([]), SERVER_WAIT);
      expect(submitButton().disabled).toBe(false);
      // The toast goes after 3 s; the server's reasons stay under their fields until the next submit.
      await expectServerFieldErrors(state);
      // Spec §4: the warning only after a rejected link.
      const warning = screen.queryByText(SAT_LINK_REJECTED_WARNING);
      if (statusOf(state) === SatStatus.UNAUTHORIZED) expect(warning).not.toBeNull();
      else expect(warning).toBeNull();
    },
    '#satLink.form.submitting': async ({ state }) => {
      await waitFor(() => expect(submitButton().disabled).toBe(true), SERVER_WAIT);
      expect(input('RFC').disabled).toBe(true);
      await expectServerFieldErrors(state);
    },
    '#satLink.form.failed': async ({ ctx, state }) => {
      // Spec §8: the error toast, and the form keeps what was typed.
      expect((await screen.findByRole('alert', {}, SERVER_WAIT)).textContent).toBe(SAT_LINK_FAILED);
      // A 400's reasons (say, an RFC another company holds) also go under their fields.
      await expectServerFieldErrors(state);
      if (ctx.fault === 400) expect(fieldMessage('RFC')).toBe(RFC_TAKEN_BODY.rfc[0]);
      expect(input('RFC').value).toBe(ctx.rfc);
      expect(input('Contraseña CIEC').value).toBe(MODEL_CIEC);
      expect(await serverStatus(ctx)).not.toBe(SatStatus.SENT);
      if (ctx.fault === 401) {
        // Spec §8: a 401 clears all local storage and sends the browser to '/'.
        expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
        expect(localStorage.length).toBe(0);
        expect(ctx.assign).toHaveBeenCalledWith('/');
        // The user signs in again, so the rest of the path runs with a session.
        await signInAs(ctx.username);
        ctx.fault = null;
      }
    },
    '#satLink.sent.confirmed': async ({ ctx }) => {
      expect((await screen.findByRole('alert', {}, SERVER_WAIT)).textContent).toBe(SAT_LINK_SENT);
      expectWaiting();
      expect(await serverStatus(ctx)).toBe(SatStatus.SENT);
      expect(userStore.satCredentials).toBe(SatStatus.SENT);
    },
    '#satLink.sent.waiting': async () => {
      await screen.findByRole('status', {}, SERVER_WAIT);
      expectWaiting();
      expect(userStore.satCredentials).toBe(SatStatus.SENT);
    },
    '#satLink.sent.polling': async ({ ctx }) => {
      await ctx.status.waitForRequest();
      expectWaiting();
    },
    '#satLink.authorized': async ({ ctx }) => {
      // Spec §2/§4: authorized unlocks the dashboard; the store holds it first, so the guard lets it through.
      await waitFor(() => expect(ctx.router?.state.location.pathname).toBe(PRONTO_PAGO), SERVER_WAIT);
      expect(userStore.satCredentials).toBe(SatStatus.AUTHORIZED);
      expect(screen.queryByLabelText('RFC')).toBeNull();
    },
  },
  events: {
    'xstate.done.actor.loadStatus': async ({ ctx, event }) => answerStatus(ctx, event),
    'xstate.error.actor.loadStatus': async ({ ctx }) => {
      await ctx.status.respond(500, { detail: 'Error interno' });
    },
    'satLink.submit': async ({ ctx, user }) => {
      if (ctx.rfcTaken) {
        ctx.rfc = freshRfc();
        ctx.rfcTaken = false;
      }
      await user.clear(input('RFC'));
      await user.type(input('RFC'), ctx.rfc);
      await user.clear(input('Contraseña CIEC'));
      await user.type(input('Contraseña CIEC'), MODEL_CIEC);
      await user.click(submitButton());
    },
    'satLink.dismiss': async ({ user }) => {
      const toast = (await screen.findByRole('alert', {}, SERVER_WAIT)).closest('.bp6-toast') as HTMLElement;
      await user.click(within(toast).getByRole('button', { name: 'Cerrar' }));
    },
    'xstate.done.actor.submitTaxLink': async ({ ctx }) => {
      await ctx.submit.pass();
      expect(ctx.submit.bodies.at(-1)).toEqual({ rfc: ctx.rfc, ciec: MODEL_CIEC });
    },
    'xstate.error.actor.submitTaxLink': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number; body: unknown } };
      ctx.fault = error.status;
      if (error.status === 400) {
        // The real server's refusal: another company already holds the typed RFC. (A rejected link left it on
        // this company's record; it lets go of it first, as the RFC column is unique.)
        const { db } = testApp().database;
        await db
          .updateTable('companies')
          .set({ rfc: null })
          .where('id', '=', ctx.companyId)
          .where('rfc', '=', ctx.rfc)
          .execute();
        await addCompanyWithUser(db, {
          rfc: ctx.rfc,
          name: `Otra empresa ${ctx.rfc}`,
          username: `otra.${ctx.rfc.toLowerCase()}`,
        });
        ctx.rfcTaken = true;
        await ctx.submit.pass();
      } else if (error.status === 0) await ctx.submit.networkError();
      else await ctx.submit.respond(error.status, error.body);
    },
    'xstate.done.actor.pollStatus': async ({ ctx, event }) => answerStatus(ctx, event),
    'xstate.error.actor.pollStatus': async ({ ctx }) => {
      await ctx.status.networkError();
    },
    'xstate.after.TOAST_MS.satLink.form.failed': async () => {
      await waitFor(() => expect(screen.queryByRole('alert')).toBeNull(), SERVER_WAIT);
    },
    'xstate.after.TOAST_MS.satLink.sent.confirmed': async () => {
      await waitFor(() => expect(screen.queryByRole('alert')).toBeNull(), SERVER_WAIT);
    },
    'xstate.after.POLL_MS.satLink.sent.waiting': async ({ ctx }) => {
      await ctx.status.waitForRequest();
    },
  },
});
