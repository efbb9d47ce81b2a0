import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MFA_MAX_FAILURES } from '../../server/modules/accounts/operator-login.service';
import { base32Decode, hotp, totpStep } from '../../server/modules/auth/totp';
import { OPERATOR_MESSAGES } from '../../server/modules/operator/operator-access';
import { OPS_COMMANDS, type OpsOutput, runOpsCommand } from '../../server/ops/commands';
import { DEMO_OPERATORS } from '../../server/seed/demo-operators';
import { OPERATOR_LOGIN_MESSAGES } from '../../src/domain/schemas/operator-session';
import { bearer, DEMO_PASSWORD, loginAs } from '../support/accounts';
import { type ApiTestContext, createApiApp, testClock } from '../support/api-app';
import { createOperatorSession } from '../support/operator';

// Re-enrolling an operator and changing an operator's roles from the ops commands (docs/decisions/0050,
// 'Re-enrolment and roles'): what the old enrolment and sessions can no longer do, and what the guard answers.

const ROUND_TRIP_MS = 120_000;

describe('npm run ops -- operator:reset-mfa and operator:roles', () => {
  let ctx: ApiTestContext;
  const clock = testClock();

  beforeAll(async () => {
    ctx = await createApiApp({ now: clock.now });
  }, ROUND_TRIP_MS);
  afterAll(() => ctx.close());
  beforeEach(async () => {
    await ctx.database.db.deleteFrom('throttle_hits').execute();
  });

  /** Runs a command as the CLI and the ops socket do: through runOpsCommand, refusals explained. */
  const ops = async (name: string, ...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const output: OpsOutput = { out: (line) => out.push(line), err: (line) => err.push(line) };
    const code = await runOpsCommand(OPS_COMMANDS[name]!, args, {
      config: ctx.config,
      database: ctx.database,
      output,
      now: clock.now,
    });
    return { code, out, err };
  };
  const codeFor = (secret: string) => hotp(base32Decode(secret), totpStep(clock.now()));
  const challenge = async (username: string) => {
    const res = await loginAs(ctx.app, username, DEMO_PASSWORD);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ mfa_token: string }>().mfa_token;
  };
  const sendCode = (mfa_token: string, code: string) =>
    ctx.app.inject({ method: 'POST', url: '/api/accounts/login/mfa/', payload: { mfa_token, code } });
  const refresh = (token: string) =>
    ctx.app.inject({ method: 'POST', url: '/api/accounts/token/refresh/', payload: { refresh: token } });
  const audit = (access: string) =>
    ctx.app.inject({ method: 'GET', url: '/api/operator/audit/', headers: bearer(access) });
  /** The enrolment a command printed: the otpauth URI's secret and the ten recovery codes. */
  const printedEnrolment = (out: readonly string[]) => {
    const uri = new URL(out.find((line) => line.trim().startsWith('otpauth://'))!.trim());
    return {
      uri,
      secret: uri.searchParams.get('secret')!,
      recoveryCodes: out
        .filter((line) => /^\s+[A-Z2-9]{5}(-[A-Z2-9]{5}){3}$/.test(line))
        .map((line) => line.trim()),
    };
  };

  it(
    're-enrols: the old secret, recovery codes, sessions and pending challenges stop working; the new ones work',
    async () => {
      const operator = DEMO_OPERATORS[2]!;
      const signedIn = await sendCode(await challenge(operator.username), codeFor(operator.secret));
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      const old = signedIn.json<{ access: string; refresh: string }>();
      const pending = await challenge(operator.username);

      const reset = await ops('operator:reset-mfa', operator.username);
      expect(reset.code, reset.err.join('\n')).toBe(0);
      const text = reset.out.join('\n');
      expect(text).toContain(`Verificación en dos pasos de ${operator.username} reiniciada`);
      expect(text).toContain('se muestra UNA sola vez');
      const enrolment = printedEnrolment(reset.out);
      expect(enrolment.uri.searchParams.get('issuer')).toBe('Flujo');
      expect(text).toContain(`Secreto para escribirlo a mano: ${enrolment.secret}`);
      expect(enrolment.secret).not.toBe(operator.secret);
      expect(enrolment.recoveryCodes).toHaveLength(10);

      // The session opened before the reset is over, its access token and its refresh token alike.
      expect((await audit(old.access)).statusCode).toBe(401);
      expect((await refresh(old.refresh)).statusCode).toBe(401);
      // A challenge started before the reset cannot be finished, even with the new secret.
      const stale = await sendCode(pending, codeFor(enrolment.secret));
      expect(stale.statusCode).toBe(401);
      expect(stale.json()).toEqual({ detail: OPERATOR_LOGIN_MESSAGES.challengeExpired });

      const token = await challenge(operator.username);
      const oldTotp = await sendCode(token, codeFor(operator.secret));
      expect(oldTotp.statusCode).toBe(400);
      expect(oldTotp.json()).toEqual({ code: [OPERATOR_LOGIN_MESSAGES.wrongCode] });
      const oldRecovery = await sendCode(token, operator.recoveryCodes[5]!);
      expect(oldRecovery.statusCode).toBe(400);
      const fresh = await sendCode(token, codeFor(enrolment.secret));
      expect(fresh.statusCode, fresh.body).toBe(200);
      expect((await audit(fresh.json().access)).statusCode).toBe(200);

      const recovery = enrolment.recoveryCodes[0]!;
      expect((await sendCode(await challenge(operator.username), recovery)).statusCode).toBe(200);
      expect((await sendCode(await challenge(operator.username), recovery)).statusCode).toBe(400);
    },
    ROUND_TRIP_MS,
  );

  it(
    'lifts a lockout: a locked operator signs in with the new secret at once',
    async () => {
      const operator = DEMO_OPERATORS[1]!;
      const token = await challenge(operator.username);
      for (let attempt = 1; attempt < MFA_MAX_FAILURES; attempt++) {
        expect((await sendCode(token, '000000')).statusCode).toBe(400);
      }
      expect((await sendCode(token, '000000')).statusCode).toBe(429);
      expect((await loginAs(ctx.app, operator.username, DEMO_PASSWORD)).statusCode).toBe(429);

      const reset = await ops('operator:reset-mfa', operator.username);
      expect(reset.code, reset.err.join('\n')).toBe(0);
      const { secret } = printedEnrolment(reset.out);
      const res = await sendCode(await challenge(operator.username), codeFor(secret));
      expect(res.statusCode, res.body).toBe(200);
    },
    ROUND_TRIP_MS,
  );

  it(
    'refuses an unknown user and a user who is not an operator, in Spanish, changing nothing',
    async () => {
      const unknown = await ops('operator:reset-mfa', 'nadie.aqui');
      expect(unknown.code).toBe(2);
      expect(unknown.err).toEqual(['No hay ningún usuario nadie.aqui.']);
      const provider = await ops('operator:reset-mfa', 'proveedor.demo');
      expect(provider.code).toBe(2);
      expect(provider.err.join('\n')).toContain('proveedor.demo no es operador de Flujo');
      expect(provider.out).toEqual([]);
      const roles = await ops('operator:roles', 'proveedor.demo', '--roles', 'tesoreria');
      expect(roles.code).toBe(2);
      expect(roles.err.join('\n')).toContain('proveedor.demo no es operador de Flujo');
      // The provider still signs in as before, without a second factor.
      const login = await loginAs(ctx.app, 'proveedor.demo', DEMO_PASSWORD);
      expect(login.json()).not.toHaveProperty('mfa_required');
    },
    ROUND_TRIP_MS,
  );

  it(
    'changes what an open session may do from its next request',
    async () => {
      const operator = await createOperatorSession(ctx, { roles: ['auditor'] });
      const createBatch = () =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/operator/disbursements/',
          headers: bearer(operator.access),
          payload: {},
        });
      const refused = await createBatch();
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ detail: OPERATOR_MESSAGES.roleRequired(['tesoreria']) });

      const granted = await ops('operator:roles', operator.username, '--roles', 'tesoreria,auditor');
      expect(granted.code, granted.err.join('\n')).toBe(0);
      expect(granted.out.join('\n')).toContain(`Roles de ${operator.username}: Tesorería, Auditor.`);
      // Same access token: now past the role check, refused only for the empty body.
      expect((await createBatch()).statusCode).toBe(400);

      expect((await ops('operator:roles', operator.username, '--roles', 'auditor')).code).toBe(0);
      expect((await createBatch()).statusCode).toBe(403);
      expect((await refresh(operator.refresh)).statusCode).toBe(200);
    },
    ROUND_TRIP_MS,
  );

  it('refuses operator:roles without --roles or with an unknown role', async () => {
    const missing = await ops('operator:roles', DEMO_OPERATORS[0]!.username);
    expect(missing.code).toBe(2);
    expect(missing.err.join('\n')).toContain('Indica los roles con --roles');
    const unknown = await ops('operator:roles', DEMO_OPERATORS[0]!.username, '--roles', 'jefa');
    expect(unknown.code).toBe(2);
    expect(unknown.err.join('\n')).toContain('--roles toma una lista de');
  });
});
