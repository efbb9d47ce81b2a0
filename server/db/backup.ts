// `npm run ops -- backup <file>` and `restore <file>` (docs/decisions/0042-backups.md). One file format per
// database, told apart by its first bytes: PGlite's data directory as a gzip tarball (dumpDataDir), and
// PostgreSQL's custom-format dump (pg_dump -Fc, restored by pg_restore). A file of the other kind is refused.
import { spawn } from 'node:child_process';
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { acquireDataDirLock, DataDirLockedError, dataDirOwner, readDataDirLockPid } from './data-dir-lock';
import { type DatabaseHandle, type DatabaseKind, openDatabase } from './database';

/** A refusal the operator can act on (Spanish, printed by the CLI with exit code 1). */
export class BackupError extends Error {}

/** NOTE: pg_dump's custom format starts with these five bytes (PostgreSQL's pg_backup_archiver.c). */
const PG_DUMP_MAGIC = 'PGDMP';
/** NOTE: every gzip stream starts with 1f 8b (RFC 1952); PGlite's dumpDataDir('gzip') is one. */
const GZIP_MAGIC = [0x1f, 0x8b];
/** Where the restored copy is assembled and checked before it replaces DATA_DIR/pglite. */
const STAGING_DIR = 'pglite.restoring';
const PGLITE_DIR = 'pglite';
/** Lines of a failing pg tool's stderr kept in the refusal (the rest stays in the terminal's history). */
const STDERR_TAIL_LINES = 8;

const KIND_NAMES: Record<DatabaseKind, string> = {
  pglite: 'PGlite (directorio de datos .tar.gz)',
  postgresql: 'PostgreSQL (pg_dump, formato custom)',
};

/** The database a backup file was taken from, from its first bytes; null when it is neither. */
export function backupKindOf(file: string): DatabaseKind | null {
  const head = Buffer.alloc(PG_DUMP_MAGIC.length);
  let read = 0;
  try {
    const fd = openSync(file, 'r');
    try {
      read = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw new BackupError(`No se puede leer ${file}: ${(error as NodeJS.ErrnoException).code ?? error}.`);
  }
  if (read === PG_DUMP_MAGIC.length && head.toString('latin1') === PG_DUMP_MAGIC) return 'postgresql';
  if (read >= 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1]) return 'pglite';
  return null;
}

function requireKind(file: string, expected: DatabaseKind): void {
  const kind = backupKindOf(file);
  if (kind === expected) return;
  if (kind === null) {
    throw new BackupError(`${file} no es un respaldo de Flujo: se esperaba uno de ${KIND_NAMES[expected]}.`);
  }
  const how =
    kind === 'postgresql'
      ? 'se restaura con DATABASE_URL apuntando a la base de datos PostgreSQL'
      : 'se restaura sin DATABASE_URL, en el DATA_DIR de PGlite';
  throw new BackupError(
    `${file} es un respaldo de ${KIND_NAMES[kind]} y esta instalación usa ${KIND_NAMES[expected]}: ${how}. No se restauró nada.`,
  );
}

/** Never overwrite an earlier backup: the operator may be keeping it. */
function requireNewFile(file: string): void {
  if (existsSync(file)) throw new BackupError(`${file} ya existe; elige otro nombre para el respaldo.`);
}

/** Writes through a temporary name beside the target, so a half-written backup never has the final name. */
function partialName(file: string): string {
  return `${file}.partial-${process.pid}`;
}

export interface BackupResult {
  kind: DatabaseKind;
  bytes: number;
}

/**
 * PGlite: the running server's (or the CLI's own) open database, as a gzip tarball of its data directory,
 * taken between transactions (DatabaseHandle.snapshot).
 */
export async function backupPglite(handle: DatabaseHandle, file: string): Promise<BackupResult> {
  if (!handle.snapshot) throw new Error('this PGlite handle cannot take snapshots');
  requireNewFile(file);
  const bytes = new Uint8Array(await (await handle.snapshot()).arrayBuffer());
  const partial = partialName(file);
  try {
    writeFileSync(partial, bytes, { mode: 0o600, flag: 'wx' });
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  return { kind: 'pglite', bytes: bytes.length };
}

/**
 * PGlite: replaces DATA_DIR/pglite with the backup's copy, only while no process holds DATA_DIR. The copy is
 * unpacked into DATA_DIR/pglite.restoring and opened first; the data it replaces is kept beside it.
 */
export async function restorePglite(
  dataDir: string,
  file: string,
  now: Date,
): Promise<{ keptAs: string | null }> {
  // The ops socket runs commands inside the server, which holds the lock itself: never from there.
  if (readDataDirLockPid(dataDir) === process.pid) {
    throw new BackupError(
      'El servidor de Flujo en marcha no puede restaurar su propio DATA_DIR. Detén el servidor y vuelve a ejecutar restore.',
    );
  }
  requireKind(file, 'pglite');
  const stopFirst = (pid: number) =>
    new BackupError(
      `Flujo (pid ${pid}) está usando ${dataDir}. Detén el servidor y vuelve a ejecutar restore; no se restauró nada.`,
    );
  const owner = dataDirOwner(dataDir);
  if (owner !== null) throw stopFirst(owner);
  let lock: ReturnType<typeof acquireDataDirLock>;
  try {
    lock = acquireDataDirLock(dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) throw stopFirst(error.pid);
    throw error;
  }
  const staging = join(dataDir, STAGING_DIR);
  try {
    rmSync(staging, { recursive: true, force: true });
    try {
      const client = await PGlite.create({
        dataDir: staging,
        loadDataDir: new Blob([readFileSync(file)], { type: 'application/x-gzip' }),
      });
      try {
        // A Flujo database has run its migrations; this also proves the copy opens.
        await client.query('select count(*) from kysely_migration');
      } finally {
        await client.close();
      }
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      throw new BackupError(
        `${file} no se pudo abrir como base de datos de Flujo (${error instanceof Error ? error.message : String(error)}); no se restauró nada.`,
      );
    }
    const current = join(dataDir, PGLITE_DIR);
    let keptAs: string | null = null;
    if (existsSync(current)) {
      keptAs = join(dataDir, `${PGLITE_DIR}.before-restore-${now.toISOString().replace(/[:.]/g, '-')}`);
      renameSync(current, keptAs);
    }
    renameSync(staging, current);
    return { keptAs };
  } finally {
    lock.release();
  }
}

/** The connection string without its password, which goes to the tools in PGPASSWORD (not in `ps`). */
function toolConnection(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (url.password) {
    env.PGPASSWORD = decodeURIComponent(url.password);
    url.password = '';
  }
  return { url: url.toString(), env };
}

/**
 * A PostgreSQL client program: on the PATH (Debian's pg_wrapper in /usr/bin picks the newest installed
 * version), else the newest /usr/lib/postgresql/<version>/bin.
 */
export function findPgTool(name: 'pg_dump' | 'pg_restore'): string {
  const executable = (path: string) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && executable(join(dir, name))) return join(dir, name);
  }
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((entry) => /^\d+$/.test(entry))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) {
    const path = join(root, version, 'bin', name);
    if (executable(path)) return path;
  }
  throw new BackupError(
    `No se encontró ${name}, del cliente de PostgreSQL: instálalo (Debian: apt-get install postgresql-client) o añade su carpeta al PATH.`,
  );
}

/** Runs a pg tool; resolves with its stdout, or refuses with the tail of its stderr. */
function runPgTool(path: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(path, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0) return resolve(out);
      const tail = err.trim().split('\n').slice(-STDERR_TAIL_LINES).join('\n');
      reject(new BackupError(`${path} terminó con error (${signal ?? `código ${code}`}):\n${tail}`));
    });
  });
}

/** PostgreSQL: pg_dump's custom format, one consistent snapshot of the whole database (pg_dump's own). */
export async function backupPostgres(databaseUrl: string, file: string): Promise<BackupResult> {
  const pgDump = findPgTool('pg_dump');
  requireNewFile(file);
  const { url, env } = toolConnection(databaseUrl);
  const partial = partialName(file);
  try {
    await runPgTool(pgDump, ['--format=custom', `--file=${partial}`, `--dbname=${url}`], env);
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  return { kind: 'postgresql', bytes: readFileSync(file).length };
}

/** Tables of the public schema a custom-format dump creates, from its table of contents (pg_restore --list). */
async function dumpedTables(pgRestore: string, file: string): Promise<Set<string>> {
  const list = await runPgTool(pgRestore, ['--list', file], process.env);
  const tables = new Set<string>();
  // A TOC line: "215; 1259 16390 TABLE public invoices postgres".
  for (const match of list.matchAll(/^\d+; \d+ \d+ TABLE public (\S+) /gm)) tables.add(match[1] as string);
  return tables;
}

/**
 * PostgreSQL: pg_restore --clean --if-exists --single-transaction, so the database ends as the backup or, on
 * any error, as it was. Refused while other sessions use the database (Flujo servers running), and when the
 * database has tables the backup lacks (a newer Flujo's migrations): restore those into a new database.
 */
export async function restorePostgres(databaseUrl: string, file: string): Promise<{ tables: number }> {
  requireKind(file, 'postgresql');
  const pgRestore = findPgTool('pg_restore');
  const inBackup = await dumpedTables(pgRestore, file);
  const admin = await openDatabase({ databaseUrl, migrate: false });
  try {
    const { rows: sessions } = await sql<{ name: string; n: number }>`
      select coalesce(nullif(application_name, ''), client_addr::text, 'local') as name, count(*)::int as n
      from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()
      group by 1 order by 1`.execute(admin.db);
    const open = sessions.reduce((sum, row) => sum + row.n, 0);
    if (open > 0) {
      throw new BackupError(
        `${open === 1 ? 'Hay 1 conexión abierta' : `Hay ${open} conexiones abiertas`} a la base de datos (${sessions.map((row) => row.name).join(', ')}). Detén los servidores de Flujo que la usan y vuelve a ejecutar restore; no se restauró nada.`,
      );
    }
    const { rows: present } = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`.execute(admin.db);
    const extra = present.map((row) => row.name).filter((name) => !inBackup.has(name));
    if (extra.length > 0) {
      throw new BackupError(
        `La base de datos tiene tablas que el respaldo no tiene (${extra.join(', ')}): es de una versión más nueva de Flujo. Restaura en una base de datos nueva (createdb) y apunta DATABASE_URL a ella; no se restauró nada.`,
      );
    }
  } finally {
    await admin.close();
  }
  const { url, env } = toolConnection(databaseUrl);
  await runPgTool(
    pgRestore,
    [
      '--clean',
      '--if-exists',
      '--single-transaction',
      '--exit-on-error',
      '--no-owner',
      '--no-privileges',
      `--dbname=${url}`,
      file,
    ],
    env,
  );
  return { tables: inBackup.size };
}
