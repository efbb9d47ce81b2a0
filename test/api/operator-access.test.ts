import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listOutbox } from '../../server/mail/outbox.repository';
import { MFA_LOCK_MINUTES, MFA_MAX_FAILURES } from '../../server/modules/accounts/operator-login.service';
import { base32Decode, hotp, totpStep } from '../../server/modules/auth/totp';
import { OPERATOR_MESSAGES } from '../../server/modules/operator/operator-access';
import { OPS_COMMANDS, type OpsOutput, runOpsCommand } from '../../server/ops/commands';
import {
  DEMO_OPERATOR_CODES_SEED,
  DEMO_OPERATORS,
  seedDemoOperators,
} from '../../server/seed/demo-operators';
import { OPERATOR_ROLES, type OperatorRole } from '../../src/domain/operator-roles';
import { OPERATOR_LOGIN_MESSAGES } from '../../src/domain/schemas/operator-session';
import { bearer, loginAs, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp, testClock } from '../support/api-app';
import { type OpenApiDocument, servedDocument } from '../support/openapi';
import { createOperatorSession } from '../support/operator';
import { TEST_SECRET_KEY } from '../support/test-secrets';

// Operators' identity (docs/decisions/0050): the two-step login with its lockout and recovery codes, and every
// /api/operator/ route the app serves — read from its own OpenAPI document, so routes added later are covered —
// refused to anyone who is not an MFA-verified operator holding one of the route's roles.

const OPERATOR = DEMO_OPERATORS[0]!;
const APPROVER = DEMO_OPERATORS[1]!;
const DEMO_PASSWORD = 'Flujo-Demo-2026!';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
interface OperatorRoute {
  method: Method;
  /** The documented path with every {param} filled with 1. */
  url: string;
  roles: OperatorRole[];
}

function operatorRoutes(document: OpenApiDocument): OperatorRoute[] {
  return Object.entries(document.paths)
    .filter(([path]) => path.startsWith('/api/operator/'))
    .flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => ({
        method: method.toUpperCase() as Method,
        url: path.replace(/\{[^}]+\}/g, '1'),
        roles: ((operation as { 'x-operator-roles'?: OperatorRole[] })['x-operator-roles'] ??
          []) as OperatorRole[],
      })),
    );
}

describe('operators: two-step login and the back office refused to everyone else', () => {
  let ctx: ApiTestContext;
  const clock = testClock();

  beforeAll(async () => {
    ctx = await createApiApp({ now: clock.now });
  });
  afterAll(() => ctx.close());
  beforeEach(async () => {
    await ctx.database.db.deleteFrom('throttle_hits').execute();
  });

  const codeFor = (secret: string, offsetSteps = 0) =>
    hotp(base32Decode(secret), totpStep(clock.now()) + offsetSteps);
  const challenge = async (username: string) => {
    const res = await loginAs(ctx.app, username, DEMO_PASSWORD);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ mfa_required: boolean; mfa_token: string }>();
    expect(body).toEqual({ mfa_required: true, mfa_token: expect.any(String) });
    return body.mfa_token;
  };
  const sendCode = (mfa_token: string, code: string) =>
    ctx.app.inject({ method: 'POST', url: '/api/accounts/login/mfa/', payload: { mfa_token, code } });
  const audit = (access: string) =>
    ctx.app.inject({ method: 'GET', url: '/api/operator/audit/', headers: bearer(access) });

  describe('login', () => {
    it('asks an operator for the code instead of tokens, then opens an MFA-verified session', async () => {
      const token = await challenge(OPERATOR.username);
      const res = await sendCode(token, codeFor(OPERATOR.secret));
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({
        access: expect.any(String),
        refresh: expect.any(String),
        is_corporate: false,
        operator: {
          username: OPERATOR.username,
          first_name: OPERATOR.firstName,
          last_name: OPERATOR.lastName,
          roles: OPERATOR.roles,
        },
      });
      expect((await audit(body.access)).statusCode).toBe(200);
      // The challenge worked once.
      expect((await sendCode(token, codeFor(OPERATOR.secret, 1))).statusCode).toBe(401);
      // The refreshed session keeps the second factor.
      const rotated = await ctx.app.inject({
        method: 'POST',
        url: '/api/accounts/token/refresh/',
        payload: { refresh: body.refresh },
      });
      expect(rotated.statusCode).toBe(200);
      expect((await audit(rotated.json().access)).statusCode).toBe(200);
    });

    it('leaves provider and corporate logins as they were', async () => {
      for (const username of ['proveedor.demo', 'corporativo.demo']) {
        const body = (await loginAs(ctx.app, username, DEMO_PASSWORD)).json();
        expect(body.access).toEqual(expect.any(String));
        expect(body).not.toHaveProperty('mfa_required');
      }
    });

    it('refuses a wrong code (the challenge stays), a code already used and a step outside ±1', async () => {
      const token = await challenge(APPROVER.username);
      const wrong = await sendCode(token, codeFor(APPROVER.secret, 3));
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ code: [OPERATOR_LOGIN_MESSAGES.wrongCode] });
      // The previous step is accepted (a phone's clock a little behind).
      const previous = codeFor(APPROVER.secret, -1);
      expect((await sendCode(token, previous)).statusCode).toBe(200);
      // That step cannot sign in again, even with a new challenge.
      const again = await challenge(APPROVER.username);
      expect((await sendCode(again, previous)).statusCode).toBe(400);
      expect((await sendCode(again, codeFor(APPROVER.secret))).statusCode).toBe(200);
    });

    it('takes a recovery code once, whatever its case and dashes', async () => {
      const [code] = OPERATOR.recoveryCodes;
      const first = await sendCode(await challenge(OPERATOR.username), ` ${code!.toLowerCase()} `);
      expect(first.statusCode, first.body).toBe(200);
      const second = await sendCode(await challenge(OPERATOR.username), code!.replace('-', ''));
      expect(second.statusCode).toBe(400);
      expect(second.json()).toEqual({ code: [OPERATOR_LOGIN_MESSAGES.wrongCode] });
      // A right code resets the count the failure above started.
      expect(
        (await sendCode(await challenge(OPERATOR.username), codeFor(OPERATOR.secret, 1))).statusCode,
      ).toBe(200);
    });

    it('gives a demo database seeded before keyed codes (migration 016 dropped them) the demo codes back', async () => {
      const db = ctx.database.db;
      const approver = await db
        .selectFrom('users')
        .select('id')
        .where('username', '=', APPROVER.username)
        .executeTakeFirstOrThrow();
      await db.deleteFrom('operator_recovery_codes').where('user_id', '=', approver.id).execute();
      await db.deleteFrom('seeds').where('name', '=', DEMO_OPERATOR_CODES_SEED).execute();
      const code = APPROVER.recoveryCodes[3]!;
      expect((await sendCode(await challenge(APPROVER.username), code)).statusCode).toBe(400);

      expect(await seedDemoOperators(db, TEST_SECRET_KEY)).toEqual({ created: false });
      const restored = await sendCode(await challenge(APPROVER.username), code);
      expect(restored.statusCode, restored.body).toBe(200);
    });

    it('ends a challenge after five minutes', async () => {
      const token = await challenge(OPERATOR.username);
      clock.advanceMinutes(6);
      const res = await sendCode(token, codeFor(OPERATOR.secret));
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: OPERATOR_LOGIN_MESSAGES.challengeExpired });
    });

    it('locks the operator after five wrong codes: even the right code is refused until the lock ends', async () => {
      const operator = DEMO_OPERATORS[2]!;
      const token = await challenge(operator.username);
      for (let attempt = 1; attempt < MFA_MAX_FAILURES; attempt++) {
        expect((await sendCode(token, '000000')).statusCode).toBe(400);
      }
      const fifth = await sendCode(token, '000000');
      expect(fifth.statusCode).toBe(429);
      expect(fifth.json()).toEqual({ detail: OPERATOR_LOGIN_MESSAGES.locked });
      expect(Number(fifth.headers['retry-after'])).toBe(MFA_LOCK_MINUTES * 60);
      // The challenge is over and the password step says so too; the right code changes nothing.
      expect((await sendCode(token, codeFor(operator.secret))).statusCode).toBe(401);
      const locked = await loginAs(ctx.app, operator.username, DEMO_PASSWORD);
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toEqual({ detail: OPERATOR_LOGIN_MESSAGES.locked });
      clock.advanceMinutes(MFA_LOCK_MINUTES - 1);
      expect((await loginAs(ctx.app, operator.username, DEMO_PASSWORD)).statusCode).toBe(429);
      clock.advanceMinutes(2);
      const after = await sendCode(await challenge(operator.username), codeFor(operator.secret));
      expect(after.statusCode, after.body).toBe(200);
    });

    it('still answers a wrong password with the same 401 as anyone', async () => {
      const res = await loginAs(ctx.app, OPERATOR.username, 'no-es-la-clave');
      expect(res.statusCode).toBe(401);
      expect(res.json()).not.toHaveProperty('mfa_token');
    });
  });

  describe('npm run ops -- operator:create', () => {
    const run = async (...args: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const output: OpsOutput = { out: (line) => out.push(line), err: (line) => err.push(line) };
      const code = await runOpsCommand(OPS_COMMANDS['operator:create']!, args, {
        config: ctx.config,
        database: ctx.database,
        output,
        now: clock.now,
      });
      return { code, out, err };
    };

    it('creates an operator who sets a password from the e-mail and signs in with the printed enrolment', async () => {
      const created = await run(
        'ana.tesorera',
        '--email',
        'Ana.Tesorera@flujo.mx',
        '--roles',
        'tesoreria,analista',
        '--name',
        'Ana',
      );
      expect(created.code, created.err.join('\n')).toBe(0);
      const text = created.out.join('\n');
      expect(text).toContain('Operador ana.tesorera creado');
      expect(text).toContain('Tesorería, Analista');
      const uri = new URL(created.out.find((line) => line.trim().startsWith('otpauth://'))!.trim());
      expect(uri.searchParams.get('issuer')).toBe('Flujo');
      const secret = uri.searchParams.get('secret')!;
      const recovery = created.out
        .filter((line) => /^\s+[A-Z2-9]{5}(-[A-Z2-9]{5}){3}$/.test(line))
        .map((line) => line.trim());
      expect(recovery).toHaveLength(10);
      // The stored secret is sealed, never the base32 text itself.
      const row = await ctx.database.db
        .selectFrom('operator_totp')
        .innerJoin('users', 'users.id', 'operator_totp.user_id')
        .select('secret_encrypted')
        .where('users.username', '=', 'ana.tesorera')
        .executeTakeFirstOrThrow();
      expect(row.secret_encrypted).not.toContain(secret);

      // No password works until the invitation's link sets one.
      expect((await loginAs(ctx.app, 'ana.tesorera', DEMO_PASSWORD)).statusCode).toBe(401);
      const [mail] = await listOutbox(ctx.database.db, 1);
      expect(mail!.recipient).toBe('ana.tesorera@flujo.mx');
      expect(mail!.body_text).toContain('vence en 72 horas');
      const token = new URL(/https?:\/\/\S+token=\S+/.exec(mail!.body_text)![0]).searchParams.get('token')!;
      const reset = await ctx.app.inject({
        method: 'POST',
        url: '/api/users/reset-password/',
        payload: { token, new_password: 'Girasol-Norte-77' },
      });
      expect(reset.statusCode, reset.body).toBe(200);
      const challenged = await loginAs(ctx.app, 'ana.tesorera', 'Girasol-Norte-77');
      const signedIn = await sendCode(challenged.json().mfa_token, codeFor(secret));
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      expect(signedIn.json().operator.roles).toEqual(['tesoreria', 'analista']);
      // And a recovery code is the other way in.
      const again = await loginAs(ctx.app, 'ana.tesorera', 'Girasol-Norte-77');
      expect((await sendCode(again.json().mfa_token, recovery[9]!)).statusCode).toBe(200);
    });

    it('defaults to auditor and refuses unknown roles, taken names and bad e-mails in Spanish', async () => {
      const plain = await run('beto.auditor', '--email', 'beto@flujo.mx');
      expect(plain.code).toBe(0);
      expect(plain.out.join('\n')).toContain('roles Auditor');
      const unknown = await run('carla', '--email', 'carla@flujo.mx', '--roles', 'jefa');
      expect(unknown.code).toBe(2);
      expect(unknown.err.join('\n')).toContain('--roles toma una lista de');
      const taken = await run('beto.auditor', '--email', 'otro@flujo.mx');
      expect(taken.code).toBe(1);
      expect(taken.err.join('\n')).toContain('Ya existe un usuario beto.auditor');
      const badMail = await run('dora', '--email', 'no-es-correo');
      expect(badMail.code).toBe(1);
      expect(badMail.err.join('\n')).toContain('Debe ser un correo valido');
    });
  });

  describe('every /api/operator/ route', () => {
    let routes: OperatorRoute[];
    beforeAll(async () => {
      routes = operatorRoutes(await servedDocument(ctx.app));
    });

    it('is documented for operators only', () => {
      expect(routes.map((route) => `${route.method} ${route.url}`)).toContain('GET /api/operator/audit/');
    });

    it('refuses anonymous callers (401), providers, corporates and operators without the second factor (403)', async () => {
      const provider = (await sessionFor(ctx.app, 'proveedor.demo')).access;
      const corporate = (await sessionFor(ctx.app, 'corporativo.demo')).access;
      const withoutMfa = (
        await createOperatorSession(ctx, { roles: [...OPERATOR_ROLES], mfaVerified: false })
      ).access;
      const callers: [string, Record<string, string>, number][] = [
        ['anonymous', {}, 401],
        ['provider', bearer(provider), 403],
        ['corporate', bearer(corporate), 403],
        ['operator without 2FA', bearer(withoutMfa), 403],
      ];
      const wrong: string[] = [];
      for (const route of routes) {
        for (const [caller, headers, status] of callers) {
          const res = await ctx.app.inject({
            method: route.method,
            url: route.url,
            headers,
            ...(route.method === 'GET' ? {} : { payload: {} }),
          });
          if (res.statusCode !== status)
            wrong.push(`${route.method} ${route.url} as ${caller}: ${res.statusCode}`);
          else if (status === 403 && res.json().detail !== OPERATOR_MESSAGES.notOperator)
            wrong.push(`${route.method} ${route.url} as ${caller}: ${res.body}`);
        }
      }
      expect(wrong).toEqual([]);
    });

    it('lets each role read everything and write only what the contract gives it', async () => {
      const sessions = Object.fromEntries(
        await Promise.all(
          OPERATOR_ROLES.map(async (role) => [
            role,
            (await createOperatorSession(ctx, { roles: [role] })).access,
          ]),
        ),
      ) as Record<OperatorRole, string>;
      const wrong: string[] = [];
      for (const route of routes) {
        for (const role of OPERATOR_ROLES) {
          const res = await ctx.app.inject({
            method: route.method,
            url: route.url,
            headers: bearer(sessions[role]),
            ...(route.method === 'GET' ? {} : { payload: {} }),
          });
          const allowed = route.method === 'GET' || route.roles.includes(role);
          if (res.statusCode === 401 || res.statusCode >= 500)
            wrong.push(`${route.method} ${route.url} as ${role}: ${res.statusCode}`);
          if (allowed && res.statusCode === 403)
            wrong.push(`${route.method} ${route.url} refused to ${role}`);
          if (!allowed && res.statusCode !== 403)
            wrong.push(`${route.method} ${route.url} served to ${role}: ${res.statusCode}`);
        }
        if (route.method !== 'GET')
          expect(route.roles, `${route.method} ${route.url}`).not.toContain('auditor');
      }
      expect(wrong).toEqual([]);
    });

    it('writes who read the audit into the audit', async () => {
      const auditor = await createOperatorSession(ctx, { roles: ['auditor'] });
      expect((await audit(auditor.access)).statusCode).toBe(200);
      const page = (
        await ctx.app.inject({
          method: 'GET',
          url: `/api/operator/audit/?operator=${encodeURIComponent(auditor.username)}`,
          headers: bearer(auditor.access),
        })
      ).json();
      expect(page.count).toBe(1);
      expect(page.results[0]).toMatchObject({
        operator_username: auditor.username,
        action: 'Consultar la bitácora',
        method: 'GET',
        route: '/api/operator/audit/',
        status_code: 200,
        reason: null,
      });
      const bad = await ctx.app.inject({
        method: 'GET',
        url: '/api/operator/audit/?from=2026-13-01&to=ayer',
        headers: bearer(auditor.access),
      });
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json()).sort()).toEqual(['from', 'to']);
    });
  });
});
