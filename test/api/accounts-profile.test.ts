import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/modules/accounts/password';
import { PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG } from '../../server/modules/accounts/password-rules';
import { insertAccount } from '../../server/modules/accounts/user.repository';
import { PHONE_MESSAGE } from '../../src/domain/phone';
import { bearer, DEMO_PASSWORD, loginAs, type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';

const REQUIRED = ['Este campo es obligatorio'];
const tooLong = (max: number) => [`Asegúrate de que este campo no tenga más de ${max} caracteres.`];
const NOT_AUTHENTICATED = { detail: 'Las credenciales de autenticación no se proveyeron o expiraron.' };

describe('profile and password change', () => {
  let ctx: ApiTestContext;
  beforeAll(async () => {
    ctx = await createApiApp();
  });
  afterAll(() => ctx.close());
  beforeEach(async () => {
    await ctx.database.db.deleteFrom('throttle_hits').execute();
  });

  const getProfile = (session: Session) =>
    ctx.app.inject({ method: 'GET', url: '/api/accounts/profile/', headers: bearer(session) });
  const putProfile = (session: Session, payload: unknown) =>
    ctx.app.inject({
      method: 'PUT',
      url: '/api/accounts/profile/',
      headers: bearer(session),
      payload: payload as object,
    });
  const changePassword = (session: Session, payload: unknown) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/accounts/update-password/',
      headers: bearer(session),
      payload: payload as object,
    });

  /** A signed-up user (company without SAT link), created directly. */
  async function newUser(username: string, password = 'Jacaranda-Norte-71'): Promise<Session> {
    await insertAccount(ctx.database.db, {
      username,
      email: `${username}@example.mx`,
      passwordHash: await hashPassword(password),
      firstName: 'Tomás',
      lastName: 'Ibarra',
      mobilePhone: '8112345678',
      receiveNotification: false,
      companyName: 'Ibarra Refacciones',
    });
    return sessionFor(ctx.app, username, password);
  }

  describe('GET /api/accounts/profile/', () => {
    it("returns the provider's profile with the CLABEs it has, and only those", async () => {
      const res = await getProfile(await sessionFor(ctx.app, 'proveedor.demo'));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        first_name: 'Lucía',
        last_name: 'Hernández',
        mobile_phone: '5512345678',
        company: 'Empaques del Bajío, S.A. de C.V.',
        receive_notification: true,
        // Where Flujo deposits its advances (the control desk checks it); no credit_payment_clabe.
        disbursement_clabe: '012180001183597198',
        wallet_clabe: '012180026050783858',
      });
    });

    it("returns the corporate's disbursement CLABE", async () => {
      const res = await getProfile(await sessionFor(ctx.app, 'corporativo.demo'));
      expect(res.json()).toEqual({
        first_name: 'Ricardo',
        last_name: 'Salinas',
        mobile_phone: '5512345678',
        company: 'Grupo Altamira Alimentos, S.A. de C.V.',
        receive_notification: true,
        disbursement_clabe: '002010077777777771',
      });
    });

    it('needs a session', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/accounts/profile/' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(NOT_AUTHENTICATED);
    });
  });

  describe('PUT /api/accounts/profile/', () => {
    it('updates names, phone, company and notifications; CLABEs sent along are ignored', async () => {
      const session = await newUser('tomas.ibarra');
      const res = await putProfile(session, {
        first_name: ' Tomás Alberto ',
        last_name: 'Ibarra Ruiz',
        mobile_phone: '8187654321',
        company: 'Refacciones Ibarra, S.A. de C.V.',
        receive_notification: true,
        wallet_clabe: '012180026050783858',
        disbursement_clabe: '002010077777777771',
      });
      expect(res.statusCode).toBe(200);
      const expected = {
        first_name: 'Tomás Alberto',
        last_name: 'Ibarra Ruiz',
        mobile_phone: '8187654321',
        company: 'Refacciones Ibarra, S.A. de C.V.',
        receive_notification: true,
      };
      expect(res.json()).toEqual(expected);
      expect((await getProfile(session)).json()).toEqual(expected);
      const company = await ctx.database.db
        .selectFrom('companies')
        .select(['name', 'wallet_clabe', 'disbursement_clabe'])
        .where('name', '=', 'Refacciones Ibarra, S.A. de C.V.')
        .executeTakeFirstOrThrow();
      expect(company).toEqual({ name: expected.company, wallet_clabe: null, disbursement_clabe: null });
    });

    it('keeps the CLABEs of the demo provider and lets it edit its own data', async () => {
      const session = await sessionFor(ctx.app, 'proveedor.demo');
      const res = await putProfile(session, {
        first_name: 'Lucía',
        last_name: 'Hernández Soto',
        mobile_phone: '4771234567',
        company: 'Empaques del Bajío, S.A. de C.V.',
        receive_notification: true,
        wallet_clabe: '000000000000000000',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ last_name: 'Hernández Soto', wallet_clabe: '012180026050783858' });
    });

    it('requires names, phone and company (spec §5) and changes nothing', async () => {
      const session = await sessionFor(ctx.app, 'corporativo.demo');
      const before = (await getProfile(session)).json();
      const res = await putProfile(session, { first_name: ' ', receive_notification: 'no' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        first_name: REQUIRED,
        last_name: REQUIRED,
        mobile_phone: REQUIRED,
        company: REQUIRED,
        receive_notification: ['Valor no válido'],
      });
      expect((await getProfile(session)).json()).toEqual(before);
      for (const payload of ['[]', 'null']) {
        const garbage = await ctx.app.inject({
          method: 'PUT',
          url: '/api/accounts/profile/',
          headers: { ...bearer(session), 'content-type': 'application/json' },
          payload,
        });
        expect(garbage.statusCode).toBe(400);
      }
    });

    it('bounds each text field to its column (150, 150, 255 characters), the phone to 10 digits, and changes nothing beyond', async () => {
      const session = await newUser('lucia.limites');
      const atLimit = {
        first_name: 'L'.repeat(150),
        last_name: 'M'.repeat(150),
        mobile_phone: '5'.repeat(10),
        company: 'C'.repeat(255),
        receive_notification: true,
      };
      const accepted = await putProfile(session, atLimit);
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(accepted.json()).toMatchObject(atLimit);

      const res = await putProfile(session, {
        first_name: 'L'.repeat(151),
        last_name: 'M'.repeat(151),
        mobile_phone: '5'.repeat(11),
        company: 'C'.repeat(256),
        receive_notification: false,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        first_name: tooLong(150),
        last_name: tooLong(150),
        mobile_phone: [PHONE_MESSAGE],
        company: tooLong(255),
      });
      expect((await getProfile(session)).json()).toMatchObject(atLimit);
    });

    it('takes a phone of 10 digits only, as the form does (issue 33), and keeps it as its digits', async () => {
      const session = await newUser('lucia.telefono');
      const before = (await getProfile(session)).json();
      const profile = {
        first_name: 'Lucía',
        last_name: 'Pérez',
        company: 'Pérez Refacciones',
        receive_notification: false,
      };
      for (const mobile_phone of ['55-ABC', '123', '55123456789']) {
        const res = await putProfile(session, { ...profile, mobile_phone });
        expect(res.statusCode, mobile_phone).toBe(400);
        expect(res.json()).toEqual({ mobile_phone: [PHONE_MESSAGE] });
      }
      expect((await getProfile(session)).json()).toEqual(before);
      const saved = await putProfile(session, { ...profile, mobile_phone: '(55) 1234-5678' });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toMatchObject({ mobile_phone: '5512345678' });
    });

    it('refuses renaming a company whose SAT link is authorized', async () => {
      const session = await sessionFor(ctx.app, 'corporativo.demo');
      const res = await putProfile(session, {
        first_name: 'Ricardo',
        last_name: 'Salinas',
        mobile_phone: '5512345678',
        company: 'Otro Nombre, S.A.',
        receive_notification: false,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        company: ['La razón social no se puede cambiar después de la vinculación con el SAT.'],
      });
    });

    it('needs a session', async () => {
      const res = await ctx.app.inject({ method: 'PUT', url: '/api/accounts/profile/', payload: {} });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('POST /api/accounts/update-password/', () => {
    it('changes the password, keeps this session and ends the others', async () => {
      const current = await newUser('paola.nava', 'Ciruela-Brava-33');
      const other = await sessionFor(ctx.app, 'paola.nava', 'Ciruela-Brava-33');
      const res = await changePassword(current, {
        old_password: 'Ciruela-Brava-33',
        new_password1: 'Mezquite-Dorado-84',
        new_password2: 'Mezquite-Dorado-84',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'Tu contraseña se actualizó correctamente' });

      expect((await loginAs(ctx.app, 'paola.nava', 'Ciruela-Brava-33')).statusCode).toBe(401);
      expect((await loginAs(ctx.app, 'paola.nava', 'Mezquite-Dorado-84')).statusCode).toBe(200);

      // This session goes on (access and refresh); the other one is over at once.
      expect((await getProfile(current)).statusCode).toBe(200);
      const refreshed = await ctx.app.inject({
        method: 'POST',
        url: '/api/accounts/token/refresh/',
        payload: { refresh: current.refresh },
      });
      expect(refreshed.statusCode).toBe(200);
      expect((await getProfile(other)).statusCode).toBe(401);
      const otherRefresh = await ctx.app.inject({
        method: 'POST',
        url: '/api/accounts/token/refresh/',
        payload: { refresh: other.refresh },
      });
      expect(otherRefresh.statusCode).toBe(401);
    });

    it('refuses a wrong current password under old_password', async () => {
      const session = await sessionFor(ctx.app, 'corporativo.demo');
      const res = await changePassword(session, {
        old_password: 'no-es-la-actual',
        new_password1: 'Mezquite-Dorado-84',
        new_password2: 'Mezquite-Dorado-84',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ old_password: ['La contraseña actual es incorrecta.'] });
      expect((await loginAs(ctx.app, 'corporativo.demo', DEMO_PASSWORD)).statusCode).toBe(200);
    });

    it('reports rule violations on their field (Django: new_password2) and again under old_password', async () => {
      const session = await sessionFor(ctx.app, 'corporativo.demo');
      const attempt = (new1: string, new2 = new1, old = DEMO_PASSWORD) =>
        changePassword(session, { old_password: old, new_password1: new1, new_password2: new2 });

      const short = await attempt('Ab3$x');
      expect(short.statusCode).toBe(400);
      expect(short.json()).toEqual({
        new_password1: ['Su contraseña es muy corta. Debe contener al menos 8 caracteres.'],
        old_password: ['Su contraseña es muy corta. Debe contener al menos 8 caracteres.'],
      });

      const numeric = await attempt('74920386');
      expect(numeric.json()).toEqual({
        new_password1: ['Su contraseña no puede ser completamente numérica.'],
        old_password: ['Su contraseña no puede ser completamente numérica.'],
      });

      const common = await attempt('sunshine1');
      expect(common.json()).toEqual({
        new_password2: ['La contraseña es demasiado común.'],
        old_password: ['La contraseña es demasiado común.'],
      });

      // Django's quick_ratio('salinas2024!', 'salinas') = 14/19 ≥ 0.7.
      const similar = await attempt('Salinas2024!');
      expect(similar.json()).toEqual({
        new_password2: ['La contraseña es demasiado similar a la información personal.'],
        old_password: ['La contraseña es demasiado similar a la información personal.'],
      });

      const mismatch = await attempt('Mezquite-Dorado-84', 'Mezquite-Dorado-85');
      expect(mismatch.json()).toEqual({
        new_password2: ['Las contraseñas deben coincidir'],
        old_password: ['Las contraseñas deben coincidir'],
      });

      const wrongAndWeak = await attempt('sunshine1', 'sunshine1', 'no-es-la-actual');
      expect(wrongAndWeak.json()).toEqual({
        new_password2: ['La contraseña es demasiado común.'],
        old_password: ['La contraseña actual es incorrecta.', 'La contraseña es demasiado común.'],
      });

      const empty = await changePassword(session, {});
      expect(empty.json()).toEqual({
        old_password: [
          'Este campo es obligatorio',
          'La contraseña es obligatoria',
          'Por favor, confirma tu contraseña',
        ],
        new_password1: ['La contraseña es obligatoria'],
        new_password2: ['Por favor, confirma tu contraseña'],
      });
      expect((await loginAs(ctx.app, 'corporativo.demo', DEMO_PASSWORD)).statusCode).toBe(200);
    });

    it(`refuses a new password longer than ${PASSWORD_MAX_LENGTH} characters and keeps the old one`, async () => {
      const session = await newUser('ramon.largo', 'Granada-Fina-58');
      const long = `${'Zq7!'.repeat(PASSWORD_MAX_LENGTH / 4)}x`;
      const res = await changePassword(session, {
        old_password: 'Granada-Fina-58',
        new_password1: long,
        new_password2: long,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ new_password2: [PASSWORD_TOO_LONG], old_password: [PASSWORD_TOO_LONG] });
      expect((await loginAs(ctx.app, 'ramon.largo', 'Granada-Fina-58')).statusCode).toBe(200);
      // Exactly the limit is accepted.
      const atLimit = long.slice(0, PASSWORD_MAX_LENGTH);
      const ok = await changePassword(session, {
        old_password: 'Granada-Fina-58',
        new_password1: atLimit,
        new_password2: atLimit,
      });
      expect(ok.statusCode, ok.body).toBe(200);
      expect((await loginAs(ctx.app, 'ramon.largo', atLimit)).statusCode).toBe(200);
    });

    it('throttles wrong current passwords (5 per 15 minutes per user)', async () => {
      const session = await sessionFor(ctx.app, 'proveedor.demo');
      const payload = {
        old_password: 'adivinando',
        new_password1: 'Mezquite-Dorado-84',
        new_password2: 'Mezquite-Dorado-84',
      };
      for (let i = 0; i < 5; i++) expect((await changePassword(session, payload)).statusCode).toBe(400);
      const blocked = await changePassword(session, { ...payload, old_password: DEMO_PASSWORD });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual({ detail: 'Demasiados intentos. Intenta de nuevo en unos minutos.' });
    });

    it('needs a session', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/accounts/update-password/',
        payload: {},
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(NOT_AUTHENTICATED);
    });
  });
});
