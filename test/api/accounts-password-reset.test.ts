import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMailDelivery, type MailMessage, mailRetryDelayMs } from '../../server/mail/mailer';
import { PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG } from '../../server/modules/accounts/password-rules';
import { SERVER_MESSAGES } from '../../src/domain/schemas/session';
import { DEMO_PASSWORD, loginAs, sessionFor } from '../support/accounts';
import {
  type ApiTestContext,
  createApiApp,
  PRODUCTION_LIMITS,
  testClock,
  testConfig,
} from '../support/api-app';

const SENT = { message: 'Te enviamos un correo con las instrucciones para restablecer tu contraseña.' };
const INVALID_LINK = 'El enlace para restablecer la contraseña no es válido o expiró.';
const silentLog = { info() {}, warn() {}, error() {} };
const TOO_MANY = { detail: SERVER_MESSAGES.tooManyRequests };

describe('password reset (invoices service, /api/users/)', () => {
  let ctx: ApiTestContext;
  const clock = testClock();
  beforeAll(async () => {
    ctx = await createApiApp({ now: clock.now, config: testConfig(PRODUCTION_LIMITS) });
  });
  afterAll(() => ctx.close());
  beforeEach(async () => {
    await ctx.database.db.deleteFrom('throttle_hits').execute();
  });

  const requestReset = (payload: unknown, remoteAddress = '10.50.0.1') =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/users/request-reset-password/',
      payload: payload as object,
      remoteAddress,
    });
  const reset = (payload: unknown) =>
    ctx.app.inject({ method: 'POST', url: '/api/users/reset-password/', payload: payload as object });
  const latestMail = () =>
    ctx.database.db.selectFrom('mail_outbox').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();

  /** Requests a reset for the address and returns the token of the link in the e-mail. */
  async function tokenFor(email: string): Promise<string> {
    const res = await requestReset({ email });
    expect(res.statusCode).toBe(200);
    const mail = await latestMail();
    const link = /http\S+/.exec(mail.body_text)?.[0];
    if (!link) throw new Error(`no link in ${mail.body_text}`);
    return new URL(link).searchParams.get('token') ?? '';
  }

  describe('POST /api/users/request-reset-password/', () => {
    it('mails a one-hour link to the new-password screen and stores only a hash of its token', async () => {
      const res = await requestReset({ email: ' Proveedor.Demo@flujo.mx ' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(SENT);

      const mail = await latestMail();
      expect(mail).toMatchObject({
        recipient: 'proveedor.demo@flujo.mx',
        subject: 'Restablece tu contraseña de Flujo',
        sent_at: null,
        error: null,
      });
      expect(mail.body_text).toContain('Hola Lucía:');
      expect(mail.body_text).toContain('vence en 60 minutos');
      const link = new URL(/http\S+/.exec(mail.body_text)![0]);
      expect(`${link.origin}${link.pathname}`).toBe('http://localhost:8080/auth/reiniciar-contrasena/');
      const token = link.searchParams.get('token')!;
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const stored = await ctx.database.db
        .selectFrom('password_reset_tokens')
        .selectAll()
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(stored.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
      const minutes = (new Date(stored.expires_at).getTime() - clock.now().getTime()) / 60_000;
      expect(minutes).toBeGreaterThan(59);
      expect(minutes).toBeLessThanOrEqual(60);
    });

    it("answers an unknown e-mail with the message the spec's client maps", async () => {
      const res = await requestReset({ email: 'nadie@example.mx' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'User with this email does not exist' });
    });

    it('requires a valid e-mail', async () => {
      expect((await requestReset({ email: 'no-es-correo' })).json()).toEqual({
        email: ['Debe ser un correo valido'],
      });
      expect((await requestReset({})).json()).toEqual({ email: ['Este campo es obligatorio'] });
      const garbage = await ctx.app.inject({
        method: 'POST',
        url: '/api/users/request-reset-password/',
        headers: { 'content-type': 'application/json' },
        payload: '[1]',
      });
      expect(garbage.statusCode).toBe(400);
    });

    it('throttles per e-mail (5 per hour) and per address (20 per hour)', async () => {
      for (let i = 0; i < 5; i++) {
        expect(
          (await requestReset({ email: 'corporativo.demo@flujo.mx' }, `10.51.0.${i + 1}`)).statusCode,
        ).toBe(200);
      }
      const byEmail = await requestReset({ email: 'CORPORATIVO.demo@flujo.mx' }, '10.51.0.99');
      expect(byEmail.statusCode).toBe(429);
      expect(byEmail.json()).toEqual(TOO_MANY);
      expect(byEmail.headers['retry-after']).toBeDefined();

      for (let i = 0; i < 20; i++) {
        expect((await requestReset({ email: `desconocido${i}@example.mx` }, '10.52.0.1')).statusCode).toBe(
          400,
        );
      }
      const byAddress = await requestReset({ email: 'proveedor.demo@flujo.mx' }, '10.52.0.1');
      expect(byAddress.statusCode).toBe(429);

      clock.advanceMinutes(61);
      expect((await requestReset({ email: 'corporativo.demo@flujo.mx' }, '10.52.0.1')).statusCode).toBe(200);
    });
  });

  describe('POST /api/users/reset-password/', () => {
    it('sets the new password once, ends every session and spends the link', async () => {
      const before = await sessionFor(ctx.app, 'corporativo.demo');
      const token = await tokenFor('corporativo.demo@flujo.mx');
      const res = await reset({ new_password: 'Guayaba-Serena-46', token });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'Tu contraseña se restableció correctamente.' });

      expect((await loginAs(ctx.app, 'corporativo.demo', DEMO_PASSWORD)).statusCode).toBe(401);
      expect((await loginAs(ctx.app, 'corporativo.demo', 'Guayaba-Serena-46')).statusCode).toBe(200);
      const refreshed = await ctx.app.inject({
        method: 'POST',
        url: '/api/accounts/token/refresh/',
        payload: { refresh: before.refresh },
      });
      expect(refreshed.statusCode).toBe(401);
      const profile = await ctx.app.inject({
        method: 'GET',
        url: '/api/accounts/profile/',
        headers: { authorization: `Bearer ${before.access}` },
      });
      expect(profile.statusCode).toBe(401);

      const again = await reset({ new_password: 'Otra-Clave-Nueva-19', token });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ old_password: [INVALID_LINK], token: [INVALID_LINK] });
    });

    it('spends the other open links of the user too', async () => {
      const first = await tokenFor('proveedor.demo@flujo.mx');
      const second = await tokenFor('proveedor.demo@flujo.mx');
      expect((await reset({ new_password: 'Pitaya-Fresca-52', token: second })).statusCode).toBe(200);
      expect((await reset({ new_password: 'Pitaya-Fresca-53', token: first })).json()).toEqual({
        old_password: [INVALID_LINK],
        token: [INVALID_LINK],
      });
    });

    it('refuses a link older than one hour', async () => {
      const token = await tokenFor('proveedor.demo@flujo.mx');
      clock.advanceMinutes(59);
      const stillValid = await reset({ new_password: 'Ab1', token });
      expect(stillValid.json().old_password).not.toContain(INVALID_LINK);
      clock.advanceMinutes(2);
      const res = await reset({ new_password: 'Chabacano-Real-64', token });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ old_password: [INVALID_LINK], token: [INVALID_LINK] });
    });

    it('refuses unknown, empty and missing tokens', async () => {
      for (const token of ['no-existe', '', undefined, 42, 'x'.repeat(500)]) {
        const res = await reset({ new_password: 'Chabacano-Real-64', token });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ old_password: [INVALID_LINK], token: [INVALID_LINK] });
      }
    });

    it('reports rule violations under old_password (spec §8) and keeps the link usable', async () => {
      const token = await tokenFor('proveedor.demo@flujo.mx');
      const cases: [string | undefined, string[]][] = [
        [undefined, ['La contraseña es obligatoria']],
        ['Ab3$x', ['La contraseña debe tener al menos 8 caracteres']],
        ['58203941', ['Su contraseña no puede ser completamente numérica.']],
        [
          '1234567890',
          ['La contraseña es demasiado común.', 'Su contraseña no puede ser completamente numérica.'],
        ],
        ['Hernandez2024', ['La contraseña es demasiado similar a la información personal.']],
        [`${'Chabacano-Real-64'.repeat(61)}xx`.slice(0, PASSWORD_MAX_LENGTH + 1), [PASSWORD_TOO_LONG]],
      ];
      for (const [newPassword, messages] of cases) {
        const res = await reset({ new_password: newPassword, token });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ old_password: messages, new_password: messages });
      }
      expect((await reset({ new_password: 'Chabacano-Real-64', token })).statusCode).toBe(200);
      expect((await loginAs(ctx.app, 'proveedor.demo', 'Chabacano-Real-64')).statusCode).toBe(200);
    });
  });
});

describe('mail delivery', () => {
  it('only queues the mail (never waits on SMTP); a failed delivery keeps it with its error and a later retry', async () => {
    const config = testConfig({ SMTP_URL: 'smtp://usuario:clave@127.0.0.1:1' });
    const ctx = await createApiApp({ config });
    const latest = () =>
      ctx.database.db.selectFrom('mail_outbox').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    try {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/users/request-reset-password/',
        payload: { email: 'proveedor.demo@flujo.mx' },
      });
      expect(res.statusCode).toBe(200);
      expect(await latest()).toMatchObject({
        recipient: 'proveedor.demo@flujo.mx',
        sent_at: null,
        attempts: 0,
      });

      // The delivery job's work, as the runner would do it (tests do not start the runner).
      const delivery = createMailDelivery({
        db: ctx.database.db,
        smtpUrl: config.smtpUrl as string,
        from: config.mailFrom,
        log: silentLog,
      });
      const before = Date.now();
      expect(await delivery.deliverDue(new Date())).toEqual({ sent: 0, failed: 1 });
      const mail = await latest();
      expect(mail).toMatchObject({ recipient: 'proveedor.demo@flujo.mx', sent_at: null, attempts: 1 });
      expect(mail.error).toMatch(/ECONNREFUSED|connect/i);
      expect(mail.body_text).toContain('/auth/reiniciar-contrasena/?token=');
      expect(new Date(mail.next_attempt_at as string).getTime()).toBeGreaterThanOrEqual(
        before + mailRetryDelayMs(1),
      );
      // Not due yet: nothing is tried again.
      expect(await delivery.deliverDue(new Date())).toEqual({ sent: 0, failed: 0 });
      delivery.close();
    } finally {
      await ctx.close();
    }
  });

  it('hands the message to an injected mailer (APP_BASE_URL sets the link origin)', async () => {
    const sent: MailMessage[] = [];
    const config = testConfig({ APP_BASE_URL: 'https://flujo.example.mx/' });
    const ctx = await createApiApp({
      config,
      mailer: {
        async send(message) {
          sent.push(message);
          return 'sent';
        },
      },
    });
    try {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/users/request-reset-password/',
        payload: { email: 'corporativo.demo@flujo.mx' },
      });
      expect(res.statusCode).toBe(200);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({
        to: 'corporativo.demo@flujo.mx',
        subject: 'Restablece tu contraseña de Flujo',
      });
      expect(sent[0]!.text).toMatch(
        /https:\/\/flujo\.example\.mx\/auth\/reiniciar-contrasena\/\?token=[\w-]{43}\n/,
      );
    } finally {
      await ctx.close();
    }
  });
});
