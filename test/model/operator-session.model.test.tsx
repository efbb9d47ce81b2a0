import { screen, waitFor } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { base32Decode, totpCode } from '../../server/modules/auth/totp';
import { DEMO_OPERATORS } from '../../server/seed/demo-operators';
import { paths } from '../../src/domain/paths';
import {
  NOT_AN_OPERATOR,
  OPERATOR_LOGIN_FAILED,
  type OperatorSessionContext,
} from '../../src/machines/operator-session.machine';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY } from '../../src/stores/storage-keys';
import { userStore } from '../../src/stores/user.store';
import { SERVER_WAIT } from '../support/server-wait';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { DEMO_PASSWORD, renderApp } from './harness/render-app';
import { callServer, testApp } from './harness/test-server';
import { OPERATOR_CREDENTIALS, operatorSessionModel, SERVER_ERROR_BODY } from './operator-session.model';

const OPERATOR = DEMO_OPERATORS.find((operator) => operator.username === OPERATOR_CREDENTIALS.username)!;

interface Ctx {
  login: ReturnType<typeof gateEndpoint>;
  verify: ReturnType<typeof gateEndpoint>;
  assign: ReturnType<typeof vi.spyOn>;
  /** Recovery codes typed so far in this path (each works once). */
  recoveryUsed: number;
}

const db = () => testApp().database.db;
const contextOf = (state: AnyMachineSnapshot) => state.context as OperatorSessionContext;

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const button = (name: string | RegExp) => screen.getByRole('button', { name }) as HTMLButtonElement;

/** The alert above the form: the machine's error, or none. */
async function expectError(error: string | null): Promise<void> {
  if (error === null) {
    await waitFor(() => expect(screen.queryAllByRole('alert')).toEqual([]), SERVER_WAIT);
    return;
  }
  const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
  expect(alert.textContent).toContain(error);
  // A server error's own words never reach the operator.
  expect(alert.textContent).not.toContain(SERVER_ERROR_BODY.detail);
}

defineModelTests<Ctx>(operatorSessionModel, {
  setup: async () => {
    // Each path starts from an operator nobody has signed in as: no used step, no lockout, every recovery code.
    const user = await db()
      .selectFrom('users')
      .select('id')
      .where('username', '=', OPERATOR.username)
      .executeTakeFirstOrThrow();
    await db()
      .updateTable('operator_totp')
      .set({ last_step: null, failed_attempts: 0, locked_until: null })
      .where('user_id', '=', user.id)
      .execute();
    await db()
      .updateTable('operator_recovery_codes')
      .set({ used_at: null })
      .where('user_id', '=', user.id)
      .execute();
    await db().deleteFrom('throttle_hits').execute();
    return {
      login: gateEndpoint('post', '/api/accounts/login/'),
      verify: gateEndpoint('post', '/api/accounts/login/mfa/'),
      // A DOM test cannot load another document; the spy records the load of /operacion/ the sign-in asks for.
      assign: vi.spyOn(Location.prototype, 'assign').mockImplementation(() => {}),
      recoveryUsed: 0,
    };
  },
  render: () => {
    renderApp(paths.operatorLogin);
  },
  teardown: (ctx) => {
    ctx.assign.mockRestore();
  },
  states: {
    '#operatorSession.password': async ({ state }) => {
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Ingreso de operadores' }, SERVER_WAIT),
      ).toBeTruthy();
      expect(input('Usuario').disabled).toBe(false);
      expect(input('Contraseña').type).toBe('password');
      expect(button('Continuar').disabled).toBe(false);
      await expectError(contextOf(state).error);
      expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
    },
    '#operatorSession.checkingPassword': async () => {
      await waitFor(() => expect(button(/Continuar/).disabled).toBe(true), SERVER_WAIT);
      expect(input('Usuario').disabled).toBe(true);
    },
    '#operatorSession.code': async ({ state }) => {
      const { recovery, error } = contextOf(state);
      const label = recovery ? 'Código de recuperación' : 'Código de verificación';
      expect(await screen.findByLabelText(label, {}, SERVER_WAIT)).toBeTruthy();
      expect(input(label).disabled).toBe(false);
      expect(button('Verificar').disabled).toBe(false);
      expect(
        button(recovery ? 'Usar el código de la aplicación' : 'Usar un código de recuperación'),
      ).toBeTruthy();
      await expectError(error);
      expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
    },
    '#operatorSession.verifyingCode': async () => {
      await waitFor(() => expect(button(/Verificar/).disabled).toBe(true), SERVER_WAIT);
    },
    '#operatorSession.locked': async ({ state }) => {
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      expect(alert.textContent).toContain('Acceso bloqueado');
      expect(alert.textContent).toContain(contextOf(state).error);
      expect(screen.queryByLabelText('Usuario')).toBeNull();
      expect(button('Volver a ingresar')).toBeTruthy();
    },
    '#operatorSession.signedIn': async ({ ctx }) => {
      expect((await screen.findByRole('status', {}, SERVER_WAIT)).textContent).toContain(
        'Verificación correcta',
      );
      expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeTruthy();
      expect(localStorage.getItem(REFRESH_TOKEN_KEY)).toBeTruthy();
      expect(userStore.isAuthenticated).toBe(true);
      expect(userStore.operatorRoles).toEqual(OPERATOR.roles);
      expect(userStore.operatorName).toBe(`${OPERATOR.firstName} ${OPERATOR.lastName}`);
      expect(ctx.assign).toHaveBeenCalledWith(paths.operatorHome);
    },
  },
  events: {
    'operatorSession.submitPassword': async ({ user }) => {
      const username = await screen.findByLabelText('Usuario', {}, SERVER_WAIT);
      await user.clear(username);
      await user.type(username, OPERATOR_CREDENTIALS.username);
      await user.clear(input('Contraseña'));
      await user.type(input('Contraseña'), OPERATOR_CREDENTIALS.password);
      await user.click(button('Continuar'));
    },
    'xstate.done.actor.login': async ({ ctx, event }) => {
      const output = (event as unknown as { output: { mfa_required?: boolean } }).output;
      if (output.mfa_required) {
        await ctx.login.pass();
        expect(ctx.login.bodies.at(-1)).toEqual(OPERATOR_CREDENTIALS);
        return;
      }
      // A provider's password at the operators' door: the server's real answer for one.
      const provider = await callServer('POST', '/api/accounts/login/', {
        body: { username: 'proveedor.demo', password: DEMO_PASSWORD },
      });
      expect(provider.status).toBe(200);
      await ctx.login.respond(200, provider.body);
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(NOT_AN_OPERATOR), SERVER_WAIT);
    },
    'xstate.error.actor.login': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number; body: unknown } };
      if (error.status === 0) await ctx.login.networkError();
      else await ctx.login.respond(error.status, error.body);
      if (error.status >= 500 || error.status === 0) {
        await waitFor(
          () => expect(screen.getByRole('alert').textContent).toBe(OPERATOR_LOGIN_FAILED),
          SERVER_WAIT,
        );
      }
    },
    'operatorSession.submitCode': async ({ ctx, user }) => {
      const recovery = screen.queryByLabelText('Código de recuperación') !== null;
      const field = recovery ? input('Código de recuperación') : input('Código de verificación');
      // The code the operator's phone shows now, or the next unused recovery code.
      const code = recovery
        ? OPERATOR.recoveryCodes[ctx.recoveryUsed++]!
        : totpCode(base32Decode(OPERATOR.secret), new Date());
      await user.clear(field);
      await user.type(field, code);
      await user.click(button('Verificar'));
    },
    'operatorSession.useRecoveryCode': async ({ user }) => {
      await user.click(
        await screen.findByRole('button', { name: 'Usar un código de recuperación' }, SERVER_WAIT),
      );
    },
    'operatorSession.useAuthenticator': async ({ user }) => {
      await user.click(
        await screen.findByRole('button', { name: 'Usar el código de la aplicación' }, SERVER_WAIT),
      );
    },
    'operatorSession.restart': async ({ user }) => {
      await user.click(await screen.findByRole('button', { name: 'Volver a ingresar' }, SERVER_WAIT));
    },
    'xstate.done.actor.verifyCode': async ({ ctx }) => {
      await ctx.verify.pass();
      expect(ctx.verify.bodies.at(-1)).toEqual({ mfa_token: expect.any(String), code: expect.any(String) });
    },
    'xstate.error.actor.verifyCode': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number; body: unknown } };
      if (error.status === 0) await ctx.verify.networkError();
      else await ctx.verify.respond(error.status, error.body);
      if (error.status >= 500 || error.status === 0) {
        await waitFor(
          () => expect(screen.getByRole('alert').textContent).toBe(OPERATOR_LOGIN_FAILED),
          SERVER_WAIT,
        );
      }
    },
  },
});
