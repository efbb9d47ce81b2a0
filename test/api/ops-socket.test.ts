import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import type { Config } from '../../server/config';
import { type DatabaseHandle, openDatabase } from '../../server/db/database';
import { type OpsSocket, opsSocketPath, startOpsSocket } from '../../server/ops/ops-socket';
import { DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { SatStatus } from '../../src/domain/sat-status';
import { makeEfosCsv } from '../fixtures/efos';
import { bearer, sessionFor } from '../support/accounts';
import { testConfig } from '../support/api-app';
import { addCompanyWithUser, eventCount, invoicesIn, statusOf } from '../support/pronto-pago';
import { TEMPLATE_FILE } from '../support/template-file';

// A running Flujo on PGlite holds DATA_DIR; the CLI must still act on it (decision 0013). One server for the
// file: the real app and the ops socket on a PGlite cluster in a temporary DATA_DIR (restored from the seeded
// template), and the real CLI as a separate process. PGlite only: on PostgreSQL the CLI connects itself.
const pglite = !process.env.TEST_DATABASE_URL;

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const silentLog = { info: () => {}, warn: () => {}, error: () => {} };

describe.runIf(pglite)('operator commands against a running PGlite server (ops socket)', () => {
  let dataDir: string;
  let config: Config;
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let socket: OpsSocket;
  const db = () => database.db;

  /** `npm run ops -- …` as the operator types it, in its own process, with the server's DATA_DIR. */
  const cli = (...args: string[]) =>
    new Promise<CliResult>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'server/cli.ts', ...args],
        {
          env: {
            ...process.env,
            DATA_DIR: dataDir,
            DATABASE_URL: '',
            SAT_SANDBOX_DIR: config.satSandboxDir,
            LOG_LEVEL: 'silent',
            // Who runs the CLI, as the money's records name the automation (decision 0059).
            FLUJO_OPS_ACCOUNT: 'turno.nocturno',
          },
        },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          resolve({ code, stdout, stderr });
        },
      );
    });

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'flujo-sock-'));
    config = testConfig({ DATA_DIR: dataDir, SAT_SANDBOX_DIR: join(dataDir, 'sat-sandbox') });
    // What server/main.ts does: the data directory's lock, the app, then the socket.
    database = await openDatabase({
      dataDir,
      template: new Blob([readFileSync(TEMPLATE_FILE)]),
      migrate: false,
    });
    app = await buildApp({ database, config });
    await app.ready();
    socket = await startOpsSocket({ dataDir, database, config, log: silentLog });
  });

  afterAll(async () => {
    await socket?.close();
    await app?.close();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('listens on DATA_DIR/ops.sock, a socket only its owner may open', () => {
    expect(socket.path).toBe(join(dataDir, 'ops.sock'));
    const stat = statSync(socket.path);
    expect(stat.isSocket()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o600);
  });

  it('disburse: a PROCESS invoice becomes PAID in the running server, with the operator in its audit trail', async () => {
    const [invoiceId] = await invoicesIn(db(), DEMO_PROVIDERS[0].rfc, InvoiceStatus.PROCESS);
    const result = await cli('disburse', String(invoiceId), '--reference', 'SPEI0042', '--force');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // The same line a direct run prints (server/ops/commands.ts).
    expect(result.stdout).toMatch(
      new RegExp(
        `^Factura A-\\d+ \\(id ${invoiceId}\\) pagada: \\d+\\.\\d{2} MXN, referencia SPEI0042\\.\\n$`,
      ),
    );
    expect(await statusOf(db(), invoiceId as number)).toBe(InvoiceStatus.PAID);

    const provider = await sessionFor(app, 'proveedor.demo');
    const trail = await app.inject({
      method: 'GET',
      url: `/api/invoices/${invoiceId}/events/`,
      headers: bearer(provider),
    });
    expect(trail.statusCode).toBe(200);
    expect(trail.json<unknown[]>().at(-1)).toMatchObject({
      event: 'invoice.disburse',
      from_status: InvoiceStatus.PROCESS,
      to_status: InvoiceStatus.PAID,
      actor: 'operador Flujo',
    });
    const disbursement = await db()
      .selectFrom('disbursements')
      .select('reference')
      .where('invoice_id', '=', invoiceId as number)
      .executeTakeFirstOrThrow();
    expect(disbursement.reference).toBe('SPEI0042');
    // The CLI's account crossed the socket: the batch and its confirmation name it, not the server's user.
    const order = await db()
      .selectFrom('spei_orders as o')
      .innerJoin('disbursement_batches as b', 'b.id', 'o.batch_id')
      .select(['b.created_by_username', 'o.confirmed_by_username'])
      .where('o.clave_rastreo', '=', 'SPEI0042')
      .executeTakeFirstOrThrow();
    expect(order).toEqual({
      created_by_username: 'ops:turno.nocturno',
      confirmed_by_username: 'ops:turno.nocturno',
    });

    // The provider's e-mail is in the server's outbox, and mail:list reads it through the socket too.
    const mail = await cli('mail:list', '--limit', '1');
    expect(mail.code).toBe(0);
    expect(mail.stdout).toContain('Subject: Pagamos el adelanto de tu factura A-');
  });

  it('an illegal disburse exits 1 with the Spanish reason and writes nothing', async () => {
    const [invoiceId] = await invoicesIn(db(), DEMO_PROVIDERS[0].rfc, InvoiceStatus.AVAILABLE);
    const events = await eventCount(db(), invoiceId as number);
    const result = await cli('disburse', String(invoiceId));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^La factura A-\d+ no está En trámite \(estado: Por Autorizar\); no se dispersa\.\n$/,
    );
    expect(await statusOf(db(), invoiceId as number)).toBe(InvoiceStatus.AVAILABLE);
    expect(await eventCount(db(), invoiceId as number)).toBe(events);
    const rows = await db()
      .selectFrom('disbursements')
      .select('id')
      .where('invoice_id', '=', invoiceId as number)
      .execute();
    expect(rows).toEqual([]);

    // A usage error keeps exit code 2 through the socket.
    const usage = await cli('disburse');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe('Indica el id o el folio fiscal (UUID) de la factura.\n');
  });

  it('sat:approve authorizes a SENT link and imports its sandbox CFDI while the server runs', async () => {
    const rfc = 'PSO200115K30';
    const { companyId } = await addCompanyWithUser(db(), {
      rfc,
      name: 'Proveedora del Socket',
      username: 'socket.proveedor',
      satStatus: SatStatus.SENT,
    });
    // --name: the CLI writes the files without the database (no socket needed).
    const generated = await cli('sat:generate', rfc, '--count', '2', '--name', 'Proveedora del Socket');
    expect(generated.code).toBe(0);
    const approved = await cli('sat:approve', rfc);
    expect(approved.stderr).toBe('');
    expect(approved.code).toBe(0);
    expect(approved.stdout.split('\n')[0]).toBe(`Vinculación SAT de ${rfc} aprobada.`);
    expect(approved.stdout).toContain(
      '2 importadas, 0 rechazadas, 0 ya importadas antes, 1 alianzas creadas',
    );
    const company = await db()
      .selectFrom('companies')
      .select('sat_status')
      .where('id', '=', companyId)
      .executeTakeFirstOrThrow();
    expect(company.sat_status).toBe(SatStatus.AUTHORIZED);
  });

  it('cfdi:verify and efos:import run in the server, on the files the CLI names', async () => {
    const rfc = 'PSO200115K30';
    const verified = await cli('cfdi:verify', join(config.satSandboxDir, rfc));
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    expect(verified.stdout.match(/^ {2}Sello: válido$/gm)).toHaveLength(2);
    expect(verified.stdout).toContain('2 de 2 CFDI verificados');

    const list = join(dataDir, 'Listado_Completo_69-B.csv');
    writeFileSync(list, makeEfosCsv([{ rfc, name: 'Proveedora del Socket', situation: 'Presunto' }]));
    const imported = await cli('efos:import', list);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('Alianzas en pausa: 1.');
    const listed = await cli('cfdi:verify', join(config.satSandboxDir, rfc));
    expect(listed.stdout).toContain(`Lista 69-B: ${rfc} aparece como Presunto`);
  });

  it('an unknown command prints the usage and exits 2', async () => {
    const result = await cli('disperse', '42');
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('Flujo operations');
    expect(result.stdout).toContain('npm run ops -- disburse <invoice id|UUID>');
  });

  it('removes its socket on close; then the CLI explains the lock instead of hanging', async () => {
    await socket.close();
    expect(existsSync(opsSocketPath(dataDir))).toBe(false);
    const result = await cli('mail:list');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Another Flujo process');
    expect(result.stderr).toContain('does not accept operator commands');

    // A socket left by a process that died is replaced at the next start.
    const leftover = spawnSync(process.execPath, [
      '-e',
      `require('node:net').createServer().listen(${JSON.stringify(opsSocketPath(dataDir))}, () => process.kill(process.pid, 'SIGKILL'))`,
    ]);
    expect(leftover.signal).toBe('SIGKILL');
    expect(statSync(opsSocketPath(dataDir)).isSocket()).toBe(true);
    socket = await startOpsSocket({ dataDir, database, config, log: silentLog });
    const listed = await cli('mail:list', '--limit', '1');
    expect(listed.code).toBe(0);
  });
});
