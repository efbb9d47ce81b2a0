// @postgresql: parallel login guesses counted once each: the throttle counter updated from concurrent connections.
import { SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CAPTCHA_FAILED_MESSAGE } from '../../server/captcha/captcha';
import { SatStatus } from '../../src/domain/sat-status';
import { SERVER_MESSAGES } from '../../src/domain/schemas/session';
import {
  bearer,
  CHEAP_ALTCHA,
  DEMO_PASSWORD,
  loginAs,
  type Session,
  sessionFor,
  solveAltcha,
} from '../support/accounts';
import { type ApiTestContext, createApiApp, testClock, testConfig } from '../support/api-app';
import { createOperatorSession } from '../support/operator';

const BAD_CREDENTIALS = { detail: 'Error en contraseña o usuario' };
const TOO_MANY = { detail: 'Demasiados intentos. Intenta de nuevo en unos minutos.' };
const NOT_AUTHENTICATED = { detail: 'Las credenciales de autenticación no se proveyeron o expiraron.' };

describe('session: login, token refresh and authentication', () => {
  let ctx: ApiTestContext;
  const clock = testClock();
  const pauses: number[] = [];

  beforeAll(async () => {
    ctx = await createApiApp({
      now: clock.now,
      altchaDifficulty: CHEAP_ALTCHA,
      // The wait before a wrong password's 401 is recorded, not waited out.
      pause: async (ms) => {
        pauses.push(ms);
      },
    });
  });
  afterAll(() => ctx.close());
  // Each test starts with empty throttles; the throttle tests fill them on purpose.
  beforeEach(async () => {
    await ctx.database.db.deleteFrom('throttle_hits').execute();
  });

  /** A login as the browser sends it, with the CAPTCHA 'login' solved when asked to (test/support/accounts.ts). */
  const loginWith = async (
    attempt: { username: string; password?: string; captcha?: boolean; captchaToken?: string },
    remoteAddress: string,
  ) => {
    const captchaToken =
      attempt.captchaToken ?? (attempt.captcha ? await solveAltcha(ctx.app, 'login') : undefined);
    return ctx.app.inject({
      method: 'POST',
      url: '/api/accounts/login/',
      payload: {
        username: attempt.username,
        password: attempt.password ?? DEMO_PASSWORD,
        ...(captchaToken !== undefined && { captcha_token: captchaToken }),
      },
      remoteAddress,
    });
  };
  const refresh = (token: unknown) =>
    ctx.app.inject({ method: 'POST', url: '/api/accounts/token/refresh/', payload: { refresh: token } });
  const profile = (headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'GET', url: '/api/accounts/profile/', headers });

  describe('POST /api/accounts/login/', () => {
    it('logs the demo provider in with tokens and its flags', async () => {
      const res = await loginAs(ctx.app, 'proveedor.demo');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toEqual({
        access: expect.any(String),
        refresh: expect.any(String),
        sat_credentials_status: SatStatus.AUTHORIZED,
        corporate_can_pay_costs: false,
        has_factoring: false,
        is_corporate: false,
      });
      const [header, payload] = body.access
        .split('.')
        .slice(0, 2)
        .map((part: string) => JSON.parse(Buffer.from(part, 'base64url').toString()));
      expect(header).toMatchObject({ alg: 'HS256', typ: 'JWT' });
      expect(payload).toMatchObject({
        token_type: 'access',
        sub: expect.any(String),
        jti: expect.any(String),
      });
      // ACCESS_TOKEN_MINUTES defaults to 5.
      expect(payload.exp - payload.iat).toBe(5 * 60);
      const refreshPayload = JSON.parse(Buffer.from(body.refresh.split('.')[1], 'base64url').toString());
      expect(refreshPayload).toMatchObject({ token_type: 'refresh' });
      expect(refreshPayload.exp - refreshPayload.iat).toBe(24 * 3600);
    });

    it('logs the demo corporate in with is_corporate, case-insensitively on the username', async () => {
      const res = await loginAs(ctx.app, 'Corporativo.Demo');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ sat_credentials_status: SatStatus.AUTHORIZED, is_corporate: true });
    });

    it('answers the same 401 for a wrong password and an unknown username', async () => {
      const wrong = await loginAs(ctx.app, 'proveedor.demo', 'Flujo-Demo-2025!', '10.1.0.1');
      const unknown = await loginAs(ctx.app, 'nadie.aqui', 'Flujo-Demo-2026!', '10.1.0.1');
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json()).toEqual(BAD_CREDENTIALS);
      expect(unknown.json()).toEqual(BAD_CREDENTIALS);
    });

    it('refuses an inactive user with the same 401', async () => {
      await ctx.database.db
        .updateTable('users')
        .set({ is_active: false })
        .where('username', '=', 'corporativo.demo')
        .execute();
      try {
        const res = await loginAs(ctx.app, 'corporativo.demo', undefined, '10.1.0.2');
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual(BAD_CREDENTIALS);
      } finally {
        await ctx.database.db
          .updateTable('users')
          .set({ is_active: true })
          .where('username', '=', 'corporativo.demo')
          .execute();
      }
    });

    it('requires both fields (spec §5) and never answers 500 to garbage', async () => {
      const empty = await ctx.app.inject({
        method: 'POST',
        url: '/api/accounts/login/',
        payload: { username: ' ' },
      });
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toEqual({
        username: ['Este campo es obligatorio'],
        password: ['Este campo es obligatorio'],
      });
      for (const payload of ['[]', 'null', '"x"', '{"username":']) {
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/accounts/login/',
          headers: { 'content-type': 'application/json' },
          payload,
        });
        expect(res.statusCode).toBe(400);
      }
    });

    it('limits a username from one address to 5 failures in 15 minutes; other addresses are not locked', async () => {
      const username = 'proveedor.demo';
      for (let i = 0; i < 3; i++) {
        expect((await loginAs(ctx.app, username, `intento-${i}`, '10.2.0.1')).statusCode).toBe(401);
      }
      // From the 4th failure on, a guess needs the CAPTCHA 'login'; with it the password is checked again.
      for (let i = 3; i < 5; i++) {
        const res = await loginWith({ username, password: `intento-${i}`, captcha: true }, '10.2.0.1');
        expect(res.statusCode).toBe(401);
      }
      const blocked = await loginWith({ username, captcha: true }, '10.2.0.1');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual(TOO_MANY);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);

      // The owner, from anywhere else, still signs in (with the CAPTCHA the failures ask for).
      expect((await loginWith({ username, captcha: true }, '10.2.0.99')).statusCode).toBe(200);
      // Other usernames from the same address are not affected; after the window the address may try again.
      expect((await loginAs(ctx.app, 'corporativo.demo', undefined, '10.2.0.1')).statusCode).toBe(200);
      clock.advanceMinutes(16);
      expect((await loginAs(ctx.app, username, undefined, '10.2.0.1')).statusCode).toBe(200);
    });

    it('asks for the CAPTCHA after 3 failures of a username from any address, and refuses a wrong or reused one', async () => {
      const username = 'corporativo.demo';
      for (let i = 0; i < 3; i++) {
        expect((await loginAs(ctx.app, username, `mala-${i}`, `10.8.0.${i + 1}`)).statusCode).toBe(401);
      }
      const missing = await loginAs(ctx.app, username, undefined, '10.8.0.9');
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual({
        captcha_token: [SERVER_MESSAGES.loginCaptchaRequired],
        captcha_required: true,
      });
      const forged = await loginWith({ username, captchaToken: 'no-es-un-captcha' }, '10.8.0.9');
      expect(forged.statusCode).toBe(400);
      expect(forged.json()).toEqual({ captcha_token: [CAPTCHA_FAILED_MESSAGE], captcha_required: true });
      // A token for sign-up is not one for login.
      const registerToken = await solveAltcha(ctx.app, 'register');
      const otherAction = await loginWith({ username, captchaToken: registerToken }, '10.8.0.9');
      expect(otherAction.statusCode).toBe(400);

      // A solved CAPTCHA lets the password be checked once: a wrong one is still a 401, and the token is spent.
      const token = await solveAltcha(ctx.app, 'login');
      const wrong = await loginWith({ username, password: 'mala-3', captchaToken: token }, '10.8.0.9');
      expect(wrong.statusCode).toBe(401);
      expect((await loginWith({ username, captchaToken: token }, '10.8.0.9')).statusCode).toBe(400);
      // Refused CAPTCHAs count against the address like wrong passwords: five here, so another address signs in.
      const fresh = await solveAltcha(ctx.app, 'login');
      expect((await loginWith({ username, captchaToken: fresh }, '10.8.0.9')).statusCode).toBe(429);
      expect((await loginWith({ username, captchaToken: fresh }, '10.8.0.10')).statusCode).toBe(200);
    });

    it('slows wrong answers down once the CAPTCHA is required, up to 4 s, and never the right password', async () => {
      pauses.length = 0;
      const username = 'proveedor.demo';
      for (let i = 0; i < 3; i++) await loginAs(ctx.app, username, `lenta-${i}`, `10.9.0.${i + 1}`);
      for (let i = 3; i < 10; i++) {
        const res = await loginWith({ username, password: `lenta-${i}`, captcha: true }, `10.9.0.${i + 1}`);
        expect(res.statusCode).toBe(401);
      }
      expect(pauses.filter((ms) => ms > 0)).toEqual([250, 500, 1000, 2000, 4000, 4000, 4000]);
      pauses.length = 0;
      expect((await loginWith({ username, captcha: true }, '10.9.0.99')).statusCode).toBe(200);
      expect(pauses).toEqual([]);
    });

    it('clears the username counter on a successful login', async () => {
      for (let i = 0; i < 3; i++) await loginAs(ctx.app, 'corporativo.demo', `mala-${i}`, '10.3.0.1');
      expect((await loginWith({ username: 'corporativo.demo', captcha: true }, '10.3.0.2')).statusCode).toBe(
        200,
      );
      for (let i = 0; i < 3; i++) {
        expect((await loginAs(ctx.app, 'corporativo.demo', `mala-${i}`, '10.3.0.3')).statusCode).toBe(401);
      }
      // Three failures again, not six: the CAPTCHA is asked for only now.
      expect((await loginAs(ctx.app, 'corporativo.demo', undefined, '10.3.0.4')).statusCode).toBe(400);
    });

    it('counts parallel guesses too: 8 at once for one username from one address → 5 answers, the rest 429', async () => {
      const attempts = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          loginAs(ctx.app, 'corporativo.demo', `paralela-${i}`, '10.6.0.1'),
        ),
      );
      const statuses = attempts.map((res) => res.statusCode);
      // Each of the first five is a 401 or, once three failures are recorded, a 400 asking for the CAPTCHA.
      expect(statuses.filter((status) => status === 429)).toHaveLength(3);
      expect(statuses.filter((status) => status === 401 || status === 400)).toHaveLength(5);
      // The owner elsewhere is not locked out.
      expect((await loginWith({ username: 'corporativo.demo', captcha: true }, '10.6.0.2')).statusCode).toBe(
        200,
      );
    });

    it('answers 401, never 500, to a username of any length or with a NUL character', async () => {
      const long = await loginAs(ctx.app, 'x'.repeat(20_000), 'no-importa-123', '10.7.0.1');
      expect(long.statusCode).toBe(401);
      const nul = await loginAs(ctx.app, 'proveedor.demo\u0000', 'no-importa-123', '10.7.0.2');
      expect(nul.statusCode).toBe(400);
      expect(nul.json()).toEqual({ username: ['Valor no válido'] });
    });

    it('ignores a client-supplied X-Forwarded-For unless TRUST_PROXY is set', async () => {
      const address = '10.5.0.1';
      for (let i = 0; i < 20; i++) {
        // A new "address" in the header each time: without a trusted proxy it must not count as one.
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/accounts/login/',
          payload: { username: `falso.${i}`, password: 'no-importa-123' },
          remoteAddress: address,
          headers: { 'x-forwarded-for': `203.0.113.${i}` },
        });
        expect(res.statusCode).toBe(401);
      }
      expect((await loginAs(ctx.app, 'proveedor.demo', undefined, address)).statusCode).toBe(429);
    });

    it('throttles an address after 20 failures in 15 minutes, whatever the usernames', async () => {
      const address = '10.4.0.1';
      for (let i = 0; i < 20; i++) {
        const res = await loginAs(ctx.app, `usuario.${i}`, 'no-importa-123', address);
        expect(res.statusCode).toBe(401);
      }
      const blocked = await loginAs(ctx.app, 'proveedor.demo', undefined, address);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual(TOO_MANY);
      expect((await loginAs(ctx.app, 'proveedor.demo', undefined, '10.4.0.2')).statusCode).toBe(200);
      clock.advanceMinutes(16);
      expect((await loginAs(ctx.app, 'proveedor.demo', undefined, address)).statusCode).toBe(200);
    });
  });

  describe('POST /api/accounts/logout/', () => {
    const logout = (headers: Record<string, string> = {}) =>
      ctx.app.inject({ method: 'POST', url: '/api/accounts/logout/', headers });

    it('ends the session: every refresh token of that login and its access token answer 401', async () => {
      const session = await sessionFor(ctx.app, 'proveedor.demo');
      const other = await sessionFor(ctx.app, 'proveedor.demo');
      const rotated = (await refresh(session.refresh)).json<Session>();
      const res = await logout(bearer(rotated));
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');

      expect((await refresh(rotated.refresh)).statusCode).toBe(401);
      expect((await refresh(session.refresh)).statusCode).toBe(401);
      expect((await profile(bearer(rotated))).statusCode).toBe(401);
      expect((await profile(bearer(session))).statusCode).toBe(401);
      // The user's other session (another browser) stays.
      expect((await profile(bearer(other))).statusCode).toBe(200);
      expect((await refresh(other.refresh)).statusCode).toBe(200);
    });

    it("ends an operator's session the same way", async () => {
      const operator = await createOperatorSession(ctx, { roles: ['analista'] });
      const desk = () =>
        ctx.app.inject({ method: 'GET', url: '/api/accounts/profile/', headers: bearer(operator.access) });
      expect((await desk()).statusCode).not.toBe(401);
      expect((await logout(bearer(operator.access))).statusCode).toBe(204);
      expect((await refresh(operator.refresh)).statusCode).toBe(401);
      expect((await desk()).statusCode).toBe(401);
    });

    it('answers 401 without a session, and to a second logout with the same token', async () => {
      expect((await logout()).statusCode).toBe(401);
      const session = await sessionFor(ctx.app, 'corporativo.demo');
      expect((await logout(bearer(session))).statusCode).toBe(204);
      expect((await logout(bearer(session))).statusCode).toBe(401);
    });
  });

  describe('POST /api/accounts/token/refresh/', () => {
    it('rotates: new access and refresh tokens plus the four flags', async () => {
      const session = await sessionFor(ctx.app, 'corporativo.demo');
      const res = await refresh(session.refresh);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toEqual({
        access: expect.any(String),
        refresh: expect.any(String),
        sat_credentials_status: SatStatus.AUTHORIZED,
        corporate_can_pay_costs: false,
        has_factoring: false,
        is_corporate: true,
      });
      expect(body.refresh).not.toBe(session.refresh);
      expect(body.access).not.toBe(session.access);
      expect((await profile(bearer(body.access))).statusCode).toBe(200);
      // The rotated token works once more.
      expect((await refresh(body.refresh)).statusCode).toBe(200);
    });

    it('reflects flag changes made on the server since login', async () => {
      const session = await sessionFor(ctx.app, 'proveedor.demo');
      await ctx.database.db
        .updateTable('companies')
        .set({ has_factoring: true })
        .where('rfc', '=', 'EBA120815RTA')
        .execute();
      try {
        const res = await refresh(session.refresh);
        expect(res.json()).toMatchObject({ has_factoring: true });
      } finally {
        await ctx.database.db
          .updateTable('companies')
          .set({ has_factoring: false })
          .where('rfc', '=', 'EBA120815RTA')
          .execute();
      }
    });

    it('treats a reused refresh token as stolen: 401 and the whole family revoked', async () => {
      const first: Session = await sessionFor(ctx.app, 'proveedor.demo');
      const other: Session = await sessionFor(ctx.app, 'proveedor.demo');
      const second = (await refresh(first.refresh)).json<Session>();
      const third = (await refresh(second.refresh)).json<Session>();

      const replay = await refresh(first.refresh);
      expect(replay.statusCode).toBe(401);
      expect(replay.json()).toEqual({ detail: 'La sesión expiró o no es válida. Inicia sesión de nuevo.' });

      // Every token of the family is dead, including the newest one and its access token...
      expect((await refresh(third.refresh)).statusCode).toBe(401);
      expect((await profile(bearer(third.access))).statusCode).toBe(401);
      // ...while another login (another family) keeps working.
      expect((await profile(bearer(other.access))).statusCode).toBe(200);
      expect((await refresh(other.refresh)).statusCode).toBe(200);
    });

    it('refuses an expired refresh token; the family lifetime is absolute from login', async () => {
      const session = await sessionFor(ctx.app, 'corporativo.demo');
      clock.advanceMinutes(23 * 60);
      const rotated = await refresh(session.refresh);
      expect(rotated.statusCode).toBe(200);
      const payload = JSON.parse(Buffer.from(rotated.json().refresh.split('.')[1], 'base64url').toString());
      // Rotation does not extend the session: about one hour is left, not 24.
      expect(payload.exp - payload.iat).toBeLessThanOrEqual(3600);
      clock.advanceMinutes(61);
      const expired = await refresh(rotated.json().refresh);
      expect(expired.statusCode).toBe(401);
    });

    it('refuses garbage, an access token, a token signed with another key, and a missing field', async () => {
      const session = await sessionFor(ctx.app, 'corporativo.demo');
      expect((await refresh('no.es.un.jwt')).statusCode).toBe(401);
      expect((await refresh(session.access)).statusCode).toBe(401);
      const forged = await new SignJWT({ token_type: 'refresh', fam: 'x' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('1')
        .setJti('forged')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('otra-clave-de-firma-de-al-menos-32-caracteres'));
      expect((await refresh(forged)).statusCode).toBe(401);
      const missing = await ctx.app.inject({
        method: 'POST',
        url: '/api/accounts/token/refresh/',
        payload: {},
      });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual({ refresh: ['Este campo es obligatorio'] });
      expect((await refresh(12345)).statusCode).toBe(400);
    });
  });

  describe('authentication (Authorization: Bearer <access>)', () => {
    it('answers 401 with a Spanish detail when the token is missing, garbage, of the wrong kind or forged', async () => {
      const session = await sessionFor(ctx.app, 'proveedor.demo');
      // The claims of a real, valid access token under an "alg: none" header: only the algorithm is wrong.
      const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${
        session.access.split('.')[1]
      }.`;
      for (const headers of [
        {},
        { authorization: 'Bearer' },
        { authorization: 'Bearer basura' },
        { authorization: `Basic ${session.access}` },
        bearer(session.refresh),
        bearer(unsigned),
      ]) {
        const res = await profile(headers);
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual(NOT_AUTHENTICATED);
      }
      expect((await profile(bearer(session.access))).statusCode).toBe(200);
    });

    it('refuses an access token after ACCESS_TOKEN_MINUTES', async () => {
      const session = await sessionFor(ctx.app, 'proveedor.demo');
      clock.advanceMinutes(4);
      expect((await profile(bearer(session))).statusCode).toBe(200);
      clock.advanceMinutes(2);
      const expired = await profile(bearer(session));
      expect(expired.statusCode).toBe(401);
      expect(expired.json()).toEqual(NOT_AUTHENTICATED);
    });

    it('refuses the access token of a user deactivated since login', async () => {
      const session = await sessionFor(ctx.app, 'corporativo.demo');
      await ctx.database.db
        .updateTable('users')
        .set({ is_active: false })
        .where('username', '=', 'corporativo.demo')
        .execute();
      try {
        expect((await profile(bearer(session))).statusCode).toBe(401);
        expect((await refresh(session.refresh)).statusCode).toBe(401);
      } finally {
        await ctx.database.db
          .updateTable('users')
          .set({ is_active: true })
          .where('username', '=', 'corporativo.demo')
          .execute();
      }
    });
  });
});

describe('login behind a trusted proxy: a stranger cannot lock the owner out', () => {
  let ctx: ApiTestContext;

  beforeAll(async () => {
    ctx = await createApiApp({ config: testConfig({ TRUST_PROXY: 'true' }), altchaDifficulty: CHEAP_ALTCHA });
  });
  afterAll(() => ctx.close());

  const login = (address: string, password: string, captchaToken?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/accounts/login/',
      payload: { username: 'proveedor.demo', password, ...(captchaToken && { captcha_token: captchaToken }) },
      headers: { 'x-forwarded-for': address },
    });

  it('six wrong passwords from one address do not stop the right password from another', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      // The stranger solves the CAPTCHA too once it is asked for: only the address limit stops them.
      const token = i >= 3 ? await solveAltcha(ctx.app, 'login') : undefined;
      statuses.push((await login('198.51.100.1', `adivinanza-${i}`, token)).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);

    const owner = await login('198.51.100.2', DEMO_PASSWORD, await solveAltcha(ctx.app, 'login'));
    expect(owner.statusCode).toBe(200);
    expect(owner.json()).toMatchObject({ access: expect.any(String), refresh: expect.any(String) });
    // The stranger's address is still limited for this username.
    expect((await login('198.51.100.1', DEMO_PASSWORD, await solveAltcha(ctx.app, 'login'))).statusCode).toBe(
      429,
    );
  });

  it('keeps the per-address limit: 20 failures from one address, whatever the usernames, then 429', async () => {
    for (let i = 0; i < 20; i++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/accounts/login/',
        payload: { username: `desconocido.${i}`, password: 'no-importa-123' },
        headers: { 'x-forwarded-for': '198.51.100.7' },
      });
      expect(res.statusCode).toBe(401);
    }
    expect((await login('198.51.100.7', DEMO_PASSWORD)).statusCode).toBe(429);
    expect((await login('198.51.100.8', DEMO_PASSWORD)).statusCode).toBe(200);
  });
});
