// A throwaway PostgreSQL cluster, started as .ci/run starts one: Debian's newest initdb under
// /usr/lib/postgresql/*/bin, run as the postgres user when we are root, trust auth on 127.0.0.1 only.
// Used by bench:api, bench:bulk and test:scale when no database URL is given.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ThrowawayCluster {
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url: string;
  /** Stops the server and removes its directory; safe to call twice. */
  stop(): void;
}

export interface ClusterOptions {
  port: number;
  database: string;
  /** Prefix of the temporary data directory. */
  prefix: string;
}

/** The cluster, or the reason it could not be started (no initdb, or initdb/pg_ctl failed). */
export function startThrowawayCluster(options: ClusterOptions): ThrowawayCluster | string {
  const base = '/usr/lib/postgresql';
  const version = (existsSync(base) ? readdirSync(base) : [])
    .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(a) - Number(b))
    .at(-1);
  if (!version) return 'no initdb under /usr/lib/postgresql/*/bin';
  const bin = join(base, version, 'bin');
  const root = process.getuid?.() === 0;
  const pgdata = mkdtempSync(join(tmpdir(), options.prefix));
  const asPostgres = (command: string) => {
    if (root) execFileSync('su', ['postgres', '-s', '/bin/bash', '-c', command], { stdio: 'pipe' });
    else execFileSync('/bin/bash', ['-c', command], { stdio: 'pipe' });
  };
  if (root) chownSync(pgdata, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()), 0);
  let running = false;
  let removed = false;
  const stop = () => {
    if (running) {
      running = false;
      try {
        asPostgres(`${bin}/pg_ctl -D ${pgdata} -m fast stop`);
      } catch {
        // already stopped
      }
    }
    if (!removed) {
      removed = true;
      rmSync(pgdata, { recursive: true, force: true });
    }
  };
  try {
    asPostgres(`${bin}/initdb -D ${pgdata} -A trust -U postgres`);
    // The socket goes into the cluster's own directory, so nothing is left in /tmp.
    asPostgres(
      `${bin}/pg_ctl -D ${pgdata} -o '-p ${options.port} -k ${pgdata} -c listen_addresses=127.0.0.1' -l ${pgdata}/server.log -w start`,
    );
    running = true;
    asPostgres(`${bin}/createdb -h 127.0.0.1 -p ${options.port} ${options.database}`);
  } catch (error) {
    stop();
    return `could not start a PostgreSQL ${version} cluster on port ${options.port}: ${String(error).slice(0, 300)}`;
  }
  return { url: `postgres://postgres@127.0.0.1:${options.port}/${options.database}`, stop };
}
