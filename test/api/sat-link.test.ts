// @postgresql: accounts claim one RFC and approvals race; row locks and the unique RFC decide across connections.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { businessDate } from '../../server/http/business-date';
import type { Mailer } from '../../server/mail/mailer';
import { CiecDecryptionError, decryptCiec, encryptCiec } from '../../server/modules/sat/ciec-crypto';
import { generateSandboxCfdi } from '../../server/modules/sat/sandbox-cfdi';
import { sandboxTick } from '../../server/modules/sat/sandbox-poller';
import { createSandboxConnector } from '../../server/modules/sat/sat-connector';
import {
  approveSatLink,
  rejectSatLink,
  type SatLinkDeps,
  SatOperationError,
  syncIssuedCfdi,
} from '../../server/modules/sat/sat-link.service';
import { randomCompanyRfc } from '../../server/modules/test-support/test-support.service';
import { DEMO_CORPORATE, DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { SatStatus } from '../../src/domain/sat-status';
import { type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { TEST_DEMO_AUTHORITY_DIR, testAuthenticity, testAuthority } from '../support/demo-authority';
import { addCompanyWithUser, getJson, postJson } from '../support/pronto-pago';

const CIEC = '/api/accounts/ciec/';
const SENT_MESSAGE = 'Credenciales enviadas correctamente. Espera a que tu vinculación sea aprobada';
// Invented RFCs with valid check digits (test/fixtures/cfdi.ts) and phpcfdi's vectors.
const NEW_RFC = 'PFL200115K34';
const SECOND_RFC = 'CAMA911215CJ0';
const THIRD_RFC = 'SORC591116FJ6';
// Its own RFC so the status walk-through does not disturb the poller test's count of SENT links.
const STATUS_RFC = 'MOVE800101ST2';

describe('SAT link: POST /api/accounts/ciec/, operator approval, sandbox sync', () => {
  let ctx: ApiTestContext;
  let sandboxDir: string;
  let key: Buffer;
  let clockMs = Date.now();
  const now = () => new Date(clockMs);
  const db = () => ctx.database.db;
  const sent: { to: string; subject: string }[] = [];
  const mailer: Mailer = {
    async send(message) {
      sent.push({ to: message.to, subject: message.subject });
      return 'outbox';
    },
  };
  const deps = (): SatLinkDeps => ({
    db: db(),
    encryptionKey: key,
    connector: createSandboxConnector(sandboxDir),
    authenticity: testAuthenticity(db(), now),
    now,
    mailer,
    appBaseUrl: 'http://localhost:8080',
  });
  // The company holding the RFC or, while its link is under review, claiming it (one claimant per RFC here).
  const company = (rfc: string) =>
    db()
      .selectFrom('companies')
      .selectAll()
      .where((eb) => eb.or([eb('rfc', '=', rfc), eb('sat_claimed_rfc', '=', rfc)]))
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    sandboxDir = mkdtempSync(join(tmpdir(), 'flujo-sat-'));
    key = randomBytes(32);
    const config = loadConfig({
      DEMO_AUTHORITY_DIR: TEST_DEMO_AUTHORITY_DIR,
      JWT_SECRET: randomBytes(48).toString('base64url'),
      SAT_ENCRYPTION_KEY: key.toString('hex'),
      SAT_SANDBOX_DIR: sandboxDir,
      DATA_DIR: sandboxDir,
    });
    ctx = await createApiApp({ config, now, mailer });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(sandboxDir, { recursive: true, force: true });
  });

  async function newcomer(username: string): Promise<Session> {
    await addCompanyWithUser(db(), {
      rfc: null,
      name: `Empresa ${username}`,
      username,
      satStatus: SatStatus.DONT_SENT,
    });
    return sessionFor(ctx.app, username);
  }

  describe('POST /api/accounts/ciec/', () => {
    it('stores the CIEC encrypted, claims the RFC (without holding it) and sets the link SENT', async () => {
      const session = await newcomer('nueva.sat');
      const res = await postJson(ctx.app, CIEC, session, {
        rfc: ` ${NEW_RFC.toLowerCase()} `,
        ciec: 'Cl4veCIEC',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: SENT_MESSAGE, sat_credentials_status: SatStatus.SENT });
      const row = await company(NEW_RFC);
      expect(row.sat_status).toBe(SatStatus.SENT);
      expect(row.sat_status_changed_at).not.toBeNull();
      // Only SAT's approval gives the RFC; until then it is a claim other accounts may share.
      expect(row).toMatchObject({ rfc: null, sat_claimed_rfc: NEW_RFC });
      expect(row.sat_ciec_encrypted).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(row.sat_ciec_encrypted).not.toContain('Cl4veCIEC');
      expect(decryptCiec(row.sat_ciec_encrypted as string, key, row.id)).toBe('Cl4veCIEC');
      // The dashboard stays locked while the link is under review.
      expect((await getJson(ctx.app, '/api/providers/alliances/', session)).statusCode).toBe(403);
      // Resending while under review replaces the credentials.
      const again = await postJson(ctx.app, CIEC, session, { rfc: NEW_RFC, ciec: 'Otra1234' });
      expect(again.statusCode).toBe(200);
      expect(decryptCiec((await company(NEW_RFC)).sat_ciec_encrypted as string, key, row.id)).toBe(
        'Otra1234',
      );
    });

    it('answers 400 per field with the spec’s messages', async () => {
      const session = await newcomer('campos.sat');
      const cases: [unknown, Record<string, string[]>][] = [
        [{}, { rfc: ['Este campo es obligatorio'], ciec: ['Este campo es obligatorio'] }],
        [
          { rfc: '   ', ciec: '' },
          { rfc: ['Este campo es obligatorio'], ciec: ['Este campo es obligatorio'] },
        ],
        [{ rfc: 'ABC123', ciec: 'x' }, { rfc: ['El RFC no tiene un formato válido'] }],
        [{ rfc: 'EBA120231RTA', ciec: 'x' }, { rfc: ['La fecha del RFC no es válida'] }],
        [{ rfc: 'XAXX010101000', ciec: 'x' }, { rfc: ['El RFC genérico no es válido para una empresa'] }],
        [{ rfc: SECOND_RFC, ciec: 'x'.repeat(65) }, { ciec: ['La contraseña CIEC no es válida.'] }],
        [
          { rfc: DEMO_PROVIDERS[1].rfc, ciec: 'Cl4veCIEC' },
          { rfc: ['Este RFC ya está vinculado a otra cuenta.'] },
        ],
        [{ rfc: 42, ciec: 'x' }, { rfc: ['Este campo es obligatorio'] }],
      ];
      for (const [payload, errors] of cases) {
        const res = await postJson(ctx.app, CIEC, session, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json()).toEqual(errors);
      }
      const row = await db()
        .selectFrom('companies')
        .innerJoin('users', 'users.company_id', 'companies.id')
        .select(['companies.rfc', 'companies.sat_status'])
        .where('users.username', '=', 'campos.sat')
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ rfc: null, sat_status: SatStatus.DONT_SENT });
    });

    it('answers 409 once the link is authorized, and 401 without a session', async () => {
      const provider = await sessionFor(ctx.app, 'proveedor.demo');
      const res = await postJson(ctx.app, CIEC, provider, { rfc: DEMO_PROVIDERS[0].rfc, ciec: 'Cl4veCIEC' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ detail: 'Tu cuenta ya está vinculada con el SAT.' });
      expect((await postJson(ctx.app, CIEC, null, { rfc: NEW_RFC, ciec: 'x' })).statusCode).toBe(401);
    });

    it('keeps the RFC of a company that already has invoices', async () => {
      const provider = await sessionFor(ctx.app, 'proveedor.demo');
      await db()
        .updateTable('companies')
        .set({ sat_status: SatStatus.UNAUTHORIZED })
        .where('rfc', '=', DEMO_PROVIDERS[0].rfc)
        .execute();
      try {
        const res = await postJson(ctx.app, CIEC, provider, { rfc: THIRD_RFC, ciec: 'Cl4veCIEC' });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({
          rfc: ['El RFC no coincide con el de tu empresa, que ya tiene facturas registradas.'],
        });
        const same = await postJson(ctx.app, CIEC, provider, {
          rfc: DEMO_PROVIDERS[0].rfc,
          ciec: 'Cl4veCIEC',
        });
        expect(same.statusCode).toBe(200);
      } finally {
        await db()
          .updateTable('companies')
          .set({ sat_status: SatStatus.AUTHORIZED })
          .where('rfc', '=', DEMO_PROVIDERS[0].rfc)
          .execute();
      }
    });
  });

  describe('GET /api/accounts/ciec/', () => {
    const status = async (session: Session | null) => {
      const res = await getJson(ctx.app, CIEC, session);
      expect(res.statusCode).toBe(200);
      return res.json();
    };

    it('follows the link: not sent, sent, rejected, sent again, approved', async () => {
      const session = await newcomer('estado.sat');
      expect(await status(session)).toEqual({ sat_credentials_status: SatStatus.DONT_SENT, rfc: null });
      expect(
        (await postJson(ctx.app, CIEC, session, { rfc: STATUS_RFC, ciec: 'Cl4veCIEC' })).statusCode,
      ).toBe(200);
      const sentBody = await status(session);
      expect(sentBody).toEqual({ sat_credentials_status: SatStatus.SENT, rfc: STATUS_RFC });
      // The CIEC never leaves the server, encrypted or not.
      expect(Object.keys(sentBody).sort()).toEqual(['rfc', 'sat_credentials_status']);
      await rejectSatLink(deps(), STATUS_RFC);
      expect(await status(session)).toEqual({
        sat_credentials_status: SatStatus.UNAUTHORIZED,
        rfc: STATUS_RFC,
      });
      expect((await postJson(ctx.app, CIEC, session, { rfc: STATUS_RFC, ciec: 'Nueva123' })).statusCode).toBe(
        200,
      );
      await approveSatLink(deps(), STATUS_RFC);
      expect(await status(session)).toEqual({
        sat_credentials_status: SatStatus.AUTHORIZED,
        rfc: STATUS_RFC,
      });
    });

    it('answers the demo provider authorized, and 401 without a session', async () => {
      const provider = await sessionFor(ctx.app, 'proveedor.demo');
      expect(await status(provider)).toEqual({
        sat_credentials_status: SatStatus.AUTHORIZED,
        rfc: DEMO_PROVIDERS[0].rfc,
      });
      expect((await getJson(ctx.app, CIEC, null)).statusCode).toBe(401);
    });
  });

  describe('operator approval and the sandbox connector', () => {
    it('approves a SENT link, imports the RFC’s CFDI and opens the pronto-pago list', async () => {
      generateSandboxCfdi({
        authority: testAuthority(),
        sandboxDir,
        issuer: { rfc: NEW_RFC, name: 'Proveedora Flores y Limón' },
        receiver: DEMO_CORPORATE,
        count: 5,
        today: businessDate(now()),
      });
      const result = await approveSatLink(deps(), NEW_RFC);
      expect(result.changed).toBe(true);
      expect(result.sync).toMatchObject({ rejected: [], alreadyImported: 0, alliancesCreated: 1 });
      expect(result.sync.imported).toHaveLength(5);
      const row = await company(NEW_RFC);
      expect(row.sat_status).toBe(SatStatus.AUTHORIZED);
      const alliance = await db()
        .selectFrom('alliances')
        .select('max_rate')
        .where('provider_id', '=', row.id)
        .executeTakeFirstOrThrow();
      expect(alliance.max_rate).toBe('17.4000');
      expect(sent.at(-1)).toEqual({
        to: 'nueva.sat@example.mx',
        subject: 'Tu vinculación con el SAT fue aprobada',
      });

      const session = await sessionFor(ctx.app, 'nueva.sat');
      const list = await getJson(ctx.app, '/api/providers/alliances/?page_size=100', session);
      expect(list.statusCode).toBe(200);
      expect(list.json().count).toBe(5);
      const first = list
        .json()
        .results.find((r: { fiscal_folio: string; amount: string }) => r.amount === '100000.00');
      expect(first).toMatchObject({ status: 60, receiver_rfc: DEMO_CORPORATE.rfc, emitter_rfc: NEW_RFC });
      const trail = await getJson(ctx.app, `/api/invoices/${first.id}/events/`, session);
      expect(trail.json()).toEqual([
        expect.objectContaining({ event: 'invoice.imported', actor: 'sincronización SAT' }),
      ]);
    });

    it('syncs incrementally: a second approval or sync imports only new files', async () => {
      const again = await approveSatLink(deps(), NEW_RFC);
      expect(again).toMatchObject({
        changed: false,
        sync: { imported: [], alreadyImported: 5, alliancesCreated: 0 },
      });
      generateSandboxCfdi({
        authority: testAuthority(),
        sandboxDir,
        issuer: { rfc: NEW_RFC, name: 'Proveedora Flores y Limón' },
        receiver: DEMO_CORPORATE,
        count: 2,
        today: businessDate(now()),
      });
      const sync = await syncIssuedCfdi(deps(), NEW_RFC);
      expect(sync.imported).toHaveLength(2);
      expect(sync.alreadyImported).toBe(5);
    });

    it('rejects a SENT link: UNAUTHORIZED and the CIEC erased; the form can be sent again', async () => {
      const session = await newcomer('rechazada.sat');
      expect(
        (await postJson(ctx.app, CIEC, session, { rfc: SECOND_RFC, ciec: 'Cl4veCIEC' })).statusCode,
      ).toBe(200);
      await rejectSatLink(deps(), SECOND_RFC);
      const row = await company(SECOND_RFC);
      expect(row).toMatchObject({ sat_status: SatStatus.UNAUTHORIZED, sat_ciec_encrypted: null });
      expect(sent.at(-1)?.subject).toBe('Tu vinculación con el SAT fue rechazada');
      await expect(approveSatLink(deps(), SECOND_RFC)).rejects.toThrow(
        `La vinculación de ${SECOND_RFC} no está en revisión (estado: Rechazada).`,
      );
      await expect(rejectSatLink(deps(), SECOND_RFC)).rejects.toBeInstanceOf(SatOperationError);
      expect((await postJson(ctx.app, CIEC, session, { rfc: SECOND_RFC, ciec: 'Nueva123' })).statusCode).toBe(
        200,
      );
    });

    it('refuses unknown RFCs and syncing a link that is not authorized', async () => {
      await expect(approveSatLink(deps(), 'GODE561231GR8')).rejects.toThrow(
        'No hay ninguna empresa con el RFC',
      );
      await expect(syncIssuedCfdi(deps(), SECOND_RFC)).rejects.toThrow('no está autorizada');
    });

    it('the development poller approves links after SAT_AUTO_APPROVE_SECONDS and imports new sandbox files', async () => {
      const session = await newcomer('auto.sat');
      expect((await postJson(ctx.app, CIEC, session, { rfc: THIRD_RFC, ciec: 'Cl4veCIEC' })).statusCode).toBe(
        200,
      );
      const state = { seen: new Map<string, number>() };
      expect(await sandboxTick(deps(), 60, state)).toEqual({ approved: [], synced: [] });
      clockMs += 61_000;
      const tick = await sandboxTick(deps(), 60, state);
      // The link rejected and sent again in the test above waited just as long.
      expect(tick.approved).toEqual([SECOND_RFC, THIRD_RFC]);
      expect((await company(THIRD_RFC)).sat_status).toBe(SatStatus.AUTHORIZED);
      generateSandboxCfdi({
        authority: testAuthority(),
        sandboxDir,
        issuer: { rfc: THIRD_RFC, name: 'Empresa auto.sat' },
        receiver: DEMO_CORPORATE,
        count: 3,
        today: businessDate(now()),
      });
      const next = await sandboxTick(deps(), 60, state);
      expect(next.synced).toEqual([THIRD_RFC]);
      expect(await sandboxTick(deps(), 60, state)).toEqual({ approved: [], synced: [] });
    });
  });

  // Issue 31: a pending link claims an RFC, it does not squat it. Last in the file: it moves the clock 8 days.
  describe('several accounts claiming one RFC', () => {
    const DAY_MS = 24 * 60 * 60 * 1000;
    const LOST = 'Otra cuenta ya vinculó este RFC con el SAT.';
    const LAPSED =
      'Tu solicitud de vinculación venció: pasaron 7 días sin aprobación. Envía tus credenciales de nuevo.';
    const statusOf = async (username: string) => {
      const res = await getJson(ctx.app, CIEC, await sessionFor(ctx.app, username));
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    const claim = async (username: string, rfc: string) =>
      postJson(ctx.app, CIEC, await sessionFor(ctx.app, username), { rfc, ciec: 'Cl4veCIEC' });
    const companyOf = (username: string) =>
      db()
        .selectFrom('companies')
        .innerJoin('users', 'users.company_id', 'companies.id')
        .select(['companies.id', 'companies.rfc', 'companies.sat_ciec_encrypted'])
        .where('users.username', '=', username)
        .executeTakeFirstOrThrow();

    it('lets a second account claim a pending RFC; the approved one wins and the other is told why', async () => {
      const rfc = randomCompanyRfc();
      await newcomer('primera.reclama');
      await newcomer('segunda.reclama');
      expect((await claim('primera.reclama', rfc)).statusCode).toBe(200);
      const second = await claim('segunda.reclama', rfc);
      expect(second.statusCode).toBe(200);
      expect(second.json()).toEqual({ message: SENT_MESSAGE, sat_credentials_status: SatStatus.SENT });
      // Each sees the RFC it claimed while under review.
      expect(await statusOf('primera.reclama')).toEqual({ sat_credentials_status: SatStatus.SENT, rfc });
      expect(await statusOf('segunda.reclama')).toEqual({ sat_credentials_status: SatStatus.SENT, rfc });

      const result = await approveSatLink(deps(), rfc);
      expect(result).toMatchObject({
        companyId: (await companyOf('primera.reclama')).id,
        changed: true,
        rejectedClaims: 1,
      });
      expect(await statusOf('primera.reclama')).toEqual({
        sat_credentials_status: SatStatus.AUTHORIZED,
        rfc,
      });
      expect(await statusOf('segunda.reclama')).toEqual({
        sat_credentials_status: SatStatus.UNAUTHORIZED,
        rfc,
        reason: LOST,
      });
      expect(sent).toContainEqual({
        to: 'segunda.reclama@example.mx',
        subject: 'Tu vinculación con el SAT fue rechazada',
      });
      expect(await companyOf('segunda.reclama')).toMatchObject({ rfc: null, sat_ciec_encrypted: null });
      // An authorized RFC is held: claiming it again is refused.
      const again = await claim('segunda.reclama', rfc);
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ rfc: ['Este RFC ya está vinculado a otra cuenta.'] });
    });

    it('two approvals of one RFC at once: one account holds it, the other claim loses with the reason', async () => {
      const rfc = randomCompanyRfc();
      await newcomer('carrera.uno');
      await newcomer('carrera.dos');
      expect((await claim('carrera.uno', rfc)).statusCode).toBe(200);
      expect((await claim('carrera.dos', rfc)).statusCode).toBe(200);
      const results = await Promise.all([approveSatLink(deps(), rfc), approveSatLink(deps(), rfc)]);
      expect(results.map((result) => result.changed).sort()).toEqual([false, true]);
      const winner = await companyOf('carrera.uno');
      expect(results.every((result) => result.companyId === winner.id)).toBe(true);
      expect(winner.rfc).toBe(rfc);
      expect(await statusOf('carrera.dos')).toEqual({
        sat_credentials_status: SatStatus.UNAUTHORIZED,
        rfc,
        reason: LOST,
      });
    });

    it('a claim left unapproved for 7 days lapses: it blocks no one and cannot win', async () => {
      const rfc = randomCompanyRfc();
      await newcomer('olvidada.reclama');
      await newcomer('nueva.reclama');
      expect((await claim('olvidada.reclama', rfc)).statusCode).toBe(200);
      clockMs += 8 * DAY_MS;
      expect((await claim('nueva.reclama', rfc)).statusCode).toBe(200);
      expect(await statusOf('olvidada.reclama')).toEqual({
        sat_credentials_status: SatStatus.UNAUTHORIZED,
        rfc,
        reason: LAPSED,
      });
      // The older claim lapsed, so the newer one is approved.
      const result = await approveSatLink(deps(), rfc);
      expect(result).toMatchObject({ companyId: (await companyOf('nueva.reclama')).id, changed: true });
      expect(await statusOf('nueva.reclama')).toEqual({ sat_credentials_status: SatStatus.AUTHORIZED, rfc });
      expect(await companyOf('olvidada.reclama')).toMatchObject({ rfc: null, sat_ciec_encrypted: null });
    });

    it('an operator cannot approve a lapsed claim', async () => {
      const rfc = randomCompanyRfc();
      await newcomer('sola.reclama');
      expect((await claim('sola.reclama', rfc)).statusCode).toBe(200);
      clockMs += 8 * DAY_MS;
      await expect(approveSatLink(deps(), rfc)).rejects.toThrow(
        `La vinculación de ${rfc} no está en revisión (estado: Rechazada).`,
      );
      expect(sent).toContainEqual({
        to: 'sola.reclama@example.mx',
        subject: 'Tu vinculación con el SAT fue rechazada',
      });
      expect(await statusOf('sola.reclama')).toMatchObject({
        sat_credentials_status: SatStatus.UNAUTHORIZED,
        reason: LAPSED,
      });
    });
  });

  describe('CIEC encryption (AES-256-GCM)', () => {
    it('round-trips, uses a fresh nonce, and refuses another company, another key or any tampering', () => {
      const stored = encryptCiec('Cl4veCIEC', key, 7);
      expect(encryptCiec('Cl4veCIEC', key, 7)).not.toBe(stored);
      expect(decryptCiec(stored, key, 7)).toBe('Cl4veCIEC');
      expect(() => decryptCiec(stored, key, 8)).toThrow(CiecDecryptionError);
      expect(() => decryptCiec(stored, randomBytes(32), 7)).toThrow(CiecDecryptionError);
      const parts = stored.split('.');
      const flipped = Buffer.from(parts[3] as string, 'base64url');
      flipped[0] = (flipped[0] ?? 0) ^ 1;
      expect(() =>
        decryptCiec([parts[0], parts[1], parts[2], flipped.toString('base64url')].join('.'), key, 7),
      ).toThrow(CiecDecryptionError);
      expect(() => decryptCiec('v2.a.b.c', key, 7)).toThrow(CiecDecryptionError);
      expect(() => encryptCiec('x', randomBytes(16), 7)).toThrow();
    });
  });
});
