// The real server (server/main.ts) as a child process on a data directory of its own, for the bulk bench
// (scripts/bench-bulk.ts) and the durability tests (test/api/bulk-durability.test.ts): started, logged into
// over HTTP, stopped with SIGTERM or killed with SIGKILL, and started again on the same data.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import dayjs from 'dayjs';
import { strToU8, zipSync } from 'fflate';
import { buildCfdiXml } from '../../server/cfdi/build-cfdi';
import { DEMO_CORPORATE, DEMO_PASSWORD, DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { testAuthority } from './demo-authority';

export const ROOT = resolve(import.meta.dirname, '../..');

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject()));
    });
  });
}

export interface RealServer {
  base: string;
  child: ChildProcess;
  /** Everything the server wrote to stdout and stderr so far (its JSON log lines included). */
  output(): string;
  /** Resolves once a log line contains `text` (e.g. a request's URL, logged as Fastify receives it). */
  logged(text: string, timeoutMs: number): Promise<void>;
  /** SIGTERM and wait for the exit (the server closes the database cleanly). */
  stop(): Promise<void>;
  /** SIGKILL and wait for the exit: nothing is flushed or closed. */
  kill9(): Promise<void>;
}

export interface StartOptions {
  dataDir: string;
  /** PostgreSQL; absent means PGlite in dataDir. */
  databaseUrl?: string;
  /** Generous: migrating and seeding the demo world is slow on a loaded 2-core machine. */
  timeoutMs?: number;
  /** More environment for the server (e.g. the shared JWT_SECRET of several processes). */
  env?: Record<string, string>;
  /** Default: a free one. */
  port?: number;
}

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/** Starts node --import tsx server/main.ts and resolves when /api/health/ answers 200. */
export async function startRealServer(options: StartOptions): Promise<RealServer> {
  const port = options.port ?? (await freePort());
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: options.dataDir,
    // info: Fastify logs each request as it arrives, which the durability tests wait for.
    LOG_LEVEL: 'info',
    NODE_ENV: 'development',
    ...options.env,
  };
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  else delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let said = '';
  const waiters: Array<{ text: string; done: () => void }> = [];
  const listen = (chunk: Buffer) => {
    said += chunk.toString();
    for (const waiter of [...waiters]) {
      if (said.includes(waiter.text)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.done();
      }
    }
  };
  child.stdout?.on('data', listen);
  child.stderr?.on('data', listen);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const base = `http://127.0.0.1:${port}`;
  const server: RealServer = {
    base,
    child,
    output: () => said,
    logged(text, timeoutMs) {
      if (said.includes(text)) return Promise.resolve();
      return new Promise((done, fail) => {
        const timer = setTimeout(
          () => fail(new Error(`the server did not log ${text} within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          text,
          done: () => {
            clearTimeout(timer);
            done();
          },
        });
      });
    },
    async stop() {
      if (running(child)) child.kill('SIGTERM');
      await exited;
    },
    async kill9() {
      if (running(child)) child.kill('SIGKILL');
      await exited;
    },
  };
  const deadline = Date.now() + (options.timeoutMs ?? 300_000);
  while (Date.now() < deadline) {
    if (!running(child)) {
      throw new Error(
        `the server exited before answering /api/health/ (${child.signalCode ?? `code ${child.exitCode}`}):\n${said.slice(-4000)}`,
      );
    }
    try {
      if ((await fetch(`${base}/api/health/`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  await server.kill9();
  throw new Error(`the server did not answer /api/health/ in time:\n${said.slice(-4000)}`);
}

/** Logs in over HTTP and returns the access token. */
export async function loginToken(base: string, username: string): Promise<string> {
  const res = await fetch(`${base}/api/accounts/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  });
  if (!res.ok) throw new Error(`login ${username}: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { access: string };
  return body.access;
}

export const DEMO_CORPORATE_USER = 'corporativo.demo';

/**
 * count stamped CFDI from a demo supplier allied with the demo corporate, to the demo corporate, emitted five
 * days before today: new to Flujo as long as `batch` is new (it goes into the serie, so the stamp UUIDs differ).
 */
export function bulkCfdi(batch: string, count: number, today: string): Array<{ name: string; xml: string }> {
  const issuer = DEMO_PROVIDERS[0];
  const issuedAt = `${dayjs(today).subtract(5, 'day').format('YYYY-MM-DD')}T10:00:00`;
  return Array.from({ length: count }, (_, i) => {
    const folio = String(i + 1).padStart(5, '0');
    return {
      name: `${batch}-${folio}.xml`,
      xml: buildCfdiXml(
        {
          serie: batch,
          folio,
          issuedAt,
          issuer: { rfc: issuer.rfc, name: issuer.name },
          receiver: { rfc: DEMO_CORPORATE.rfc, name: DEMO_CORPORATE.name },
          subtotal: '8620.69',
          currency: 'MXN',
          paymentMethod: 'PPD',
          description: 'Servicio de carga masiva (bench)',
        },
        testAuthority(),
      ),
    };
  });
}

export function zipOf(files: Array<{ name: string; xml: string }>): Uint8Array {
  return zipSync(Object.fromEntries(files.map((file) => [file.name, strToU8(file.xml)])));
}

/** POST a multipart form with one file and text fields; returns status and parsed JSON (or text). */
export async function postFile(
  url: string,
  token: string,
  file: { field: string; name: string; type: string; data: Uint8Array },
  fields: Record<string, string> = {},
): Promise<HttpAnswer> {
  const form = new FormData();
  form.append(file.field, new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const res = await fetch(url, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await bodyOf(res) };
}

/** A running server's answer: its status and its JSON (or its text, when it is not JSON). */
export interface HttpAnswer {
  status: number;
  body: unknown;
}

/** The answer's JSON, or its text when it is not JSON (a proxy's error page, say). */
export async function bodyOf(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
