import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRecaptchaCaptcha } from '../../server/captcha/recaptcha';
import { uniqueViolationField } from '../../server/modules/accounts/accounts.service';
import { PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG } from '../../server/modules/accounts/password-rules';
import { insertAccount } from '../../server/modules/accounts/user.repository';
import { SatStatus } from '../../src/domain/sat-status';
import { SERVER_MESSAGES } from '../../src/domain/schemas/session';
import { CHEAP_ALTCHA, loginAs, signUpPayload, solveAltcha } from '../support/accounts';
import {
  type ApiTestContext,
  createApiApp,
  PRODUCTION_LIMITS,
  testClock,
  testConfig,
} from '../support/api-app';

const CAPTCHA_FAILED = ['No pudimos verificar que no eres un robot. Intenta de nuevo.'];
const REQUIRED = ['Este campo es obligatorio'];

describe('POST /api/accounts/register/ (ALTCHA, the default CAPTCHA)', () => {
  let ctx: ApiTestContext;
  const clock = testClock();
  let address = 0;
  // A fresh client address per request keeps the sign-up throttle out of the tests that do not test it.
  const nextAddress = () => `10.20.${Math.floor(address / 250)}.${(address++ % 250) + 1}`;

  beforeAll(async () => {
    ctx = await createApiApp({
      now: clock.now,
      altchaDifficulty: CHEAP_ALTCHA,
      config: testConfig(PRODUCTION_LIMITS),
    });
  });
  afterAll(() => ctx.close());
  beforeEach(async () => {
    await ctx.database.db.deleteFrom('throttle_hits').execute();
  });

  const register = (payload: unknown, remoteAddress = nextAddress()) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/accounts/register/',
      payload: payload as object,
      remoteAddress,
    });
  const counts = async () => {
    const db = ctx.database.db;
    const users = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const companies = await db
      .selectFrom('companies')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return { users: Number(users.n), companies: Number(companies.n) };
  };
  /** Registers with a freshly solved CAPTCHA; the 400 answers of the field rules need no real token. */
  const registerSolved = async (overrides: Record<string, unknown> = {}) =>
    register(signUpPayload({ recaptcha_token: await solveAltcha(ctx.app), ...overrides }));

  it('creates the user and a company without RFC (SAT link pending); the user can log in', async () => {
    const before = await counts();
    const payload = signUpPayload({ recaptcha_token: await solveAltcha(ctx.app) });
    const res = await register(payload);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: 'Tu cuenta se creó correctamente. Ya puedes iniciar sesión.' });
    expect(await counts()).toEqual({ users: before.users + 1, companies: before.companies + 1 });

    const user = await ctx.database.db
      .selectFrom('users')
      .innerJoin('companies', 'companies.id', 'users.company_id')
      .select([
        'users.username',
        'users.email',
        'users.first_name',
        'users.last_name',
        'users.mobile_phone',
        'users.receive_notification',
        'users.password_hash',
        'companies.name',
        'companies.rfc',
        'companies.sat_status',
        'companies.is_corporate',
      ])
      .where('users.username', '=', String(payload.username))
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({
      email: payload.email,
      first_name: 'Mariana',
      last_name: 'Quintero',
      mobile_phone: '3312345678',
      receive_notification: true,
      name: 'Aceros del Pacífico, S.A. de C.V.',
      rfc: null,
      sat_status: SatStatus.DONT_SENT,
      is_corporate: false,
    });
    expect(user.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

    const login = await loginAs(ctx.app, String(payload.username), String(payload.password1));
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({
      sat_credentials_status: SatStatus.DONT_SENT,
      is_corporate: false,
      has_factoring: false,
      corporate_can_pay_costs: false,
    });
  });

  it('trims the text fields and stores receive_notification false when it is not sent', async () => {
    const payload = signUpPayload({ recaptcha_token: await solveAltcha(ctx.app), name: '  Mariana  ' });
    delete payload.receive_notification;
    expect((await register(payload)).statusCode).toBe(201);
    const row = await ctx.database.db
      .selectFrom('users')
      .select(['first_name', 'receive_notification'])
      .where('username', '=', String(payload.username))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ first_name: 'Mariana', receive_notification: false });
  });

  it('refuses a replayed CAPTCHA solution', async () => {
    const token = await solveAltcha(ctx.app);
    expect((await register(signUpPayload({ recaptcha_token: token }))).statusCode).toBe(201);
    const before = await counts();
    const replay = await register(signUpPayload({ recaptcha_token: token }));
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual({ recaptcha_token: CAPTCHA_FAILED });
    expect(await counts()).toEqual(before);
  });

  it('refuses a missing, garbage, tampered or expired CAPTCHA token', async () => {
    const before = await counts();
    const missing = signUpPayload();
    delete missing.recaptcha_token;
    expect((await register(missing)).json()).toEqual({ recaptcha_token: CAPTCHA_FAILED });
    expect((await register(signUpPayload({ recaptcha_token: '' }))).json()).toEqual({
      recaptcha_token: CAPTCHA_FAILED,
    });

    for (const token of ['basura', Buffer.from('{"challenge":1}').toString('base64'), 'x'.repeat(10_000)]) {
      const res = await register(signUpPayload({ recaptcha_token: token }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ recaptcha_token: CAPTCHA_FAILED });
    }

    // A made-up derived key (the proof of work), and a challenge whose signed data was changed.
    const good = JSON.parse(Buffer.from(await solveAltcha(ctx.app), 'base64').toString());
    const flipped = good.solution.derivedKey.startsWith('0') ? '1' : '0';
    const wrongKey = {
      ...good,
      solution: { ...good.solution, derivedKey: flipped + good.solution.derivedKey.slice(1) },
    };
    const tampered = {
      ...good,
      challenge: {
        ...good.challenge,
        parameters: { ...good.challenge.parameters, data: { action: 'login' } },
      },
    };
    for (const payload of [wrongKey, tampered]) {
      const token = Buffer.from(JSON.stringify(payload)).toString('base64');
      expect((await register(signUpPayload({ recaptcha_token: token }))).json()).toEqual({
        recaptcha_token: CAPTCHA_FAILED,
      });
    }

    const stale = await solveAltcha(ctx.app);
    clock.advanceMinutes(11);
    expect((await register(signUpPayload({ recaptcha_token: stale }))).json()).toEqual({
      recaptcha_token: CAPTCHA_FAILED,
    });
    expect(await counts()).toEqual(before);
  });

  it('re-checks every §5 rule with the spec messages and writes nothing', async () => {
    const before = await counts();
    const empty = await register({});
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({
      company: REQUIRED,
      email: REQUIRED,
      last_name: REQUIRED,
      mobile_phone: REQUIRED,
      name: REQUIRED,
      password1: ['La contraseña es obligatoria'],
      password2: ['Por favor, confirma tu contraseña'],
      username: REQUIRED,
      recaptcha_token: CAPTCHA_FAILED,
    });

    const blanks = await register(
      signUpPayload({ company: '  ', name: '', last_name: ' ', mobile_phone: '', username: '  ' }),
    );
    expect(blanks.json()).toEqual({
      company: REQUIRED,
      name: REQUIRED,
      last_name: REQUIRED,
      mobile_phone: REQUIRED,
      username: REQUIRED,
    });

    expect((await register(signUpPayload({ email: 'mariana@' }))).json()).toEqual({
      email: ['Debe ser un correo valido'],
    });
    expect((await register(signUpPayload({ password2: 'Tamarindo-Azul-59' }))).json()).toEqual({
      password2: ['Las contraseñas deben coincidir'],
    });
    expect((await register(signUpPayload({ receive_notification: 'sí' }))).json()).toEqual({
      receive_notification: ['Valor no válido'],
    });
    expect(await counts()).toEqual(before);
  });

  it("applies Django's password rules: length, numeric, common, similar to personal data", async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ password1: 'Xy7#kq', password2: 'Xy7#kq' }, ['La contraseña debe tener al menos 8 caracteres']],
      [
        { password1: '83920417', password2: '83920417' },
        ['La contraseña no puede ser completamente numérica.'],
      ],
      [
        { password1: '12345678', password2: '12345678' },
        ['La contraseña es demasiado común.', 'La contraseña no puede ser completamente numérica.'],
      ],
      [{ password1: 'Password1', password2: 'Password1' }, ['La contraseña es demasiado común.']],
      [{ password1: 'factoraje', password2: 'factoraje' }, ['La contraseña es demasiado común.']],
      [
        { username: 'gutierrezmar', password1: 'Gutierrez-Mar', password2: 'Gutierrez-Mar' },
        ['La contraseña es demasiado similar a la información personal.'],
      ],
      [
        { email: 'quintanilla.rosa@correo.mx', password1: 'rosaquintanilla', password2: 'rosaquintanilla' },
        ['La contraseña es demasiado similar a la información personal.'],
      ],
      [
        { last_name: 'Villaseñor', password1: 'Villaseñor7', password2: 'Villaseñor7' },
        ['La contraseña es demasiado similar a la información personal.'],
      ],
    ];
    for (const [overrides, messages] of cases) {
      const res = await register(signUpPayload(overrides));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ password1: messages });
    }
    // Similar-looking but different enough from the personal data: accepted.
    expect(
      (await registerSolved({ name: 'Rosa', password1: 'Nopal-Lunar-2291', password2: 'Nopal-Lunar-2291' }))
        .statusCode,
    ).toBe(201);
  });

  it('refuses a taken username or e-mail (case-insensitive) and an invalid username', async () => {
    const taken = await register(
      signUpPayload({ username: 'PROVEEDOR.demo', email: 'Corporativo.Demo@flujo.mx' }),
    );
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toEqual({
      username: ['Ya existe un usuario con este nombre de usuario.'],
      email: ['Ya existe un usuario con este correo electrónico.'],
    });
    const spaces = await register(signUpPayload({ username: 'mariana quintero' }));
    expect(spaces.json()).toEqual({
      username: [
        'Ingresa un nombre de usuario válido: solo letras, números y los caracteres @ . + - _ (sin espacios).',
      ],
    });
    const long = await register(signUpPayload({ username: 'a'.repeat(151), company: 'c'.repeat(256) }));
    expect(long.json()).toEqual({
      username: ['Asegúrate de que este campo no tenga más de 150 caracteres.'],
      company: ['Asegúrate de que este campo no tenga más de 255 caracteres.'],
    });
  });

  it('bounds the e-mail to 254 characters (RFC 5321) and writes nothing beyond', async () => {
    // 64 + 1 + 189 = 254 characters.
    const atLimit = `${'m'.repeat(64)}@${'d'.repeat(178)}.example.mx`;
    expect(atLimit).toHaveLength(254);
    const before = await counts();
    const long = await register(signUpPayload({ email: `m${atLimit}` }));
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({ email: ['Asegúrate de que este campo no tenga más de 254 caracteres.'] });
    expect(await counts()).toEqual(before);
    const accepted = await registerSolved({ email: atLimit });
    expect(accepted.statusCode, accepted.body).toBe(201);
  });

  it(`refuses a password longer than ${PASSWORD_MAX_LENGTH} characters with that rule alone`, async () => {
    const long = `${'Vhx-9Kw!'.repeat(PASSWORD_MAX_LENGTH / 8)}x`;
    const before = await counts();
    const res = await register(signUpPayload({ password1: long, password2: long }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ password1: [PASSWORD_TOO_LONG] });
    expect(await counts()).toEqual(before);
    const atLimit = long.slice(0, PASSWORD_MAX_LENGTH);
    const accepted = await registerSolved({ password1: atLimit, password2: atLimit });
    expect(accepted.statusCode, accepted.body).toBe(201);
  });

  it('does not spend the CAPTCHA on a form error: the same solution works once the form is fixed', async () => {
    const token = await solveAltcha(ctx.app);
    const payload = signUpPayload({ recaptcha_token: token });
    expect((await register({ ...payload, username: 'proveedor.demo' })).statusCode).toBe(400);
    expect((await register(payload)).statusCode).toBe(201);
  });

  it('recognises the UNIQUE violation a racing sign-up would meet (username or e-mail)', async () => {
    const account = {
      username: 'Proveedor.Demo',
      email: 'otra.persona@example.mx',
      passwordHash: 'x',
      firstName: 'Otra',
      lastName: 'Persona',
      mobilePhone: '5500000000',
      receiveNotification: false,
      companyName: 'Otra, S.A.',
    };
    const before = await counts();
    const failure = (values: typeof account) =>
      ctx.database.db
        .transaction()
        .execute((trx) => insertAccount(trx, values))
        .then(
          () => null,
          (error: unknown) => error,
        );
    expect(uniqueViolationField(await failure(account))).toBe('username');
    expect(
      uniqueViolationField(await failure({ ...account, username: 'otra', email: 'PROVEEDOR.demo@flujo.mx' })),
    ).toBe('email');
    // The transaction rolled the company back too.
    expect(await counts()).toEqual(before);
  });

  it('answers 400, never 500, to bodies that are not objects', async () => {
    for (const payload of ['[]', 'null', '42', '{"name":']) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/accounts/register/',
        headers: { 'content-type': 'application/json' },
        payload,
        remoteAddress: nextAddress(),
      });
      expect(res.statusCode).toBe(400);
    }
  });

  it('throttles sign-up attempts per address (5 per 10 minutes, 20 a day), refused forms too', async () => {
    const remoteAddress = '10.30.0.1';
    const before = await counts();
    for (let i = 0; i < 5; i++) expect((await register({}, remoteAddress)).statusCode).toBe(400);
    const blocked = await register(
      signUpPayload({ recaptcha_token: await solveAltcha(ctx.app) }),
      remoteAddress,
    );
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ detail: SERVER_MESSAGES.tooManyRequests });
    expect(blocked.headers['retry-after']).toBeDefined();
    expect(await counts()).toEqual(before);
    // Another address is not affected.
    expect((await register({}, '10.30.0.2')).statusCode).toBe(400);

    // Three more bursts of 5, ten minutes apart, fill the day's 20.
    for (let burst = 0; burst < 3; burst++) {
      clock.advanceMinutes(11);
      for (let i = 0; i < 5; i++) expect((await register({}, remoteAddress)).statusCode).toBe(400);
    }
    clock.advanceMinutes(11);
    expect((await register({}, remoteAddress)).statusCode).toBe(429);
    clock.advanceMinutes(24 * 60);
    expect(
      (await register(signUpPayload({ recaptcha_token: await solveAltcha(ctx.app) }), remoteAddress))
        .statusCode,
    ).toBe(201);
  });
});

describe('CAPTCHA endpoints', () => {
  let ctx: ApiTestContext;
  beforeAll(async () => {
    // The production difficulty and key derivation, as `npm start` runs them.
    ctx = await createApiApp();
  });
  afterAll(() => ctx.close());

  it('says ALTCHA is active and serves signed, expiring, uncacheable challenges for register', async () => {
    const config = await ctx.app.inject({ method: 'GET', url: '/api/accounts/captcha/config/' });
    expect(config.json()).toEqual({ provider: 'altcha' });

    const res = await ctx.app.inject({ method: 'GET', url: '/api/accounts/captcha/challenge/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const challenge = res.json();
    expect(challenge).toEqual({
      parameters: expect.objectContaining({
        algorithm: 'PBKDF2/SHA-256',
        cost: 1000,
        data: { action: 'register' },
        expiresAt: expect.any(Number),
        keyPrefix: expect.stringMatching(/^[0-9a-f]+$/),
        keySignature: expect.any(String),
        nonce: expect.any(String),
        salt: expect.any(String),
      }),
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const minutesLeft = (challenge.parameters.expiresAt * 1000 - Date.now()) / 60_000;
    expect(minutesLeft).toBeGreaterThan(9);
    expect(minutesLeft).toBeLessThanOrEqual(10);

    // 'login' is an action since decision 0061; any other is refused.
    const unknown = await ctx.app.inject({
      method: 'GET',
      url: '/api/accounts/captcha/challenge/?action=pagar',
    });
    expect(unknown.statusCode).toBe(400);
    const login = await ctx.app.inject({
      method: 'GET',
      url: '/api/accounts/captcha/challenge/?action=login',
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().parameters.data).toEqual({ action: 'login' });
  });

  it('signs up with a challenge of the production difficulty solved by altcha-lib', async () => {
    const token = await solveAltcha(ctx.app);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/accounts/register/',
      payload: signUpPayload({ recaptcha_token: token }),
    });
    expect(res.statusCode).toBe(201);
  });
});

describe('reCAPTCHA v3 (when RECAPTCHA_SECRET_KEY and RECAPTCHA_SITE_KEY are set)', () => {
  // NOTE: Google cannot be reached offline; these tests stand a fake siteverify in for it.
  let ctx: ApiTestContext;
  let answer: Record<string, unknown> | Error = {};
  const calls: URLSearchParams[] = [];
  const fakeFetch: typeof fetch = async (_url, init) => {
    calls.push(new URLSearchParams(String(init?.body)));
    if (answer instanceof Error) throw answer;
    return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
  };

  beforeAll(async () => {
    ctx = await createApiApp({
      captcha: createRecaptchaCaptcha({
        secretKey: 'secreto-de-prueba',
        siteKey: 'clave-de-sitio',
        fetch: fakeFetch,
      }),
    });
  });
  afterAll(() => ctx.close());

  const register = (token: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/accounts/register/',
      payload: signUpPayload({ recaptcha_token: token }),
      remoteAddress: '10.40.0.7',
    });

  it('tells the browser to run reCAPTCHA with the site key; no ALTCHA challenges are served', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/accounts/captcha/config/' })).json()).toEqual({
      provider: 'recaptcha',
      site_key: 'clave-de-sitio',
    });
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/accounts/captcha/challenge/' })).statusCode,
    ).toBe(404);
  });

  it('accepts a token Google scores ≥ 0.5 for the action register, sending secret, token and address', async () => {
    answer = { success: true, score: 0.9, action: 'register', hostname: 'flujo.mx' };
    expect((await register('token-de-google')).statusCode).toBe(201);
    const sent = calls.at(-1)!;
    expect(Object.fromEntries(sent)).toEqual({
      secret: 'secreto-de-prueba',
      response: 'token-de-google',
      remoteip: '10.40.0.7',
    });
  });

  it('refuses a low score, another action, a failed check and an unreachable Google', async () => {
    for (const bad of [
      { success: true, score: 0.3, action: 'register' },
      { success: true, score: 0.9, action: 'login' },
      { success: false, 'error-codes': ['timeout-or-duplicate'] },
      new Error('getaddrinfo ENOTFOUND www.google.com'),
    ]) {
      answer = bad;
      const res = await register('token-de-google');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ recaptcha_token: CAPTCHA_FAILED });
    }
  });

  it('is what the configuration selects when both keys are set', async () => {
    const config = testConfig({ RECAPTCHA_SECRET_KEY: 'secreto', RECAPTCHA_SITE_KEY: 'sitio' });
    const configured = await createApiApp({ config });
    try {
      const res = await configured.app.inject({ method: 'GET', url: '/api/accounts/captcha/config/' });
      expect(res.json()).toEqual({ provider: 'recaptcha', site_key: 'sitio' });
    } finally {
      await configured.close();
    }
  });
});
