import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCfdi } from '../../server/cfdi/parse-cfdi';
import { type Config, loadConfig, parseSatEncryptionKey } from '../../server/config';
import { DisbursementError, disburseInvoice } from '../../server/modules/control-desk/disbursement.service';
import { IllegalTransitionError } from '../../server/modules/invoices/lifecycle.service';
import { generateSandboxCfdi } from '../../server/modules/sat/sandbox-cfdi';
import { cancelInvoiceAtSat } from '../../server/modules/sat/sat-cancellation.service';
import { OPS_COMMANDS, type OpsContext, runOpsCommand } from '../../server/ops/commands';
import { DEMO_CORPORATE, DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { SatStatus } from '../../src/domain/sat-status';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { TEST_DEMO_AUTHORITY_DIR, testAuthenticity, testAuthority } from '../support/demo-authority';
import { addCompanyWithUser, eventCount, invoicesIn, statusOf } from '../support/pronto-pago';

const run = promisify(execFile);

describe('operator commands: sat:*, disburse, idempotency:prune', () => {
  let ctx: ApiTestContext;
  let dir: string;
  let config: Config;
  let output: string[];
  const NOW = new Date('2026-05-20T17:00:00Z');
  const db = () => ctx.database.db;
  const context = (): OpsContext => ({
    config,
    database: ctx.database,
    now: () => NOW,
    print: (line) => output.push(line),
  });
  const ops = (name: string, ...args: string[]) => {
    const command = OPS_COMMANDS[name];
    if (!command) throw new Error(`no command ${name}`);
    output = [];
    return command.run(context(), args);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flujo-ops-'));
    config = loadConfig({
      DEMO_AUTHORITY_DIR: TEST_DEMO_AUTHORITY_DIR,
      JWT_SECRET: randomBytes(48).toString('base64url'),
      SAT_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      SAT_SANDBOX_DIR: join(dir, 'sandbox'),
      DATA_DIR: dir,
    });
    ctx = await createApiApp({ config });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sat:generate writes realistic CFDI 4.0 issued by the RFC to the demo corporate, continuing the folios', async () => {
    await addCompanyWithUser(db(), {
      rfc: 'PFL200115K34',
      name: 'Proveedora Flores y Limón',
      username: 'ops.flores',
      satStatus: SatStatus.SENT,
    });
    expect(await ops('sat:generate', 'pfl200115k34', '--count', '3')).toBe(0);
    expect(
      await ops('sat:generate', 'PFL200115K34', '--count=2', '--name', 'Proveedora Flores y Limón'),
    ).toBe(0);
    const folder = join(config.satSandboxDir, 'PFL200115K34');
    const files = readdirSync(folder).sort();
    expect(files).toEqual([1, 2, 3, 4, 5].map((n) => `PFL200115K34-F-000${n}.xml`));
    const parsed = files.map((name) => parseCfdi(readFileSync(join(folder, name)), name));
    for (const result of parsed) {
      expect(result.ok).toBe(true);
      if (!result.ok) continue;
      expect(result.cfdi).toMatchObject({
        version: '4.0',
        voucherType: 'I',
        paymentMethod: 'PPD',
        issuer: { rfc: 'PFL200115K34', name: 'Proveedora Flores y Limón' },
        receiver: { rfc: DEMO_CORPORATE.rfc, name: DEMO_CORPORATE.name },
      });
      expect(result.cfdi.issuedAt < '2026-05-20').toBe(true);
      expect(result.cfdi.issuedAt >= '2026-01-20').toBe(true);
    }
    expect(parsed[0]?.ok && parsed[0].cfdi.total).toBe('100000.00');
    expect(new Set(parsed.map((r) => r.ok && r.cfdi.uuid)).size).toBe(5);
    expect(output.at(-1)).toContain('2 CFDI escritos');
  });

  it('sat:approve authorizes the link and imports the folder; a second run only syncs', async () => {
    // The company was created SENT above without a CIEC: the sandbox connector does not need one.
    expect(await ops('sat:approve', 'PFL200115K34', '--rate', '18.56')).toBe(0);
    expect(output[0]).toBe('Vinculación SAT de PFL200115K34 aprobada.');
    expect(output.at(-1)).toBe('5 importadas, 0 rechazadas, 0 ya importadas antes, 1 alianzas creadas');
    const alliance = await db()
      .selectFrom('alliances')
      .innerJoin('companies', 'companies.id', 'alliances.provider_id')
      .select('alliances.max_rate')
      .where('companies.rfc', '=', 'PFL200115K34')
      .executeTakeFirstOrThrow();
    expect(alliance.max_rate).toBe('18.5600');
    expect(await ops('sat:approve', 'PFL200115K34')).toBe(0);
    expect(output.at(-1)).toBe('0 importadas, 0 rechazadas, 5 ya importadas antes, 0 alianzas creadas');
    expect(await ops('sat:sync', 'PFL200115K34')).toBe(0);
  });

  it('sat:reject refuses a link that is not under review', async () => {
    await expect(ops('sat:reject', 'PFL200115K34')).rejects.toThrow(
      'no está en revisión (estado: Autorizada)',
    );
    await expect(ops('sat:approve', 'no-es-rfc')).rejects.toThrow('no es un RFC válido');
    await expect(ops('sat:approve', 'PFL200115K34', '--rate', 'alta')).rejects.toThrow('--rate');
  });

  it('sat:reject and sat:approve take the RFC’s oldest pending claim; the approval rejects the other claims', async () => {
    const rfc = 'CAMA911215CJ0';
    const claimant = async (username: string, claimedAt: string) => {
      const { companyId } = await addCompanyWithUser(db(), {
        rfc: null,
        name: `Empresa ${username}`,
        username,
        satStatus: SatStatus.SENT,
      });
      await db()
        .updateTable('companies')
        .set({ sat_claimed_rfc: rfc, sat_claimed_at: claimedAt, sat_status_changed_at: claimedAt })
        .where('id', '=', companyId)
        .execute();
      return companyId;
    };
    const link = (companyId: number) =>
      db()
        .selectFrom('companies')
        .select(['rfc', 'sat_status', 'sat_status_reason'])
        .where('id', '=', companyId)
        .executeTakeFirstOrThrow();
    // Created in another order than they claimed: the claim's date decides.
    const newest = await claimant('ops.reciente', '2026-05-19T10:00:00Z');
    const oldest = await claimant('ops.antigua', '2026-05-18T10:00:00Z');
    const middle = await claimant('ops.media', '2026-05-18T12:00:00Z');
    expect(await ops('sat:reject', rfc)).toBe(0);
    expect(await link(oldest)).toEqual({
      rfc: null,
      sat_status: SatStatus.UNAUTHORIZED,
      sat_status_reason: null,
    });
    expect(await ops('sat:approve', rfc)).toBe(0);
    expect(output.slice(0, 2)).toEqual([
      `Vinculación SAT de ${rfc} aprobada.`,
      'Solicitudes de otras cuentas por el mismo RFC, rechazadas: 1.',
    ]);
    expect(await link(middle)).toEqual({ rfc, sat_status: SatStatus.AUTHORIZED, sat_status_reason: null });
    expect(await link(newest)).toEqual({
      rfc: null,
      sat_status: SatStatus.UNAUTHORIZED,
      sat_status_reason: 'Otra cuenta ya vinculó este RFC con el SAT.',
    });
  });

  it('sat:cancel moves an unpaid invoice to DISABLED as SAT, and the machine refuses a paid one', async () => {
    const [available] = await invoicesIn(db(), DEMO_PROVIDERS[0].rfc, InvoiceStatus.AVAILABLE);
    const invoice = await db()
      .selectFrom('invoices')
      .select('cfdi_uuid')
      .where('id', '=', available as number)
      .executeTakeFirstOrThrow();
    expect(await ops('sat:cancel', invoice.cfdi_uuid.toLowerCase())).toBe(0);
    expect(await statusOf(db(), available as number)).toBe(InvoiceStatus.DISABLED);
    const last = await db()
      .selectFrom('invoice_events')
      .selectAll()
      .where('invoice_id', '=', available as number)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(last).toMatchObject({
      event: 'invoice.cancelAtSat',
      from_status: 60,
      to_status: 70,
      actor: 'SAT',
      actor_user_id: null,
    });

    const [paid] = await invoicesIn(db(), DEMO_PROVIDERS[0].rfc, InvoiceStatus.PAID);
    const paidUuid = (
      await db()
        .selectFrom('invoices')
        .select('cfdi_uuid')
        .where('id', '=', paid as number)
        .executeTakeFirstOrThrow()
    ).cfdi_uuid;
    const events = await eventCount(db(), paid as number);
    await expect(cancelInvoiceAtSat(db(), paidUuid)).rejects.toBeInstanceOf(IllegalTransitionError);
    expect(await statusOf(db(), paid as number)).toBe(InvoiceStatus.PAID);
    expect(await eventCount(db(), paid as number)).toBe(events);
    await expect(ops('sat:cancel', '00000000-0000-4000-8000-000000000000')).rejects.toThrow(
      'No hay ninguna factura',
    );
  });

  it('disburse pays a PROCESS invoice once, with its disbursement row, by id or UUID', async () => {
    const [first, second] = await invoicesIn(db(), DEMO_PROVIDERS[1].rfc, InvoiceStatus.PROCESS);
    expect(await ops('disburse', String(first), '--reference', 'SPEI123456', '--force')).toBe(0);
    expect(output[0]).toMatch(/^Factura A-\d+ \(id \d+\) pagada: \d+\.\d{2} MXN, referencia SPEI123456\.$/);
    expect(await statusOf(db(), first as number)).toBe(InvoiceStatus.PAID);
    const row = await db()
      .selectFrom('disbursements')
      .selectAll()
      .where('invoice_id', '=', first as number)
      .executeTakeFirstOrThrow();
    expect(row.reference).toBe('SPEI123456');
    // The demo invoice reached PROCESS without the advance call, so it was quoted at disbursement.
    const invoice = await db()
      .selectFrom('invoices')
      .selectAll()
      .where('id', '=', first as number)
      .executeTakeFirstOrThrow();
    expect(invoice.cost_consultancy).not.toBeNull();
    const last = await db()
      .selectFrom('invoice_events')
      .selectAll()
      .where('invoice_id', '=', first as number)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(last).toMatchObject({
      event: 'invoice.disburse',
      from_status: 50,
      to_status: 10,
      actor: 'operador Flujo',
    });

    await expect(
      disburseInvoice(db(), String(first), {
        account: 'pruebas',
        authenticity: testAuthenticity(db()),
        today: '2026-05-20',
        force: true,
      }),
    ).rejects.toThrow(/no está En trámite \(estado: Pagada\)/);
    expect(
      await db()
        .selectFrom('disbursements')
        .select('id')
        .where('invoice_id', '=', first as number)
        .execute(),
    ).toHaveLength(1);
    const uuid = (
      await db()
        .selectFrom('invoices')
        .select('cfdi_uuid')
        .where('id', '=', second as number)
        .executeTakeFirstOrThrow()
    ).cfdi_uuid;
    const paid = await disburseInvoice(db(), uuid, {
      account: 'pruebas',
      authenticity: testAuthenticity(db()),
      today: '2026-05-20',
      force: true,
    });
    expect(paid.reference).toBe(`FLUJO-${second}-20260520`);
    await expect(
      disburseInvoice(db(), '987654', {
        account: 'pruebas',
        authenticity: testAuthenticity(db()),
        today: '2026-05-20',
        force: true,
      }),
    ).rejects.toBeInstanceOf(DisbursementError);
    await expect(
      disburseInvoice(db(), String(second), {
        account: 'pruebas',
        authenticity: testAuthenticity(db()),
        today: '2026-05-20',
        reference: 'con espacios',
      }),
    ).rejects.toThrow('La referencia');
    const [available] = await invoicesIn(db(), DEMO_PROVIDERS[1].rfc, InvoiceStatus.AVAILABLE);
    await expect(ops('disburse', String(available))).rejects.toThrow(
      'no está En trámite (estado: Por Autorizar)',
    );
  });

  it('disburse records which automation account acted (--as, else FLUJO_OPS_ACCOUNT or the OS user); the audit still names operador Flujo', async () => {
    const [first, second] = await invoicesIn(db(), DEMO_PROVIDERS[0].rfc, InvoiceStatus.PROCESS);
    const recorded = async (clave: string) =>
      db()
        .selectFrom('spei_orders as o')
        .innerJoin('disbursement_batches as b', 'b.id', 'o.batch_id')
        .innerJoin('desk_items as d', 'd.invoice_id', 'o.invoice_id')
        .select([
          'b.created_by',
          'b.created_by_username',
          'o.confirmed_by',
          'o.confirmed_by_username',
          'd.decided_by_username',
        ])
        .where('o.clave_rastreo', '=', clave)
        .executeTakeFirstOrThrow();
    expect(
      await ops('disburse', String(first), '--reference', 'SPEIASBOT1', '--force', '--as', 'cobranza.bot'),
    ).toBe(0);
    expect(await recorded('SPEIASBOT1')).toEqual({
      created_by: null,
      created_by_username: 'ops:cobranza.bot',
      confirmed_by: null,
      confirmed_by_username: 'ops:cobranza.bot',
      decided_by_username: 'ops:cobranza.bot',
    });
    const last = await db()
      .selectFrom('invoice_events')
      .select('actor')
      .where('invoice_id', '=', first as number)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(last.actor).toBe('operador Flujo');

    const account = process.env.FLUJO_OPS_ACCOUNT?.trim() || userInfo().username;
    expect(await ops('disburse', String(second), '--reference', 'SPEIOSUSR1', '--force')).toBe(0);
    expect(await recorded('SPEIOSUSR1')).toMatchObject({
      created_by_username: `ops:${account}`,
      confirmed_by_username: `ops:${account}`,
    });
    await expect(ops('disburse', String(second), '--as', 'con espacios')).rejects.toThrow(
      'La cuenta de automatización',
    );
  });

  it('idempotency:prune deletes old keys', async () => {
    expect(await ops('idempotency:prune', '--hours', '48')).toBe(0);
    expect(output[0]).toMatch(/^\d+ claves de idempotencia eliminadas\.$/);
    await expect(ops('idempotency:prune', '--hours', '1')).rejects.toThrow('--hours');
  });

  it('the CLI runs sat:generate without opening the database (it works beside a running PGlite server)', async () => {
    const env = { ...process.env, DATA_DIR: join(dir, 'cli'), SAT_SANDBOX_DIR: join(dir, 'cli-sandbox') };
    const { stdout } = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'server/cli.ts',
        'sat:generate',
        'GODE561231GR8',
        '--count',
        '2',
        '--name',
        'Gómez Delgado',
      ],
      { env },
    );
    expect(stdout).toContain('2 CFDI escritos');
    expect(readdirSync(join(dir, 'cli-sandbox', 'GODE561231GR8'))).toHaveLength(2);
    // No PGlite cluster was created under DATA_DIR.
    expect(existsSync(join(dir, 'cli', 'pglite'))).toBe(false);
    // A usage error exits 2 (runOpsCommand is what the CLI calls; --name keeps the database closed).
    const generate = OPS_COMMANDS['sat:generate'];
    if (!generate) throw new Error('sat:generate missing');
    expect(await runOpsCommand(generate, ['--name', 'Sin RFC'], { config })).toBe(2);
  });

  it('reads SAT_ENCRYPTION_KEY as hex or base64, requires it in production and refuses auto-approval there', () => {
    const key = randomBytes(32);
    expect(parseSatEncryptionKey(key.toString('hex'))?.equals(key)).toBe(true);
    expect(parseSatEncryptionKey(key.toString('base64'))?.equals(key)).toBe(true);
    expect(parseSatEncryptionKey(key.toString('base64url'))?.equals(key)).toBe(true);
    expect(parseSatEncryptionKey('corta')).toBeNull();
    expect(parseSatEncryptionKey(randomBytes(16).toString('hex'))).toBeNull();
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), DATA_DIR: dir })).toThrow(
      'SAT_ENCRYPTION_KEY is required when NODE_ENV=production',
    );
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        JWT_SECRET: 'x'.repeat(40),
        SAT_ENCRYPTION_KEY: key.toString('hex'),
        SAT_AUTO_APPROVE_SECONDS: '5',
        DATA_DIR: dir,
      }),
    ).toThrow('SAT_AUTO_APPROVE_SECONDS is for development only');
    expect(() => loadConfig({ SAT_ENCRYPTION_KEY: 'nope', DATA_DIR: dir })).toThrow(
      'SAT_ENCRYPTION_KEY must be 32 bytes',
    );
    expect(loadConfig({ SAT_AUTO_APPROVE_SECONDS: '5', DATA_DIR: dir }).satAutoApproveSeconds).toBe(5);
    expect(() => loadConfig({ SAT_AUTO_APPROVE_SECONDS: '0', DATA_DIR: dir })).toThrow(
      'SAT_AUTO_APPROVE_SECONDS',
    );
  });

  it('generates a development key into DATA_DIR once and reuses it', () => {
    const devDir = join(dir, 'dev-key');
    const first = loadConfig({ DATA_DIR: devDir }).satEncryptionKey;
    expect(existsSync(join(devDir, 'sat-encryption-key'))).toBe(true);
    expect(loadConfig({ DATA_DIR: devDir }).satEncryptionKey.equals(first)).toBe(true);
    expect(first).toHaveLength(32);
    expect(loadConfig({ DATA_DIR: devDir }).satSandboxDir).toBe(join(devDir, 'sat-sandbox'));
  });

  it('generateSandboxCfdi refuses a count out of range', () => {
    const input = {
      authority: testAuthority(),
      sandboxDir: dir,
      issuer: { rfc: 'PFL200115K34', name: 'x' },
      receiver: DEMO_CORPORATE,
      today: '2026-05-20',
    };
    expect(() => generateSandboxCfdi({ ...input, count: 0 })).toThrow();
    expect(() => generateSandboxCfdi({ ...input, count: 501 })).toThrow();
  });
});
