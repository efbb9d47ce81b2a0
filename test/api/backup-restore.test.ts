// @postgresql: backup and restore are engine-specific (a PGlite data directory, or a PostgreSQL database).
// Issue 16, "Nothing lost": `npm run ops -- backup` and `restore` give back exactly the database that was
// saved. The demo world plus a few writes is backed up, then damaged (rows deleted and changed, a table
// dropped, a company added), restored, and every table of the public schema (kysely's migration tables
// included) is compared row by row, ordered by primary key, with what it held at the backup.
// PGlite (`npm test`): the backup is taken the way the running server takes it for the CLI over ops.sock
// (runOpsCommand with the open database), while imports are under way; the restore runs with the database
// closed, as the CLI does. PostgreSQL (TEST_DATABASE_URL): a database of its own on that server (restore
// replaces a whole database and refuses while anyone else is connected), dropped afterwards; both commands
// run as the CLI runs them, pg_dump and pg_restore included.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { Config } from '../../server/config';
import { type DatabaseHandle, type Db, openDatabase } from '../../server/db/database';
import { OPS_COMMANDS, type RunOptions, runOpsCommand } from '../../server/ops/commands';
import { seedDemoWorld } from '../../server/seed/demo-world';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { testConfig } from '../support/api-app';
import { testAuthenticity } from '../support/demo-authority';
import { advanceTo, importInvoice } from '../support/pronto-pago';
import { TEMPLATE_FILE } from '../support/template-file';

const TEST_MS = 300_000;
/** Imports running while the PGlite backup is taken: each must be in the copy whole or not at all. */
const CONCURRENT_IMPORTS = 12;

type Tables = Record<string, unknown[]>;

/** Every row of every table in the public schema, each table ordered by its primary key (or whole rows). */
async function everyTable(db: Db): Promise<Tables> {
  const { rows: tables } = await sql<{ name: string; key: string[] | null }>`
    select c.relname as name,
      (select array_agg(a.attname::text order by array_position(i.indkey::int2[], a.attnum))
         from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
         where i.indrelid = c.oid and i.indisprimary) as key
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p')
    order by c.relname`.execute(db);
  const result: Tables = {};
  for (const { name, key } of tables) {
    const order =
      key && key.length > 0 ? sql.join(key.map((column) => sql.ref(`t.${column}`))) : sql.raw('t::text');
    const { rows } = await sql<
      Record<string, unknown>
    >`select * from ${sql.table(name)} as t order by ${order}`.execute(db);
    result[name] = rows;
  }
  return result;
}

/** Runs an ops command as `npm run ops` would, collecting its lines. */
async function ops(
  name: 'backup' | 'restore',
  args: string[],
  options: RunOptions,
): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const command = OPS_COMMANDS[name];
  if (!command) throw new Error(`no ops command ${name}`);
  const code = await runOpsCommand(command, args, {
    ...options,
    output: { out: (line) => out.push(line), err: (line) => err.push(line) },
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A few writes on top of the demo world: an import walked to Autorizada, another left Disponible. */
async function someWrites(db: Db): Promise<void> {
  const approved = await importInvoice(db, { description: 'Respaldo: autorizada' });
  await advanceTo(db, approved, 'approved');
  await importInvoice(db, { description: 'Respaldo: disponible' });
}

/** Damage a restore must undo: deleted and changed rows, a dropped table, a new company. */
async function damage(db: Db): Promise<void> {
  await sql`update invoices set status = ${InvoiceStatus.DISABLED}, amount = 1`.execute(db);
  await sql`delete from idempotency_keys`.execute(db);
  await sql`drop table invoice_events cascade`.execute(db);
  await sql`insert into companies (rfc, name, is_corporate) values ('XAXX010101000', 'Intrusa', false)`.execute(
    db,
  );
}

function expectSameTables(after: Tables, before: Tables): void {
  expect(Object.keys(before)).toEqual(
    expect.arrayContaining(['invoices', 'invoice_events', 'kysely_migration']),
  );
  expect(before.invoices?.length).toBeGreaterThan(40);
  expect(Object.keys(after)).toEqual(Object.keys(before));
  for (const table of Object.keys(before))
    expect({ table, rows: after[table] }).toEqual({ table, rows: before[table] });
}

describe.runIf(!process.env.TEST_DATABASE_URL)('backup and restore on PGlite', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flujo-backup-'));
  const file = join(dataDir, '..', `${dataDir.split('/').pop()}.tar.gz`);
  let handle: DatabaseHandle | null = null;
  afterAll(async () => {
    await handle?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(file, { force: true });
  });

  it(
    'restores every table as it was at the backup, taken while imports run; refuses while a server holds DATA_DIR',
    async () => {
      const config: Config = testConfig({ DATA_DIR: dataDir });
      // The seeded template, on disk in DATA_DIR as the server keeps it.
      handle = await openDatabase({
        dataDir,
        template: new Blob([readFileSync(TEMPLATE_FILE)]),
        migrate: false,
      });
      const db = handle.db;
      await someWrites(db);

      // The backup as the server runs it for the CLI (its own open database), with imports under way.
      const imports = Array.from({ length: CONCURRENT_IMPORTS }, (_, i) =>
        importInvoice(db, { description: `Respaldo: concurrente ${i}` }),
      );
      const taken = await ops('backup', [file], { config, database: handle });
      expect(taken).toMatchObject({ code: 0, err: '' });
      expect(taken.out).toContain(`Respaldo de PGlite escrito en ${file}`);
      await Promise.all(imports);

      // The same file is never overwritten.
      expect(await ops('backup', [file], { config, database: handle })).toMatchObject({
        code: 1,
        err: `${file} ya existe; elige otro nombre para el respaldo.`,
      });

      // What the backup holds: restored into a second directory and read there (the original keeps going).
      const copyDir = mkdtempSync(join(tmpdir(), 'flujo-backup-copy-'));
      try {
        const copyConfig = testConfig({ DATA_DIR: copyDir });
        expect(await ops('restore', [file], { config: copyConfig })).toMatchObject({ code: 0 });
        const copy = await openDatabase({ dataDir: copyDir, migrate: false });
        try {
          // Each concurrent import (an invoice and its event, one transaction) is in the copy whole or not at all.
          const { rows } = await sql<{ invoices: number; events: number }>`
            select count(distinct i.id)::int as invoices, count(e.id)::int as events
            from invoices i left join invoice_events e on e.invoice_id = i.id
            where i.description like 'Respaldo: concurrente %'`.execute(copy.db);
          expect(rows[0]?.events).toBe(rows[0]?.invoices);
        } finally {
          await copy.close();
        }
      } finally {
        rmSync(copyDir, { recursive: true, force: true });
      }

      // Round trip: state at a backup, damage, restore, compare.
      const second = `${file}.2`;
      try {
        expect(await ops('backup', [second], { config, database: handle })).toMatchObject({ code: 0 });
        const before = await everyTable(db);
        await damage(db);

        // Refused inside the server (over the ops socket the server runs commands with its own lock).
        const inServer = await ops('restore', [second], { config, database: handle });
        expect(inServer.code).toBe(1);
        expect(inServer.err).toContain('no puede restaurar su propio DATA_DIR');
        await handle.close();
        handle = null;

        // Refused while another live process holds DATA_DIR (this test's parent stands in for a server).
        writeFileSync(join(dataDir, 'flujo.lock'), String(process.ppid));
        const held = await ops('restore', [second], { config });
        expect(held.code).toBe(1);
        expect(held.err).toBe(
          `Flujo (pid ${process.ppid}) está usando ${dataDir}. Detén el servidor y vuelve a ejecutar restore; no se restauró nada.`,
        );
        rmSync(join(dataDir, 'flujo.lock'));

        // A PostgreSQL dump (its first bytes) is refused without touching anything.
        const pgDump = join(dataDir, 'otro.dump');
        writeFileSync(pgDump, 'PGDMP\u0001\u000e\u0000');
        const other = await ops('restore', [pgDump], { config });
        expect(other.code).toBe(1);
        expect(other.err).toContain('es un respaldo de PostgreSQL (pg_dump, formato custom)');

        const restored = await ops('restore', [second], { config });
        expect(restored).toMatchObject({ code: 0, err: '' });
        expect(restored.out).toContain('Los datos que había quedaron en');

        handle = await openDatabase({ dataDir, migrate: false });
        expectSameTables(await everyTable(handle.db), before);
      } finally {
        rmSync(second, { force: true });
      }
    },
    TEST_MS,
  );
});

const testDatabaseUrl = process.env.TEST_DATABASE_URL;

describe.runIf(testDatabaseUrl)('backup and restore on PostgreSQL (pg_dump / pg_restore)', () => {
  const name = `flujo_backup_${randomBytes(6).toString('hex')}`;
  const workDir = mkdtempSync(join(tmpdir(), 'flujo-backup-'));
  const file = join(workDir, 'flujo.dump');
  let databaseUrl = '';
  let handle: DatabaseHandle | null = null;

  /** Statements on the server's maintenance connection (the test database everyone shares). */
  async function onServer(statement: string): Promise<void> {
    const admin = await openDatabase({ databaseUrl: testDatabaseUrl, migrate: false });
    try {
      await sql.raw(statement).execute(admin.db);
    } finally {
      await admin.close();
    }
  }

  afterAll(async () => {
    await handle?.close();
    await onServer(`drop database if exists ${name} with (force)`);
    rmSync(workDir, { recursive: true, force: true });
  }, TEST_MS);

  it(
    'restores every table as it was at the backup; refuses while connected, and a PGlite file',
    async () => {
      await onServer(`create database ${name}`);
      const url = new URL(testDatabaseUrl ?? '');
      url.pathname = `/${name}`;
      url.searchParams.delete('options');
      databaseUrl = url.toString();
      const config: Config = testConfig({ DATABASE_URL: databaseUrl, DATA_DIR: workDir });

      handle = await openDatabase({ databaseUrl });
      await seedDemoWorld(handle.db, testAuthenticity(handle.db));
      await someWrites(handle.db);
      const before = await everyTable(handle.db);

      const taken = await ops('backup', [file], { config });
      expect(taken).toMatchObject({ code: 0, err: '' });
      expect(taken.out).toContain(`Respaldo de PostgreSQL (pg_dump, formato custom) escrito en ${file}`);
      await damage(handle.db);

      // Refused while a server (here the test's own pool) is connected: nothing changes.
      const connected = await ops('restore', [file], { config });
      expect(connected.code).toBe(1);
      expect(connected.err).toMatch(/^Hay \d+ conexi(ón abierta|ones abiertas) a la base de datos/);
      await handle.close();
      handle = null;

      // A PGlite backup (gzip's first bytes) is refused without touching anything.
      const pgliteFile = join(workDir, 'pglite.tar.gz');
      writeFileSync(pgliteFile, Buffer.from([0x1f, 0x8b, 0x08, 0x00]));
      const other = await ops('restore', [pgliteFile], { config });
      expect(other.code).toBe(1);
      expect(other.err).toContain('es un respaldo de PGlite (directorio de datos .tar.gz)');

      const restored = await ops('restore', [file], { config });
      expect(restored).toMatchObject({ code: 0, err: '' });

      handle = await openDatabase({ databaseUrl, migrate: false });
      expectSameTables(await everyTable(handle.db), before);
    },
    TEST_MS,
  );
});
