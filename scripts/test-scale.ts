// npm run test:scale (issue 16, "Beyond one machine"): two Flujo processes (server/main.ts) on one PostgreSQL
// behind an nginx generated from deploy/nginx/flujo.conf, and what several processes must get right:
//   1. nginx spreads requests over both processes and hands them the client's address (TRUST_PROXY);
//   2. the pronto-pago journey with its calls alternating between the processes (one session, both servers);
//   3. an Idempotency-Key replayed on the other process returns the first answer;
//   4. login throttling counts failures made on either process;
//   5. a scheduled job runs once: every queued e-mail is delivered exactly once with both runners active;
//   6. deploy/README.md's rolling restart under load: one process drained in nginx (marked down, reload),
//      stopped with SIGTERM, started again, put back: no request fails;
//   7. sessions are cached in each process (decision 0072), yet a logout, a refresh token used twice, a password
//      change, a disabled user or an operator's roles taken away on one process answer on the very next request
//      of the other (the restarted B of step 6 included);
//   8. one process killed with SIGKILL under concurrent load through nginx while the journey goes on through
//      the other: every acknowledged (2xx) write is in the database afterwards;
//   9. the surviving process stops on SIGTERM with exit code 0.
// PostgreSQL: TEST_DATABASE_URL (a throwaway database is created there and dropped), or a private cluster on
// port 5443 started from /usr/lib/postgresql/*/bin (as the postgres user when run as root). nginx:
// /usr/sbin/nginx (Debian's). Every wait has a generous explicit bound and nothing asserts speed: CI is a
// busy 2-core machine. Prints each check; exits 1 on the first failure.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import dayjs from 'dayjs';
import pg from 'pg';
import type { Config } from '../server/config';
import { type DatabaseHandle, type Db, openDatabase } from '../server/db/database';
import { businessDate } from '../server/http/business-date';
import { insertOutbox } from '../server/mail/outbox.repository';
import { DEMO_PASSWORD } from '../server/seed/demo-world';
import { InvoiceStatus } from '../src/domain/invoice-status';
import { createOperatorSession } from '../test/support/operator';
import { addCompanyWithUser, importInvoice, statusOf } from '../test/support/pronto-pago';
import { freePort, type RealServer, ROOT, startRealServer } from '../test/support/real-server';
import { type SmtpSink, startSmtpSink } from '../test/support/smtp-sink';
import { startThrowawayCluster } from './pg-cluster';

const NGINX = process.env.NGINX_BIN || '/usr/sbin/nginx';
const PRIVATE_PG_PORT = 5443;
/** Bounds, not expectations. */
const START_MS = 300_000;
const CALL_MS = 120_000;
const WAIT_MS = 180_000;

const REQUEST = '/api/providers/request-payment/';
const ADVANCE = '/api/providers/forward-payment/';
const AUTHORIZE = '/api/corporates/manually-requests/authorize/';
const LOGIN = '/api/accounts/login/';
const quoteUrl = (id: number) => `/api/providers/forward-payment/${id}/`;

const LOAD_INVOICES = 80;
const LOAD_WORKERS = 8;
const KILL_AFTER_ACKS = 12;
const QUEUED_MAILS = 40;
const ROLL_INVOICES = 40;
const ROLL_WORKERS = 4;
/** max_fails in deploy/nginx/flujo.conf's upstream. */
const UPSTREAM_MAX_FAILS = 2;

class CheckFailed extends Error {}

function check(ok: boolean, what: string, detail = ''): void {
  if (!ok) throw new CheckFailed(`FAILED: ${what}${detail ? `\n  ${detail}` : ''}`);
  console.log(`  ok  ${what}`);
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function waitFor(what: string, condition: () => Promise<boolean>, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await sleep(250);
  }
  throw new CheckFailed(`FAILED: ${what} (not within ${timeoutMs} ms)`);
}

interface Answer {
  status: number;
  body: unknown;
  headers: IncomingHttpHeaders;
  /** Why there is no answer (status 0). */
  error?: string;
}

/**
 * One HTTP call with a bound, on a connection of its own: a kept-alive connection to nginx that an nginx
 * reload closes just as a request goes out fails in the client (browsers retry those themselves), which would
 * blur what the checks are about. A refused or cut connection is status 0 (never acknowledged).
 */
function call(
  base: string,
  path: string,
  options: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  const url = new URL(path, base);
  return new Promise((done) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: options.method ?? (payload === undefined ? 'GET' : 'POST'),
        headers,
        agent: false,
        timeout: CALL_MS,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('error', (error) => done({ status: 0, body: null, headers: {}, error: error.message }));
        res.on('end', () => {
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON
          }
          done({ status: res.statusCode ?? 0, body, headers: res.headers });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${CALL_MS} ms`)));
    req.on('error', (error) => done({ status: 0, body: null, headers: {}, error: error.message }));
    req.end(payload);
  });
}

async function login(base: string, username: string): Promise<{ access: string; refresh: string }> {
  const res = await call(base, LOGIN, { body: { username, password: DEMO_PASSWORD } });
  if (res.status !== 200)
    throw new CheckFailed(`FAILED: login ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { access: string; refresh: string };
}

// ------------------------------------------------------------------------------------ revocation (step 7)

const LIST = '/api/providers/alliances/?page=1&page_size=25';

/**
 * Each revocation made on one process, then the other process's next request with a token it has just
 * served twice (so its session is in that process's cache). Nothing waits in between: the answer must already
 * be the refusal.
 */
async function revocationAcrossProcesses(
  a: RealServer,
  b: RealServer,
  db: Db,
  jwtSecret: string,
): Promise<void> {
  const served = async (server: RealServer, token: string, path = LIST) => {
    for (let i = 0; i < 2; i += 1) {
      const res = await call(server.base, path, { token });
      check(
        res.status === 200,
        `${path} answered with a live session`,
        `${res.status} ${JSON.stringify(res.body)}`,
      );
    }
  };
  const refused = async (server: RealServer, token: string, status: number, what: string, path = LIST) => {
    const res = await call(server.base, path, { token });
    check(res.status === status, what, `${res.status} ${JSON.stringify(res.body)}`);
  };

  // A user of its own: the password change below ends its other logins, which later steps must not share.
  const user = 'escala.revocacion';
  await addCompanyWithUser(db, { rfc: null, name: 'Escala Revocación', username: user });
  const loggedOut = await login(a.base, user);
  await served(b, loggedOut.access);
  const logout = await call(a.base, '/api/accounts/logout/', { method: 'POST', token: loggedOut.access });
  check(logout.status === 204, 'logout on A', String(logout.status));
  await refused(b, loggedOut.access, 401, "logout on A: B refuses the session's access token at once");

  const reused = await login(b.base, user);
  await served(a, reused.access);
  const refresh = () => call(b.base, '/api/accounts/token/refresh/', { body: { refresh: reused.refresh } });
  check((await refresh()).status === 200, 'a refresh on B');
  check((await refresh()).status === 401, 'the same refresh token again on B is refused (reuse)');
  await refused(a, reused.access, 401, 'refresh-token reuse on B: A refuses that login at once');

  const changer = await login(a.base, user);
  const elsewhere = await login(a.base, user);
  await served(b, changer.access);
  await served(b, elsewhere.access);
  const change = (from: string, to: string) =>
    call(a.base, '/api/accounts/update-password/', {
      token: changer.access,
      body: { old_password: from, new_password1: to, new_password2: to },
    });
  const temporary = 'Mezquite-Dorado-84';
  check((await change(DEMO_PASSWORD, temporary)).status === 200, 'password changed on A');
  await refused(b, elsewhere.access, 401, "password change on A: B refuses the user's other login at once");
  await served(b, changer.access);
  check((await change(temporary, DEMO_PASSWORD)).status === 200, 'password changed back on A');

  const disabled = await login(a.base, user);
  await served(b, disabled.access);
  await db.updateTable('users').set({ is_active: false }).where('username', '=', user).execute();
  try {
    await refused(b, disabled.access, 401, 'a user disabled in the database: B refuses at once');
  } finally {
    await db.updateTable('users').set({ is_active: true }).where('username', '=', user).execute();
  }
  await served(b, disabled.access);

  const operator = await createOperatorSession(
    {
      database: { db },
      config: { jwtSecret, accessTokenMinutes: 60, refreshTokenHours: 24 } as Config,
      now: () => new Date(),
    },
    { roles: ['auditor'], username: `operador.escala.${process.pid}` },
  );
  await served(b, operator.access, '/api/operator/audit/');
  await db.updateTable('users').set({ operator_roles: [] }).where('id', '=', operator.userId).execute();
  await refused(
    b,
    operator.access,
    403,
    "an operator's roles taken away: B refuses at once",
    '/api/operator/audit/',
  );
}

// ---------------------------------------------------------------------------------------------- PostgreSQL

interface Postgres {
  url: string;
  stop(): Promise<void>;
}

async function postgres(): Promise<Postgres> {
  const given = process.env.TEST_DATABASE_URL;
  const name = `flujo_scale_${process.pid}_${Date.now()}`;
  if (given) {
    const admin = new pg.Client({ connectionString: given });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(given);
    url.pathname = `/${name}`;
    console.log(`PostgreSQL: database ${name} on ${url.host} (TEST_DATABASE_URL)`);
    return {
      url: url.toString(),
      async stop() {
        const drop = new pg.Client({ connectionString: given });
        await drop.connect();
        await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await drop.end();
      },
    };
  }
  const cluster = startThrowawayCluster({
    port: PRIVATE_PG_PORT,
    database: 'flujo_scale',
    prefix: 'flujo-scale-pg-',
  });
  if (typeof cluster === 'string') {
    throw new CheckFailed(
      `FAILED: no PostgreSQL (${cluster}): set TEST_DATABASE_URL or install Debian's postgresql`,
    );
  }
  console.log(`PostgreSQL: private cluster on port ${PRIVATE_PG_PORT}`);
  return {
    url: cluster.url,
    async stop() {
      cluster.stop();
    },
  };
}

// ------------------------------------------------------------------------------------------------ nginx

interface Nginx {
  base: string;
  port: number;
  /** Regenerates the config with these upstream ports marked `down` and reloads (SIGHUP), as an operator would. */
  reload(down: readonly number[]): void;
  stop(): Promise<void>;
}

/** deploy/nginx/flujo.conf with its upstream servers, listen port and root replaced; fails if its shape changed. */
export function siteConfig(
  recipe: string,
  upstreamPorts: number[],
  listenPort: number,
  root: string,
  down: readonly number[] = [],
): string {
  const lines = recipe.split('\n');
  const servers = lines.flatMap((line, i) => (/^\s*server 127\.0\.0\.1:\d+\s.*;\s*$/.test(line) ? [i] : []));
  if (servers.length < 2)
    throw new Error(
      'deploy/nginx/flujo.conf: expected an upstream with several `server 127.0.0.1:PORT …;` lines',
    );
  const template = lines[servers[0] as number] as string;
  const generated = upstreamPorts.map((port) => {
    const line = template.replace(/127\.0\.0\.1:\d+/, `127.0.0.1:${port}`);
    return down.includes(port) ? line.replace(/;\s*$/, ' down;') : line;
  });
  const kept = lines.filter((_, i) => !servers.slice(1).includes(i));
  kept.splice(servers[0] as number, 1, ...generated);
  let site = kept.join('\n');
  const replace = (pattern: RegExp, value: string, what: string) => {
    if (!pattern.test(site)) throw new Error(`deploy/nginx/flujo.conf: no ${what}`);
    site = site.replace(pattern, value);
  };
  replace(/^(\s*)listen 80;/m, `$1listen 127.0.0.1:${listenPort};`, '`listen 80;` line');
  replace(/^(\s*)root \/opt\/flujo\/dist;/m, `$1root ${root};`, '`root /opt/flujo/dist;` line');
  // Relative to nginx's prefix (-p): the run's own directory, in the recipe's redacted format.
  replace(
    /^(\s*)access_log \/var\/log\/nginx\/flujo\.access\.log (\w+);/m,
    '$1access_log access.log $2;',
    '`access_log /var/log/nginx/flujo.access.log FORMAT;` line',
  );
  return site;
}

async function startNginx(upstreamPorts: number[], dir: string): Promise<Nginx> {
  if (!existsSync(NGINX)) throw new CheckFailed(`FAILED: no nginx at ${NGINX} (apt-get install nginx)`);
  const port = await freePort();
  const recipe = readFileSync(join(ROOT, 'deploy/nginx/flujo.conf'), 'utf8');
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  // The workers run as nobody when nginx starts as root: they need to enter the directory and write temp files.
  chmodSync(dir, 0o755);
  chmodSync(join(dir, 'tmp'), 0o777);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `  ${kind}_temp_path ${join(dir, 'tmp', kind)};`)
    .join('\n');
  const render = (down: readonly number[]) => `daemon off;
worker_processes 2;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 512; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log ${join(dir, 'access.log')};
${temp}
${siteConfig(recipe, upstreamPorts, port, join(ROOT, 'dist'), down)}
}
`;
  const conf = join(dir, 'nginx.conf');
  const args = ['-e', join(dir, 'error.log'), '-p', dir, '-c', conf];
  const writeChecked = (down: readonly number[]) => {
    writeFileSync(conf, render(down));
    try {
      execFileSync(NGINX, ['-t', ...args], { stdio: 'pipe' });
    } catch (error) {
      const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? String(error);
      throw new CheckFailed(`FAILED: nginx -t on the generated config:\n${stderr}`);
    }
  };
  writeChecked([]);
  const child = spawn(NGINX, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    said += chunk.toString();
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const base = `http://127.0.0.1:${port}`;
  await waitFor(
    'nginx answers /api/health/',
    async () => (await call(base, '/api/health/')).status === 200,
    START_MS,
  ).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw new CheckFailed(`${String(error)}\n${said}`);
  });
  console.log(
    `nginx: ${base} → 127.0.0.1:${upstreamPorts.join(', 127.0.0.1:')} (from deploy/nginx/flujo.conf)`,
  );
  return {
    base,
    port,
    reload(down) {
      writeChecked(down);
      child.kill('SIGHUP');
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
      await Promise.race([exited, sleep(10_000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/** A GET through nginx from another loopback address, with a forged X-Forwarded-For nginx must replace. */
function getFrom(localAddress: string, port: number, path: string): Promise<number> {
  return new Promise((done, fail) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        localAddress,
        headers: { 'x-forwarded-for': '203.0.113.9' },
        timeout: CALL_MS,
      },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', fail);
    req.end();
  });
}

// ------------------------------------------------------------------------------------------------- steps

async function run(): Promise<void> {
  const cleanups: Array<() => Promise<void>> = [];
  const workDir = mkdtempSync(join(tmpdir(), 'flujo-scale-'));
  cleanups.push(async () => rmSync(workDir, { recursive: true, force: true }));
  let database: DatabaseHandle | null = null;
  const servers: RealServer[] = [];
  try {
    const pgInstance = await postgres();
    cleanups.push(() => pgInstance.stop());
    const sink: SmtpSink = await startSmtpSink();
    cleanups.push(() => sink.close());

    // What every process of one deployment shares (deploy/README.md): the database, the secrets, TRUST_PROXY.
    const env = {
      JWT_SECRET: randomBytes(48).toString('base64url'),
      SAT_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      TRUST_PROXY: 'true',
      SMTP_URL: sink.url,
      MAIL_POLL_MS: '250',
      // The run may take minutes on a loaded machine: tokens must outlive it.
      ACCESS_TOKEN_MINUTES: '60',
    };
    // One after the other: the first migrates and seeds the demo world, the second finds it done.
    for (const name of ['a', 'b']) {
      const server = await startRealServer({
        dataDir: join(workDir, name),
        databaseUrl: pgInstance.url,
        timeoutMs: START_MS,
        env,
      });
      servers.push(server);
      cleanups.push(() => server.kill9());
      console.log(`Flujo ${name.toUpperCase()}: ${server.base} (pid ${server.child.pid})`);
    }
    const a = servers[0] as RealServer;
    // Replaced by a new process in the rolling restart (step 6).
    let b = servers[1] as RealServer;
    const nginxDir = join(workDir, 'nginx');
    mkdirSync(nginxDir);
    const nginx = await startNginx(
      servers.map((server) => Number(new URL(server.base).port)),
      nginxDir,
    );
    cleanups.push(() => nginx.stop());
    database = await openDatabase({ databaseUrl: pgInstance.url, migrate: false });
    const db = database.db;
    const today = businessDate(new Date());

    console.log('\n1. nginx in front of both processes');
    for (let i = 0; i < 12; i += 1) {
      check(
        (await call(nginx.base, `/api/health/?probe=${i}`)).status === 200,
        `health probe ${i} through nginx`,
      );
    }
    const servedBy = (server: RealServer) =>
      Array.from({ length: 12 }, (_, i) => i).filter((i) => server.output().includes(`probe=${i}"`)).length;
    // A log line reaches us through a pipe, possibly after the answer did: wait for all twelve.
    await waitFor('the processes logged the 12 probes', async () => servedBy(a) + servedBy(b) === 12);
    check(
      servedBy(a) > 0 && servedBy(b) > 0,
      'both processes served requests through nginx',
      `A ${servedBy(a)}, B ${servedBy(b)}`,
    );
    const status = await getFrom('127.0.0.2', nginx.port, '/api/health/?probe=address');
    check(status === 200, 'a request from 127.0.0.2 with a forged X-Forwarded-For answers 200');
    const addressLine = () =>
      [a, b]
        .flatMap((server) => server.output().split('\n'))
        .find((line) => line.includes('probe=address') && line.includes('remoteAddress'));
    await waitFor('the process logged the request', async () => addressLine() !== undefined);
    const logLine = addressLine();
    check(
      logLine?.includes('"remoteAddress":"127.0.0.2"') === true,
      'the process sees the client address nginx saw (TRUST_PROXY), not the forged one',
      logLine ?? 'no log line',
    );

    console.log('\n2. pronto-pago journey, alternating A and B');
    const provider = await login(a.base, 'proveedor.demo');
    const corporate = await login(b.base, 'corporativo.demo');
    const refreshed = await call(b.base, '/api/accounts/token/refresh/', {
      body: { refresh: provider.refresh },
    });
    check(
      refreshed.status === 200,
      'a refresh token issued by A is accepted by B',
      JSON.stringify(refreshed.body),
    );
    const providerToken = (refreshed.body as { access: string }).access;
    const journeyId = await importInvoice(db, { today });
    const requested = await call(a.base, REQUEST, {
      token: providerToken,
      body: { id_request_factoring: journeyId },
    });
    check(
      requested.status === 200,
      `A: provider requests authorization of invoice ${journeyId}`,
      JSON.stringify(requested.body),
    );
    check(
      (await statusOf(db, journeyId)) === InvoiceStatus.PENDING,
      'the invoice is pending in the database',
    );
    const paymentDate = dayjs(today).add(45, 'day').format('YYYY-MM-DD');
    const authorized = await call(b.base, AUTHORIZE, {
      token: corporate.access,
      body: [{ invoice_id: journeyId, payment_date: paymentDate }],
    });
    check(authorized.status === 200, 'B: corporate authorizes it', JSON.stringify(authorized.body));
    const quote = await call(a.base, quoteUrl(journeyId), { token: providerToken });
    check(
      quote.status === 200 && typeof (quote.body as { total?: unknown }).total === 'string',
      'A: provider gets the quote',
      JSON.stringify(quote.body),
    );

    console.log('\n3. Idempotency-Key replayed on the other process');
    const key = `scale-${randomBytes(8).toString('hex')}`;
    const eventsBefore = await db
      .selectFrom('invoice_events')
      .select('id')
      .where('invoice_id', '=', journeyId)
      .execute();
    const first = await call(b.base, ADVANCE, {
      token: providerToken,
      body: { id_execute_factoring: journeyId },
      headers: { 'idempotency-key': key },
    });
    check(
      first.status === 200,
      'B: provider takes the advance with an Idempotency-Key',
      JSON.stringify(first.body),
    );
    const eventsAfter = await db
      .selectFrom('invoice_events')
      .select('id')
      .where('invoice_id', '=', journeyId)
      .execute();
    const replay = await call(a.base, ADVANCE, {
      token: providerToken,
      body: { id_execute_factoring: journeyId },
      headers: { 'idempotency-key': key },
    });
    check(
      replay.status === first.status && JSON.stringify(replay.body) === JSON.stringify(first.body),
      'A: the same key answers the first answer',
      `${replay.status} ${JSON.stringify(replay.body)}`,
    );
    check(
      replay.headers['idempotent-replayed'] === 'true',
      'A marks it as a replay (Idempotent-Replayed: true)',
    );
    const eventsReplayed = await db
      .selectFrom('invoice_events')
      .select('id')
      .where('invoice_id', '=', journeyId)
      .execute();
    check(
      eventsAfter.length === eventsBefore.length + 1 && eventsReplayed.length === eventsAfter.length,
      'the advance happened once (one audit row, none for the replay)',
    );
    check(
      (await statusOf(db, journeyId)) === InvoiceStatus.PROCESS,
      'the invoice is in process (advance taken)',
    );

    console.log('\n4. login throttling across both processes');
    await addCompanyWithUser(db, { rfc: null, name: 'Escala Throttle', username: 'escala.throttle' });
    const attempts: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const server = i % 2 === 0 ? a : b;
      attempts.push(
        (
          await call(server.base, LOGIN, {
            body: { username: 'escala.throttle', password: 'no-es-la-clave' },
          })
        ).status,
      );
    }
    check(
      attempts.slice(0, 5).every((code) => code !== 429 && code >= 400 && code < 500),
      '5 wrong passwords (3 on A, 2 on B) are refused, not throttled',
      attempts.join(', '),
    );
    check(
      attempts[5] === 429,
      'the 6th, on B, is throttled: the limit (5 per username) counts both',
      attempts.join(', '),
    );
    const rightPassword = await call(a.base, LOGIN, {
      body: { username: 'escala.throttle', password: DEMO_PASSWORD },
    });
    check(
      rightPassword.status === 429,
      'even the right password on A waits out the window',
      String(rightPassword.status),
    );

    console.log('\n5. a scheduled job runs once: e-mail delivery with both runners active');
    for (let i = 0; i < QUEUED_MAILS; i += 1) {
      await insertOutbox(db, {
        recipient: 'escala@example.mx',
        subject: `escala ${i}`,
        bodyText: 'Prueba de entrega.',
        sentAt: null,
        error: null,
        nextAttemptAt: new Date(),
      });
    }
    const pending = async () =>
      Number(
        (
          await db
            .selectFrom('mail_outbox')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('sent_at', 'is', null)
            .where('next_attempt_at', 'is not', null)
            .executeTakeFirstOrThrow()
        ).n,
      );
    await waitFor('every queued e-mail delivered', async () => (await pending()) === 0);
    const sentRows = await db
      .selectFrom('mail_outbox')
      .select(['id', 'attempts'])
      .where('sent_at', 'is not', null)
      .execute();
    check(
      sentRows.length >= QUEUED_MAILS + 1,
      `${sentRows.length} e-mails marked sent (the journey's and ${QUEUED_MAILS} queued)`,
    );
    check(
      sink.mails.length === sentRows.length,
      'the SMTP server received exactly as many messages as were marked sent',
      `${sink.mails.length} received`,
    );
    const subjects = sink.mails
      .map((mail) => mail.subject)
      .filter((subject) => subject.startsWith('escala '));
    check(
      subjects.length === QUEUED_MAILS && new Set(subjects).size === QUEUED_MAILS,
      `each of the ${QUEUED_MAILS} queued e-mails arrived exactly once`,
    );
    check(
      sentRows.every((row) => row.attempts === 1),
      'each was claimed by one process, once',
    );
    const deliveredBy = (server: RealServer) =>
      (server.output().match(/job mail-delivery: \d+ sent/g) ?? []).length;
    console.log(`      (delivery runs that sent mail: A ${deliveredBy(a)}, B ${deliveredBy(b)})`);
    const pruneRuns = await db.selectFrom('job_runs').select(['job', 'slot', 'owner']).execute();
    const slots = pruneRuns.map((row) => `${row.job}/${row.slot}`);
    check(
      pruneRuns.length > 0 && new Set(slots).size === slots.length,
      `periodic jobs claimed once per slot (${pruneRuns.map((row) => `${row.job} by ${row.owner}`).join('; ')})`,
    );

    console.log('\n6. rolling restart of B under load through nginx (deploy/README.md)');
    const bPort = Number(new URL(b.base).port);
    const rollIds: number[] = [];
    for (let i = 0; i < ROLL_INVOICES; i += 1) rollIds.push(await importInvoice(db, { today }));
    const rollQueue = [...rollIds];
    const rollOutcomes: Array<{ id: number | null; status: number; error?: string }> = [];
    let rolling = true;
    // Writes while there are invoices left, then reads: requests keep coming for the whole restart.
    const rollWorker = async () => {
      while (rolling) {
        const id = rollQueue.shift();
        const res =
          id === undefined
            ? await call(nginx.base, '/api/providers/alliances/?page=1&page_size=25', {
                token: providerToken,
              })
            : await call(nginx.base, REQUEST, { token: providerToken, body: { id_request_factoring: id } });
        rollOutcomes.push({ id: id ?? null, status: res.status, error: res.error });
      }
    };
    const rollLoad = Promise.all(Array.from({ length: ROLL_WORKERS }, rollWorker));
    await waitFor('load under way', async () => rollOutcomes.length >= ROLL_WORKERS);
    let probe = 0;
    /** Resolves once `count` probes in a row through nginx were all answered by `server`. */
    const onlyServedBy = async (server: RealServer, count: number) => {
      let inARow = 0;
      await waitFor(`${count} probes in a row served by ${server.base}`, async () => {
        probe += 1;
        const marker = `roll-probe=${probe}"`;
        if ((await call(nginx.base, `/api/health/?roll-probe=${probe}`)).status !== 200) return false;
        await waitFor('the probe logged', async () => servers.some((one) => one.output().includes(marker)));
        inARow = server.output().includes(marker) ? inARow + 1 : 0;
        return inARow >= count;
      });
    };
    nginx.reload([bPort]);
    await onlyServedBy(a, 6);
    check(true, 'B drained: marked down in the nginx config and reloaded, new requests go to A');
    await b.stop();
    check(b.child.exitCode === 0, 'B stopped with SIGTERM under load, exit 0');
    b = await startRealServer({
      dataDir: join(workDir, 'b2'),
      databaseUrl: pgInstance.url,
      port: bPort,
      timeoutMs: START_MS,
      env,
    });
    servers.push(b);
    cleanups.push(() => b.kill9());
    check(true, `B started again on port ${bPort} (pid ${b.child.pid})`);
    nginx.reload([]);
    const newB = b;
    await waitFor('the restarted B serves requests through nginx', async () => {
      probe += 1;
      await call(nginx.base, `/api/health/?roll-probe=${probe}`);
      return newB.output().includes(`roll-probe=${probe}"`);
    });
    check(true, 'B back in the nginx config: it serves requests again');
    rolling = false;
    await rollLoad;
    const rollFailed = rollOutcomes.filter((o) => o.status < 200 || o.status >= 300);
    const rollWrites = rollOutcomes.filter((o) => o.id !== null);
    console.log(
      `      load during the restart: ${rollOutcomes.length} requests (${rollWrites.length} writes)`,
    );
    check(
      rollFailed.length === 0,
      'no request failed during the rolling restart',
      JSON.stringify(rollFailed),
    );
    const rollRows = await db
      .selectFrom('invoices')
      .select(['id', 'status'])
      .where('id', 'in', rollIds)
      .execute();
    const rollLost = rollWrites.filter(
      (o) => rollRows.find((row) => row.id === o.id)?.status !== InvoiceStatus.PENDING,
    );
    check(
      rollLost.length === 0,
      `every write acknowledged during the restart is in the database (${rollWrites.length})`,
    );

    console.log('\n7. a revocation on one process answers on the very next request of the other');
    await revocationAcrossProcesses(a, b, db, env.JWT_SECRET);

    console.log('\n8. SIGKILL of A under load through nginx; the journey goes on through B');
    const loadIds: number[] = [];
    for (let i = 0; i < LOAD_INVOICES; i += 1) loadIds.push(await importInvoice(db, { today }));
    const queue = [...loadIds];
    const outcomes: Array<{ id: number; status: number }> = [];
    // The worker that receives the KILL_AFTER_ACKS-th acknowledgement kills A at once, while the others
    // have requests under way: the kill lands under load whatever the machine's speed.
    let killed: Promise<void> | null = null;
    let leftAtKill = 0;
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        const res = await call(nginx.base, REQUEST, {
          token: providerToken,
          body: { id_request_factoring: id },
        });
        outcomes.push({ id, status: res.status });
        if (!killed && outcomes.filter((o) => o.status === 200).length >= KILL_AFTER_ACKS) {
          leftAtKill = queue.length;
          killed = a.kill9();
        }
      }
    };
    const load = Promise.all(Array.from({ length: LOAD_WORKERS }, worker));
    await waitFor('A killed under load', async () => killed !== null);
    await killed;
    console.log(
      `      A killed (SIGKILL) after ${KILL_AFTER_ACKS} acknowledged writes, ${leftAtKill} still to send`,
    );
    check(leftAtKill > 0, 'the kill happened under load (requests still to send)');
    // The journey on B while the load continues: authorize one acknowledged request, quote, advance.
    const next = outcomes.find((o) => o.status === 200);
    if (!next) throw new CheckFailed('FAILED: no acknowledged write to continue the journey with');
    const authorizedB = await call(b.base, AUTHORIZE, {
      token: corporate.access,
      body: [{ invoice_id: next.id, payment_date: paymentDate }],
    });
    check(
      authorizedB.status === 200,
      `B: corporate authorizes invoice ${next.id} after the kill`,
      JSON.stringify(authorizedB.body),
    );
    const quoteB = await call(b.base, quoteUrl(next.id), { token: providerToken });
    check(quoteB.status === 200, 'B: provider gets its quote');
    const advanceB = await call(b.base, ADVANCE, {
      token: providerToken,
      body: { id_execute_factoring: next.id },
    });
    check(advanceB.status === 200, 'B: provider takes the advance', JSON.stringify(advanceB.body));
    await load;
    const acked = outcomes.filter((o) => o.status >= 200 && o.status < 300);
    const failed = outcomes.filter((o) => o.status < 200 || o.status >= 300);
    console.log(
      `      load: ${outcomes.length} writes, ${acked.length} acknowledged, ${failed.length} not (${failed.map((o) => o.status).join(', ') || 'none'})`,
    );
    check(outcomes.length === LOAD_INVOICES, 'every load request got an answer or an error');
    check(
      failed.every((o) => o.status === 502),
      "every write not acknowledged got nginx's 502 (the process it was on had died), never a Flujo error",
    );
    // In flight on A when it died (at most one per worker), plus the attempts nginx needs to mark A down.
    check(
      failed.length <= LOAD_WORKERS + UPSTREAM_MAX_FAILS,
      `nginx sent the rest to B: ${failed.length} ≤ ${LOAD_WORKERS} concurrent + ${UPSTREAM_MAX_FAILS} (max_fails) lost to the kill`,
    );
    const nginxErrors = readFileSync(join(nginxDir, 'error.log'), 'utf8');
    const reasons = ['Connection refused', 'prematurely closed', 'reset by peer', 'marked as down'].map(
      (reason) => `${reason}: ${nginxErrors.split(reason).length - 1}`,
    );
    console.log(`      nginx error log: ${reasons.join(', ')}`);
    const rows = await db
      .selectFrom('invoices')
      .select(['id', 'status'])
      .where('id', 'in', loadIds)
      .execute();
    const events = await db
      .selectFrom('invoice_events')
      .select(['invoice_id'])
      .where('invoice_id', 'in', loadIds)
      .where('to_status', '=', InvoiceStatus.PENDING)
      .execute();
    const statusById = new Map(rows.map((row) => [row.id, row.status]));
    const withEvent = new Set(events.map((event) => event.invoice_id));
    const lost = acked.filter(
      (o) => statusById.get(o.id) === InvoiceStatus.AVAILABLE || !withEvent.has(o.id),
    );
    check(
      lost.length === 0,
      `every acknowledged write is in the database with its audit row (${acked.length})`,
      `lost: ${JSON.stringify(lost)}`,
    );
    const halfWritten = loadIds.filter(
      (id) => (statusById.get(id) === InvoiceStatus.AVAILABLE) === withEvent.has(id),
    );
    check(
      halfWritten.length === 0,
      'no invoice half-written (status and audit row agree for all)',
      JSON.stringify(halfWritten),
    );
    check(
      (await statusOf(db, next.id)) === InvoiceStatus.PROCESS,
      'the journey continued on B: advance in the database',
    );

    console.log('\n9. graceful stop of B');
    await database.close();
    database = null;
    await b.stop();
    check(
      b.child.exitCode === 0,
      'B exits 0 on SIGTERM',
      `exit ${b.child.exitCode} ${b.child.signalCode ?? ''}`,
    );
    // Its last log lines may reach us through the pipe after the exit.
    const stopped = b;
    await waitFor('B logged its shutdown', async () => stopped.output().includes('"msg":"shut down"'));
    check(true, 'B closed its database and said so');
    console.log('\ntest:scale passed');
  } finally {
    if (database) await database.close().catch(() => undefined);
    for (const cleanup of cleanups.reverse())
      await cleanup().catch((error: unknown) => console.error(`cleanup: ${String(error)}`));
  }
}

run().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof CheckFailed ? error.message : error);
    process.exit(1);
  },
);
