// `npm run bench:api` (issue 16, "Fast at that size"): throughput and latency of Flujo's API under autocannon, on
// PGlite and on PostgreSQL, in one run:
//   1. builds the client (unless --no-build), since production serves it;
//   2. per database: starts a bare Fastify route in its own process (the machine's ceiling), then Flujo's server
//      as production runs it (node --import tsx server/main.ts, NODE_ENV=production, LOG_LEVEL=warn) on a
//      temporary DATA_DIR, and loads the scaled world once with `npm run ops -- demo:scale --invoices N`
//      (--invoices 0: the demo world only);
//   3. logs in over HTTP as proveedor.demo and corporativo.demo and measures each call with autocannon, in this
//      process (never inside the server): 20 connections, a short warm-up, then --duration seconds each;
//      On PostgreSQL it then measures a peer, the same first page from Django REST Framework + simplejwt under
//      gunicorn (bench/peer-drf/, issue 35), when python3 has those packages;
//   4. "health under list load": health and a route that does not touch the database, at a fixed low rate, alone
//      and while the provider's first page is loaded at full concurrency, with the server's event-loop delay and
//      CPU time read from inside it (scripts/bench-api-probe.ts). The embedded database runs on the server's
//      event loop; this is what decision 0040 is based on.
// Prints Markdown tables (pasteable into the README), the issue's targets with met / NOT met, and writes
// bench-results/api.json. It prints, never asserts. Any non-2xx answer is an error and is reported.
// PostgreSQL: BENCH_DATABASE_URL (a database the bench may fill), or else a throwaway cluster on a free port
// started like .ci/run does (initdb under /usr/lib/postgresql/*/bin, as the postgres user when run as root),
// removed at the end; skipped, with the reason printed, when neither is possible.
// Every process and directory it creates is removed on exit, on an error and on Ctrl-C.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon, { type Instance, type Result } from 'autocannon';
import { RARE_WORD } from '../server/seed/scale-world';
import { InvoiceStatus } from '../src/domain/invoice-status';
import { PAGE_SIZE } from '../src/domain/schemas/invoices';
import { DEMO_CORPORATE_USER, freePort, loginToken, ROOT } from '../test/support/real-server';
import type { ProbeReading } from './bench-api-probe';
import { summarize } from './cpu-profile-summary';
import { startThrowawayCluster, type ThrowawayCluster } from './pg-cluster';

const DEMO_PROVIDER_USER = 'proveedor.demo';
const DEEP_PAGE = 40;
const RESULTS_FILE = join(ROOT, 'bench-results', 'api.json');
// The probes of "health under list load" ask at a fixed rate, so their latencies are what one user would see
// (autocannon corrects them for coordinated omission) and they add little load of their own.
const PROBE_RATE = 50;
const SERVER_START_MS = 300_000;

const USAGE = `npm run bench:api -- [--invoices N] [--duration S] [--connections C] [--db pglite|postgresql|both]
                        [--no-build] [--warmup S] [--search TERM] [--providers P] [--corporates C]
                        [--pglite-yield] [--cpu-prof]`;

interface Options {
  invoices: number;
  providers: number | null;
  corporates: number | null;
  duration: number;
  warmup: number;
  connections: number;
  databases: DatabaseName[];
  build: boolean;
  search: string | null;
  /** PGlite with scripts/bench-api-pglite-yield.ts preloaded (decision 0040's candidate). */
  pgliteYield: boolean;
  /** Profile the server during one more run of the first page and print where its CPU went. */
  cpuProf: boolean;
}

type DatabaseName = 'PGlite' | 'PostgreSQL';

function positive(name: string, text: string | undefined, fallback: number, min = 1): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min)
    throw new Error(`--${name} must be an integer ≥ ${min}\n${USAGE}`);
  return value;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      invoices: { type: 'string' },
      providers: { type: 'string' },
      corporates: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      db: { type: 'string' },
      'no-build': { type: 'boolean' },
      search: { type: 'string' },
      'pglite-yield': { type: 'boolean' },
      'cpu-prof': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const db = values.db ?? 'both';
  const databases: Record<string, DatabaseName[]> = {
    pglite: ['PGlite'],
    postgresql: ['PostgreSQL'],
    both: ['PGlite', 'PostgreSQL'],
  };
  const chosen = databases[db];
  if (!chosen) throw new Error(`--db must be pglite, postgresql or both\n${USAGE}`);
  return {
    invoices: positive('invoices', values.invoices, 100_000, 0),
    providers: values.providers === undefined ? null : positive('providers', values.providers, 0),
    corporates: values.corporates === undefined ? null : positive('corporates', values.corporates, 0),
    duration: positive('duration', values.duration, 10),
    warmup: positive('warmup', values.warmup, 2, 0),
    connections: positive('connections', values.connections, 20),
    databases: chosen,
    build: !values['no-build'],
    search: values.search?.trim() || null,
    pgliteYield: values['pglite-yield'] ?? false,
    cpuProf: values['cpu-prof'] ?? false,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Everything this run starts, so that any way out (end, error, Ctrl-C) removes it.

const children = new Set<ChildProcess>();
/** Children started in their own process group (npm → tsx → node): killed as a group. */
const groups = new Set<ChildProcess>();
const directories = new Set<string>();
const clusterStops = new Set<() => void>();
const cannons = new Set<Instance>();

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

const stopCannons = () => {
  for (const cannon of cannons) cannon.stop?.();
};

/** Synchronous, so it also runs in the 'exit' handler; each step on its own so one failure skips nothing. */
function cleanUpNow(): void {
  stopCannons();
  for (const child of groups) {
    if (alive(child) && child.pid) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  for (const child of children) if (alive(child)) child.kill('SIGKILL');
  for (const stop of clusterStops) {
    try {
      stop();
    } catch (error) {
      console.error(`could not stop a PostgreSQL cluster: ${String(error)}`);
    }
  }
  clusterStops.clear();
  for (const dir of directories) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch (error) {
      console.error(`could not remove ${dir}: ${String(error)}`);
    }
  }
  directories.clear();
}

process.on('exit', cleanUpNow);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the servers and removing the temporary data…`);
    stopCannons();
    // SIGTERM first so each server closes its database; whatever is still running after 5 s is killed.
    for (const child of children) if (alive(child)) child.kill('SIGTERM');
    setTimeout(() => process.exit(130), 5_000).unref();
    Promise.all([...children].map((child) => (alive(child) ? exitOf(child) : null))).then(() =>
      process.exit(130),
    );
  });
}

function exitOf(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (!alive(child)) done();
    else child.once('exit', () => done());
  });
}

function temporaryDirectory(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  directories.add(dir);
  return dir;
}

function removeDirectory(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  directories.delete(dir);
}

// ---------------------------------------------------------------------------------------------------------------
// Processes under test.

interface Server {
  base: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

async function waitForOk(
  url: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!alive(child))
      throw new Error(`the process exited before ${url} answered:\n${output().slice(-4000)}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${output().slice(-4000)}`);
}

function startProcess(args: string[], env: NodeJS.ProcessEnv, ipc: boolean): Server & { said: string[] } {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env,
    // Without IPC, stdin is the lifeline: the bare route exits when it closes (scripts/bench-api-bare.ts).
    stdio: ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['pipe', 'pipe', 'pipe'],
  });
  children.add(child);
  const said: string[] = [];
  const keep = (chunk: Buffer) => {
    said.push(chunk.toString());
    // Only the tail matters (error messages); LOG_LEVEL=warn keeps it short anyway.
    if (said.length > 200) said.splice(0, said.length - 200);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = exitOf(child);
  return {
    base: '',
    child,
    said,
    output: () => said.join(''),
    async stop() {
      if (alive(child)) child.kill('SIGTERM');
      await exited;
      children.delete(child);
    },
  };
}

async function startBare(): Promise<Server> {
  const port = await freePort();
  const started = startProcess(
    ['--import', 'tsx', 'scripts/bench-api-bare.ts'],
    { ...process.env, PORT: String(port), NODE_ENV: 'production' },
    false,
  );
  const server = { ...started, base: `http://127.0.0.1:${port}` };
  await waitForOk(`${server.base}/`, server.child, server.output, 60_000);
  return server;
}

interface FlujoServer extends Server {
  env: NodeJS.ProcessEnv;
  /** The server's event-loop delay and CPU time since the previous call (scripts/bench-api-probe.ts). */
  probe(): Promise<ProbeReading>;
  /** Sends the probe a message and resolves with its answer. */
  ask(message: string): Promise<unknown>;
}

/** The environment of a production Flujo (server/config.ts: NODE_ENV=production wants both secrets set). */
function productionEnv(port: number, dataDir: string, databaseUrl: string | null): NodeJS.ProcessEnv {
  // Production trusts SAT's certificates alone (SAT_TRUST_DIR, required): the bench imports no CFDI, so none.
  const trustDir = join(dataDir, 'sat-trust');
  mkdirSync(trustDir, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    SAT_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    // One login per user and database serves the whole run; the default 5 minutes is shorter than a run.
    ACCESS_TOKEN_MINUTES: '60',
    SAT_TRUST_DIR: trustDir,
  };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  delete env.SAT_AUTO_APPROVE_SECONDS;
  return env;
}

async function startFlujo(
  dataDir: string,
  databaseUrl: string | null,
  preloads: readonly string[],
  extraEnv: Record<string, string> = {},
): Promise<FlujoServer> {
  const port = await freePort();
  const env = { ...productionEnv(port, dataDir, databaseUrl), ...extraEnv };
  const imports = ['bench-api-probe.ts', ...preloads].flatMap((file) => [
    '--import',
    pathToFileURL(join(ROOT, 'scripts', file)).href,
  ]);
  const started = startProcess(['--import', 'tsx', ...imports, 'server/main.ts'], env, true);
  const { child } = started;
  const server: FlujoServer = {
    ...started,
    base: `http://127.0.0.1:${port}`,
    env,
    ask: (message) =>
      new Promise((resolveAnswer, reject) => {
        const onMessage = (answer: unknown) => {
          child.off('exit', onExit);
          resolveAnswer(answer);
        };
        const onExit = () => {
          child.off('message', onMessage);
          reject(new Error(`the server exited before answering ${message}`));
        };
        child.once('message', onMessage);
        child.once('exit', onExit);
        child.send(message);
      }),
    probe: () => server.ask('probe:read') as Promise<ProbeReading>,
  };
  await waitForOk(`${server.base}/api/health/`, child, server.output, SERVER_START_MS);
  return server;
}

/**
 * The demo world (`ops demo:load`) and, with --invoices N, the scaled world (`ops demo:scale`) on the database,
 * before the production server starts: the demo's CFDI are sealed by the demo authority, which production
 * refuses to use (decision 0056), so the operator's commands run here as in development, and the production
 * server then finds the demo present. Returns demo:scale's seconds (0 without it).
 */
async function loadWorld(dataDir: string, databaseUrl: string | null, options: Options): Promise<number> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.NODE_ENV;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  await runOps(env, ['demo:load']);
  if (options.invoices === 0) return 0;
  const args = ['demo:scale', '--invoices', String(options.invoices)];
  if (options.providers !== null) args.push('--providers', String(options.providers));
  if (options.corporates !== null) args.push('--corporates', String(options.corporates));
  const started = performance.now();
  await runOps(env, args);
  return (performance.now() - started) / 1000;
}

async function runOps(env: NodeJS.ProcessEnv, command: string[]): Promise<void> {
  const args = ['run', '--silent', 'ops', '--', ...command];
  // Its own process group, so Ctrl-C or an error here stops npm, tsx and node together.
  const child = spawn('npm', args, { cwd: ROOT, env, stdio: 'inherit', detached: true });
  groups.add(child);
  const code = await new Promise<number | null>((done) => child.once('exit', (exitCode) => done(exitCode)));
  groups.delete(child);
  if (code !== 0) throw new Error(`npm run ops -- ${command.join(' ')} failed (exit code ${code}).`);
}

// ---------------------------------------------------------------------------------------------------------------
// PostgreSQL.

/** A throwaway cluster on a free port; stopped at exit and on Ctrl-C with the rest. */
async function startCluster(): Promise<ThrowawayCluster | string> {
  const cluster = startThrowawayCluster({
    port: await freePort(),
    database: 'flujo_bench',
    prefix: 'flujo-bench-api-pg-',
  });
  if (typeof cluster === 'string') return `${cluster} and BENCH_DATABASE_URL is unset`;
  const stop = () => {
    cluster.stop();
    clusterStops.delete(stop);
  };
  clusterStops.add(stop);
  return { url: cluster.url, stop };
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring.

interface Row {
  /** Stable name for the JSON and the targets: bare, health, first-page, deep-page, search, status, … */
  id: string;
  endpoint: string;
  path: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  /** Non-2xx answers plus connection errors and timeouts. */
  errors: number;
  errorDetail: string;
  /** List calls: the `count` of the first answer (the rows the filter matches). */
  note: string;
  /** peer: bench/peer-drf (issue 35), compared, never a target. */
  kind: 'ceiling' | 'health' | 'list' | 'search' | 'call' | 'peer';
}

function describeErrors(result: Result): { errors: number; detail: string } {
  const codes = Object.entries(result.statusCodeStats)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, { count }]) => `${count}× ${code}`);
  if (result.errors > 0) codes.push(`${result.errors} connection errors (${result.timeouts} timeouts)`);
  return { errors: result.non2xx + result.errors, detail: codes.join(', ') };
}

async function cannon(options: Parameters<typeof autocannon>[0]): Promise<Result> {
  const instance = autocannon(options);
  cannons.add(instance);
  try {
    return await instance;
  } finally {
    cannons.delete(instance);
  }
}

async function measure(
  options: Options,
  target: {
    id: string;
    endpoint: string;
    base: string;
    path: string;
    token?: string;
    note?: string;
    kind: Row['kind'];
  },
): Promise<Row> {
  process.stdout.write(`  ${target.endpoint} …`);
  const result = await cannon({
    url: `${target.base}${target.path}`,
    connections: options.connections,
    duration: options.duration,
    headers: target.token ? { authorization: `Bearer ${target.token}` } : {},
    warmup: options.warmup > 0 ? { connections: options.connections, duration: options.warmup } : undefined,
  });
  const { errors, detail } = describeErrors(result);
  const row: Row = {
    id: target.id,
    endpoint: target.endpoint,
    path: target.path,
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors,
    errorDetail: detail,
    note: target.note ?? '',
    kind: target.kind,
  };
  console.log(` ${Math.round(row.reqPerSec)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, errors ${errors}`);
  return row;
}

/**
 * --cpu-prof: the first page once more, with the server's V8 profiler on for exactly that run (started and
 * stopped by scripts/bench-api-probe.ts over IPC), so the table's own figures carry no profiling cost. Writes
 * bench-results/cpu-prof/<database>-first-page.cpuprofile and prints its flame summary.
 */
async function profileFirstPage(
  options: Options,
  server: FlujoServer,
  database: DatabaseName,
  firstPage: Parameters<typeof measure>[1],
): Promise<void> {
  const file = join(ROOT, 'bench-results', 'cpu-prof', `${database.toLowerCase()}-first-page.cpuprofile`);
  mkdirSync(join(ROOT, 'bench-results', 'cpu-prof'), { recursive: true });
  await server.ask('profile:start');
  const row = await measure(options, { ...firstPage, endpoint: `${firstPage.endpoint} (profiled)` });
  await server.ask(`profile:stop ${file}`);
  console.log(`\n${database}: ${Math.round(row.reqPerSec)} req/s while profiled; ${file}\n`);
  console.log(
    summarize(JSON.parse(readFileSync(file, 'utf8')), 20, [
      'requireUser',
      'readVersion',
      'findSessionUser',
      'findInvoiceListPage',
      'serialize',
      'writev',
    ]),
  );
}

async function getJson<T>(base: string, path: string, token: string): Promise<T> {
  const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET ${path}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
  return (await res.json()) as T;
}

interface ListPage {
  count: number;
  count_is_estimate?: boolean;
  results: Array<{
    id: number;
    description: string | null;
    status: number;
    serie_folio: string | null;
    fiscal_folio: string;
    receiver_rfc: string;
    receiver_name: string;
  }>;
}

/** The words of a page someone could search for: letters only, 5 characters or more, lower-cased. */
function wordsOf(page: ListPage): string[] {
  const text = page.results.map((row) => `${row.description ?? ''} ${row.receiver_name}`).join(' ');
  const words = text.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length >= 5 && /^\p{L}+$/u.test(word));
  return [...new Set(words.map((word) => word.toLowerCase()))];
}

/**
 * The issue's five kinds of search on the demo provider's list, found in its own data: the newest invoice's
 * folio, its customer's RFC, its UUID, the common word (`search`), and a rare word: the one `demo:scale` plants
 * (RARE_WORD), or without the scaled world the rarest word of the oldest page's descriptions and customer names
 * (the one with the fewest matches, at least one).
 */
async function searchesOf(
  base: string,
  token: string,
  first: ListPage,
  common: string,
): Promise<Array<{ id: string; kind: string; term: string; page: ListPage }>> {
  const newest = first.results[0];
  const lastPage = Math.max(1, Math.ceil(first.count / PAGE_SIZE));
  const oldest = await getJson<ListPage>(base, providerList({ page: lastPage }), token);
  // The scaled world plants RARE_WORD in about one invoice in 10,007; the demo world alone has no rare word, so
  // then the rarest word of the oldest page stands in.
  const planted = await getJson<ListPage>(base, providerList({ search: RARE_WORD }), token);
  let rare: { term: string; page: ListPage } | null =
    planted.count > 0 ? { term: RARE_WORD, page: planted } : null;
  for (const word of rare ? [] : wordsOf(oldest).filter((word) => word !== common)) {
    const page = await getJson<ListPage>(base, providerList({ search: word }), token);
    if (page.count > 0 && (!rare || page.count < rare.page.count)) rare = { term: word, page };
  }
  const terms: Array<{ id: string; kind: string; term: string | null | undefined }> = [
    { id: 'search-folio', kind: 'a folio', term: newest?.serie_folio },
    { id: 'search-rfc', kind: 'an RFC', term: newest?.receiver_rfc },
    { id: 'search-uuid', kind: 'a UUID', term: newest?.fiscal_folio },
    { id: 'search', kind: 'a common word', term: common },
  ];
  const found: Array<{ id: string; kind: string; term: string; page: ListPage }> = [];
  for (const { id, kind, term } of terms) {
    if (!term) continue;
    found.push({
      id,
      kind,
      term,
      page: await getJson<ListPage>(base, providerList({ search: term }), token),
    });
  }
  if (rare) found.push({ id: 'search-rare', kind: 'a rare word', ...rare });
  return found;
}

function listPath(list: string, params: Record<string, string | number>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) query.set(name, String(value));
  return `/api/${list}/?${query}`;
}

/** The provider list's query as the app sends it (src/services/providers.service.ts: invoiceListQuery). */
function providerList(params: { page?: number; search?: string; status?: number }): string {
  return listPath('providers/alliances', {
    page: params.page ?? 1,
    page_size: PAGE_SIZE,
    ...(params.search ? { search: params.search } : {}),
    status: params.status ?? InvoiceStatus.ALL,
  });
}

/** A word of the newest invoice's description: a search the world is sure to match, whatever generated it. */
function searchTermFrom(page: ListPage): string {
  const words = (page.results[0]?.description ?? '')
    .split(/[^\p{L}\p{N}]+/u)
    // A word someone would type: letters only (a folio number would match one invoice).
    .filter((word) => word.length >= 5 && /^\p{L}+$/u.test(word));
  return words.at(-1)?.toLowerCase() ?? 'servicio';
}

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

interface UnderLoadPhase {
  phase: string;
  listReqPerSec: number | null;
  health: { p50: number; p99: number; max: number; errors: number };
  noDatabase: { p50: number; p99: number; max: number; errors: number };
  loopDelay: ProbeReading['loopDelay'];
  serverCores: number;
  serverCpuMsPerListRequest: number | null;
  machineIdle: number;
}

/** Share of the machine's CPU time left idle between two /proc/stat readings (0-1); NaN where unreadable. */
function cpuTimes(): { idle: number; total: number } {
  try {
    const fields = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    // idle + iowait
    return { idle: (fields[3] ?? 0) + (fields[4] ?? 0), total: fields.reduce((sum, v) => sum + v, 0) };
  } catch {
    return { idle: Number.NaN, total: Number.NaN };
  }
}

/** Waits until health answers within 20 ms twice in a row, or 30 s have passed. */
async function settle(server: FlujoServer): Promise<void> {
  const deadline = Date.now() + 30_000;
  let quick = 0;
  while (quick < 2 && Date.now() < deadline) {
    const started = performance.now();
    await (await fetch(`${server.base}/api/health/`)).arrayBuffer();
    quick = performance.now() - started <= 20 ? quick + 1 : 0;
    await new Promise((done) => setTimeout(done, 500));
  }
}

async function underLoad(
  options: Options,
  server: FlujoServer,
  providerToken: string,
  withList: boolean,
): Promise<UnderLoadPhase> {
  // The previous measurement's last requests may still be queued in the server (with PGlite one connection
  // serves them in turn): let them drain, so the idle phase is idle.
  await settle(server);
  const probe = (path: string) =>
    cannon({
      url: `${server.base}${path}`,
      connections: 1,
      overallRate: PROBE_RATE,
      duration: options.duration,
    });
  await server.probe(); // starts the server's window here
  const before = cpuTimes();
  const [health, noDatabase, list] = await Promise.all([
    probe('/api/health/'),
    // Answers from memory (the CAPTCHA's configuration): what any request waits for when the loop is busy.
    probe('/api/accounts/captcha/config/'),
    withList
      ? cannon({
          url: `${server.base}${providerList({})}`,
          connections: options.connections,
          duration: options.duration,
          headers: { authorization: `Bearer ${providerToken}` },
        })
      : Promise.resolve(null),
  ]);
  const reading = await server.probe();
  const after = cpuTimes();
  const summary = (result: Result) => ({
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: describeErrors(result).errors,
  });
  const listRequests = list ? list.requests.total : 0;
  return {
    phase: withList ? `provider list page 1 at ${options.connections} connections` : 'idle (probes only)',
    listReqPerSec: list ? list.requests.average : null,
    health: summary(health),
    noDatabase: summary(noDatabase),
    loopDelay: reading.loopDelay,
    serverCores: reading.cpuMs / reading.wallMs,
    serverCpuMsPerListRequest: list && listRequests > 0 ? reading.cpuMs / listRequests : null,
    machineIdle: (after.idle - before.idle) / (after.total - before.total),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The peer (issue 35, decision 0073): the same first page served by Django REST Framework + simplejwt under
// gunicorn (bench/peer-drf/), on the same PostgreSQL database, measured with the same load. Bench only.

const PEER_DIR = join(ROOT, 'bench', 'peer-drf');
const PEER_MODULES = ['django', 'rest_framework', 'rest_framework_simplejwt', 'psycopg2', 'gunicorn'];

/** The first python3 that imports the peer's packages: Debian's (/usr/bin) may not be the first on PATH. */
function peerPython(): string | null {
  for (const python of ['python3', '/usr/bin/python3']) {
    try {
      execFileSync(python, ['-c', `import ${PEER_MODULES.join(', ')}`], { stdio: 'ignore' });
      return python;
    } catch {
      // not installed here, or without the packages
    }
  }
  return null;
}

/**
 * CPU milliseconds used so far by the live processes of a process group (gunicorn's master and workers), from
 * /proc; NaN where /proc cannot be read. Workers never exit during a run, so differences are the group's use.
 */
function groupCpuMs(group: number): number {
  try {
    const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
    const pids = execFileSync('pgrep', ['-g', String(group)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    let ticks = 0;
    for (const pid of pids) {
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue; // exited meanwhile
      }
      // After the command's ")": state, ppid, pgrp, … utime (12th), stime (13th).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return (ticks * 1000) / ticksPerSecond;
  } catch {
    return Number.NaN;
  }
}

/**
 * Starts the peer on a free port against `databaseUrl`, checks that its first page has Flujo's count and ids
 * (a mismatch is printed, the bench goes on), measures it like Flujo's first page and stops it. null, with the
 * reason printed, when the packages are missing or the peer fails.
 */
async function measurePeer(options: Options, databaseUrl: string, flujoFirst: ListPage): Promise<Row | null> {
  const python = peerPython();
  if (!python) {
    console.log(
      `PostgreSQL: peer skipped: no python3 here imports ${PEER_MODULES.join(', ')} (bench/peer-drf/README.md)`,
    );
    return null;
  }
  // As bench/peer-drf/gunicorn.conf.py says: one gthread worker per core, 2 × cores threads each.
  const workers = cpus().length;
  const threads = 2 * cpus().length;
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    SECRET_KEY: randomBytes(48).toString('base64url'),
    ACCESS_TOKEN_MINUTES: '60',
    PYTHONDONTWRITEBYTECODE: '1',
  };
  delete env.DEBUG;
  const said: string[] = [];
  let child: ChildProcess | null = null;
  try {
    const token = execFileSync(python, ['manage.py', 'access_token', DEMO_PROVIDER_USER], {
      cwd: PEER_DIR,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    }).trim();
    const args = ['-m', 'gunicorn', '--config', 'gunicorn.conf.py', '--bind', `127.0.0.1:${port}`];
    // Its own process group (master and workers), killed as one at exit like demo:scale's.
    child = spawn(python, [...args, '--workers', String(workers), '--threads', String(threads)], {
      cwd: PEER_DIR,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    groups.add(child);
    child.stdout?.on('data', (chunk: Buffer) => said.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => said.push(chunk.toString()));
    const base = `http://127.0.0.1:${port}`;
    const path = providerList({});
    const deadline = Date.now() + 60_000;
    let page: ListPage | null = null;
    while (!page) {
      if (!alive(child)) throw new Error(`gunicorn exited:\n${said.join('').slice(-2000)}`);
      if (Date.now() > deadline) throw new Error(`no answer within 60 s:\n${said.join('').slice(-2000)}`);
      page = await getJson<ListPage>(base, path, token).catch(() => null);
      if (!page) await new Promise((done) => setTimeout(done, 250));
    }
    const ids = (list: ListPage) => list.results.map((invoice) => invoice.id).join(',');
    const same = page.count === flujoFirst.count && ids(page) === ids(flujoFirst);
    if (!same) {
      console.log(
        `\n!!! PEER MISMATCH: the peer's first page is not Flujo's (count ${page.count} vs ${flujoFirst.count}; ` +
          `ids ${ids(page)} vs ${ids(flujoFirst)}). Its row is still measured.\n`,
      );
    }
    // Its CPU per request, comparable with Flujo's "server CPU ms per list request" below and less sensitive to a
    // busy machine than req/s: the group's CPU over warm-up and measurement, both at full load, per request.
    const cpuBefore = child.pid ? groupCpuMs(child.pid) : Number.NaN;
    const wallBefore = performance.now();
    const row = await measure(options, {
      id: 'peer-first-page',
      endpoint: `peer: Django REST Framework + simplejwt (gunicorn ${workers} workers × ${threads} threads), provider list page 1`,
      base,
      path,
      token,
      note: same
        ? `${plural(page.count, 'invoice', 'invoices')}, same ids as Flujo's page 1`
        : "**MISMATCH with Flujo's page 1**",
      kind: 'peer',
    });
    const cores =
      ((child.pid ? groupCpuMs(child.pid) : Number.NaN) - cpuBefore) / (performance.now() - wallBefore);
    if (Number.isFinite(cores) && row.reqPerSec > 0) {
      row.note += `; gunicorn CPU ${fixed((cores * 1000) / row.reqPerSec, 2)} ms per request`;
    }
    return row;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    console.log(`PostgreSQL: peer skipped: it failed: ${detail.slice(0, 2000)}`);
    return null;
  } finally {
    if (child) {
      const running = child;
      const signalGroup = (signal: NodeJS.Signals) => {
        if (!running.pid || !alive(running)) return;
        try {
          process.kill(-running.pid, signal);
        } catch {
          // already gone
        }
      };
      signalGroup('SIGTERM');
      // gunicorn's graceful stop; whatever is left after 10 s is killed with its group.
      const stuck = setTimeout(() => signalGroup('SIGKILL'), 10_000);
      await exitOf(running);
      clearTimeout(stuck);
      groups.delete(child);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// One database.

interface Target {
  target: string;
  measured: string;
  /** null: the world is too small to measure it. */
  met: boolean | null;
}

interface DatabaseReport {
  database: DatabaseName;
  /** How this run's server differs from Flujo's own (--pglite-yield). */
  variant?: string;
  skipped?: string;
  scaleSeconds?: number;
  providerInvoices?: number;
  rows: Row[];
  underLoad: UnderLoadPhase[];
  targets: Target[];
}

/** The browsed lists measured a second time with no answer kept (LIST_ANSWERS_KEPT=0). */
const MADE_AGAIN = ['first-page', 'deep-page', 'status', 'corporate-summary'];

async function benchDatabase(
  database: DatabaseName,
  databaseUrl: string | null,
  options: Options,
): Promise<DatabaseReport> {
  const dataDir = temporaryDirectory('flujo-bench-api-');
  const report: DatabaseReport = { database, rows: [], underLoad: [], targets: [] };
  let bare: Server | null = null;
  let server: FlujoServer | null = null;
  try {
    const yielding = database === 'PGlite' && options.pgliteYield;
    if (yielding) report.variant = 'each query after one event-loop turn (--pglite-yield)';
    console.log(`\n${database}: npm run ops -- demo:load, demo:scale --invoices ${options.invoices}…`);
    report.scaleSeconds = await loadWorld(dataDir, databaseUrl, options);
    if (options.invoices > 0) {
      console.log(`${database}: scaled world loaded in ${report.scaleSeconds.toFixed(1)} s`);
    }
    console.log(`${database}: starting Flujo (production, LOG_LEVEL=warn)…`);
    server = await startFlujo(dataDir, databaseUrl, yielding ? ['bench-api-pglite-yield.ts'] : []);
    const provider = await loginToken(server.base, DEMO_PROVIDER_USER);
    const corporate = await loginToken(server.base, DEMO_CORPORATE_USER);

    // What to ask for, found the way the app finds it.
    const first = await getJson<ListPage>(server.base, providerList({}), provider);
    report.providerInvoices = first.count;
    const lastPage = Math.max(1, Math.ceil(first.count / PAGE_SIZE));
    const deepPage = Math.min(DEEP_PAGE, lastPage);
    const search = options.search ?? searchTermFrom(first);
    const searches = await searchesOf(server.base, provider, first, search);
    const base = server.base;
    const filtered = await getJson<ListPage>(
      server.base,
      providerList({ status: InvoiceStatus.AVAILABLE }),
      provider,
    );
    const approved = await getJson<ListPage>(
      server.base,
      providerList({ status: InvoiceStatus.APPROVED }),
      provider,
    );
    const summary = await getJson<ListPage>(
      server.base,
      listPath('corporates/summary', { page: 1, page_size: PAGE_SIZE, status: InvoiceStatus.ALL }),
      corporate,
    );
    const preAuthorization = await getJson<ListPage>(
      server.base,
      listPath('corporates/pre-authorization', { page: 1, page_size: PAGE_SIZE }),
      corporate,
    );
    // The quote needs an Autorizada invoice whose payment date is still ahead: the first that quotes.
    let quoted: number | null = null;
    for (const invoice of approved.results) {
      const res = await fetch(`${server.base}/api/providers/forward-payment/${invoice.id}/`, {
        headers: { authorization: `Bearer ${provider}` },
      });
      await res.arrayBuffer();
      if (res.ok) {
        quoted = invoice.id;
        break;
      }
    }
    const trailOf = quoted ?? first.results[0]?.id ?? null;
    const matches = (page: ListPage) => plural(page.count, 'match', 'matches');
    console.log(
      `${database}: the demo provider has ${plural(first.count, 'invoice', 'invoices')} (${lastPage} pages); measuring…`,
    );

    bare = await startBare();
    report.rows.push(
      await measure(options, {
        id: 'bare',
        endpoint: 'bare Fastify route (ceiling)',
        base: bare.base,
        path: '/',
        kind: 'ceiling',
      }),
    );
    await bare.stop();
    bare = null;
    const calls: Array<Parameters<typeof measure>[1]> = [
      { id: 'health', endpoint: 'health', base: server.base, path: '/api/health/', kind: 'health' },
      {
        id: 'first-page',
        endpoint: 'provider list, page 1',
        path: providerList({}),
        token: provider,
        note: plural(first.count, 'invoice', 'invoices'),
        kind: 'list',
        base: server.base,
      },
      {
        id: 'deep-page',
        endpoint:
          deepPage === DEEP_PAGE
            ? `provider list, page ${DEEP_PAGE}`
            : `provider list, page ${deepPage} (the last; ${DEEP_PAGE} is past the end)`,
        path: providerList({ page: deepPage }),
        token: provider,
        kind: 'list',
        base: server.base,
      },
      ...searches.map((found) => ({
        id: found.id,
        endpoint: `provider list, search ${found.kind} "${found.term}"`,
        path: providerList({ search: found.term }),
        token: provider,
        note: found.page.count_is_estimate
          ? `more than ${plural(found.page.count, 'match', 'matches')} (count_is_estimate)`
          : matches(found.page),
        kind: 'search' as const,
        base,
      })),
      {
        id: 'status',
        endpoint: 'provider list, status Por Autorizar',
        path: providerList({ status: InvoiceStatus.AVAILABLE }),
        token: provider,
        note: matches(filtered),
        kind: 'list',
        base: server.base,
      },
      {
        id: 'corporate-summary',
        endpoint: 'corporate summary, page 1',
        path: listPath('corporates/summary', { page: 1, page_size: PAGE_SIZE, status: InvoiceStatus.ALL }),
        token: corporate,
        note: plural(summary.count, 'invoice', 'invoices'),
        kind: 'list',
        base: server.base,
      },
      {
        id: 'pre-authorization',
        endpoint: 'corporate pre-authorization, page 1',
        path: listPath('corporates/pre-authorization', { page: 1, page_size: PAGE_SIZE }),
        token: corporate,
        note: plural(preAuthorization.count, 'invoice', 'invoices'),
        kind: 'list',
        base: server.base,
      },
    ];
    if (trailOf !== null) {
      calls.push({
        id: 'audit-trail',
        endpoint: 'audit trail of an invoice',
        path: `/api/invoices/${trailOf}/events/`,
        token: provider,
        kind: 'call',
        base: server.base,
      });
    }
    if (quoted !== null) {
      calls.push({
        id: 'quote',
        endpoint: 'forward-payment quote',
        path: `/api/providers/forward-payment/${quoted}/`,
        token: provider,
        kind: 'call',
        base: server.base,
      });
    } else {
      console.log(
        `${database}: no Autorizada invoice with a payment date ahead on the first page: no quote row`,
      );
    }
    for (const call of calls) report.rows.push(await measure(options, call));
    if (database === 'PostgreSQL' && databaseUrl) {
      const peer = await measurePeer(options, databaseUrl, first);
      if (peer) report.rows.push(peer);
    }
    if (options.cpuProf) await profileFirstPage(options, server, database, calls[1]!);

    console.log(
      `${database}: health under list load (${options.duration} s idle, ${options.duration} s loaded)…`,
    );
    report.underLoad.push(await underLoad(options, server, provider, false));
    report.underLoad.push(await underLoad(options, server, provider, true));

    // The same lists with no answer kept (decision 0077): what each costs when it must be made, as after a change.
    await server.stop();
    server = null;
    console.log(`${database}: starting Flujo again with LIST_ANSWERS_KEPT=0 (every answer made)…`);
    server = await startFlujo(dataDir, databaseUrl, yielding ? ['bench-api-pglite-yield.ts'] : [], {
      LIST_ANSWERS_KEPT: '0',
    });
    const made = {
      provider: await loginToken(server.base, DEMO_PROVIDER_USER),
      corporate: await loginToken(server.base, DEMO_CORPORATE_USER),
    };
    for (const call of calls.filter((c) => MADE_AGAIN.includes(c.id))) {
      report.rows.push(
        await measure(options, {
          ...call,
          id: `${call.id}-made`,
          endpoint: `${call.endpoint}, each answer made`,
          base: server.base,
          token: call.token === corporate ? made.corporate : made.provider,
        }),
      );
    }
    report.targets = targetsOf(database, report.rows);
  } finally {
    await bare?.stop();
    await server?.stop();
    removeDirectory(dataDir);
  }
  return report;
}

// ---------------------------------------------------------------------------------------------------------------
// Targets (issue 16, at 100,000 invoices for the supplier measured) and output.

function targetsOf(database: DatabaseName, rows: Row[]): Target[] {
  const byId = (id: string) => rows.find((row) => row.id === id);
  const health = byId('health');
  const firstPage = byId('first-page');
  const deepPage = byId('deep-page');
  const targets: Target[] = [];
  if (!health || !firstPage) return targets;
  const ratio = firstPage.reqPerSec / health.reqPerSec;
  if (database === 'PostgreSQL') {
    for (const row of rows.filter((r) => r.kind === 'list')) {
      targets.push({ target: `${row.endpoint}: p99 ≤ 50 ms`, measured: `${row.p99} ms`, met: row.p99 <= 50 });
    }
    targets.push({
      target: 'provider list page 1 ≥ 0.3× health (req/s)',
      measured: `${ratio.toFixed(2)}×`,
      met: ratio >= 0.3,
    });
    targets.push(...madeComparison(rows, health));
    const pageOf = (row: Row) => new URLSearchParams(row.path.split('?')[1]).get('page');
    if (deepPage && pageOf(deepPage) !== String(DEEP_PAGE)) {
      targets.push({
        target: `provider list page ${DEEP_PAGE} as fast as page 1`,
        measured: `not measured: fewer than ${DEEP_PAGE} pages`,
        met: null,
      });
    } else if (deepPage) {
      const slower = deepPage.p50 / Math.max(firstPage.p50, 1);
      targets.push({
        target: `${deepPage.endpoint} as fast as page 1 (p50 within 1.2×)`,
        measured: `${slower.toFixed(2)}× (p50 ${deepPage.p50} vs ${firstPage.p50} ms)`,
        met: slower <= 1.2,
      });
    }
    for (const row of rows.filter((r) => r.kind === 'search')) {
      targets.push({
        target: `${row.endpoint}: p99 ≤ 100 ms`,
        measured: `${row.p99} ms`,
        met: row.p99 <= 100,
      });
    }
  } else {
    targets.push({
      target: 'provider list page 1 ≥ 0.2× health (req/s)',
      measured: `${ratio.toFixed(2)}×`,
      met: ratio >= 0.2,
    });
    targets.push(...madeComparison(rows, health));
  }
  return targets;
}

/** For comparison, not a target: the first page when its answer must be made (no answer kept). */
function madeComparison(rows: Row[], health: Row): Target[] {
  const made = rows.find((row) => row.id === 'first-page-made');
  if (!made) return [];
  return [
    {
      target: 'for comparison: provider list page 1, each answer made (LIST_ANSWERS_KEPT=0), × health',
      measured: `${(made.reqPerSec / health.reqPerSec).toFixed(2)}×`,
      met: null,
    },
  ];
}

const fixed = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function endpointTable(report: DatabaseReport): string {
  const health = report.rows.find((row) => row.kind === 'health');
  const bare = report.rows.find((row) => row.kind === 'ceiling');
  const lines = [
    '| endpoint | req/s | p50 ms | p99 ms | errors | × health | × bare route | note |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const row of report.rows) {
    const ratio = (base: Row | undefined) => (base ? fixed(row.reqPerSec / base.reqPerSec, 2) : '–');
    const errors = row.errors === 0 ? '0' : `**${fixed(row.errors)}** (${row.errorDetail})`;
    lines.push(
      `| ${row.endpoint} | ${fixed(row.reqPerSec)} | ${row.p50} | ${row.p99} | ${errors} | ${ratio(health)} | ${ratio(bare)} | ${row.note} |`,
    );
  }
  return lines.join('\n');
}

function underLoadTable(reports: DatabaseReport[]): string {
  const lines = [
    `| database | phase | list req/s | health p50 / p99 / max ms | no-DB route p50 / p99 / max ms | event-loop delay p50 / p99 / max ms | server CPU (cores) | server CPU ms per list request | machine idle |`,
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const report of reports) {
    for (const phase of report.underLoad) {
      const triple = (p: { p50: number; p99: number; max: number; errors?: number }) =>
        `${fixed(p.p50, 1)} / ${fixed(p.p99, 1)} / ${fixed(p.max, 1)}${p.errors ? ` (**${p.errors} errors**)` : ''}`;
      lines.push(
        `| ${report.database}${report.variant ? ' (yield)' : ''} | ${phase.phase} | ${phase.listReqPerSec === null ? '–' : fixed(phase.listReqPerSec)} | ${triple(phase.health)} | ${triple(phase.noDatabase)} | ${triple(phase.loopDelay)} | ${fixed(phase.serverCores, 2)} | ${phase.serverCpuMsPerListRequest === null ? '–' : fixed(phase.serverCpuMsPerListRequest, 2)} | ${Number.isNaN(phase.machineIdle) ? '–' : `${fixed(phase.machineIdle * 100)} %`} |`,
      );
    }
  }
  return lines.join('\n');
}

function targetTable(report: DatabaseReport): string {
  const lines = ['| target | measured | |', '| --- | --- | --- |'];
  for (const target of report.targets) {
    lines.push(
      `| ${target.target} | ${target.measured} | ${target.met === null ? '–' : target.met ? 'met' : '**NOT met**'} |`,
    );
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options.build) {
    console.log('npm run build…');
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  } else if (!existsSync(join(ROOT, 'dist', 'index.html'))) {
    console.log('--no-build and no dist/: the server runs without the SPA (the API is what is measured)');
  }

  const reports: DatabaseReport[] = [];
  for (const database of options.databases) {
    if (database === 'PGlite') {
      reports.push(await benchDatabase('PGlite', null, options));
      continue;
    }
    const given = process.env.BENCH_DATABASE_URL?.trim() || null;
    const cluster = given ? null : await startCluster();
    if (typeof cluster === 'string') {
      console.log(`\nPostgreSQL skipped: ${cluster}`);
      reports.push({ database, skipped: cluster, rows: [], underLoad: [], targets: [] });
      continue;
    }
    try {
      reports.push(await benchDatabase('PostgreSQL', given ?? cluster?.url ?? null, options));
    } finally {
      cluster?.stop();
    }
  }

  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}`;
  const header =
    `${new Date().toISOString()} · ${machine} · load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} · node ${process.version} · ` +
    `--invoices ${options.invoices} · ${options.connections} connections · ${options.duration} s per call after a ${options.warmup} s warm-up`;
  console.log(`\n${header}`);
  for (const report of reports) {
    if (report.skipped) {
      console.log(`\n#### ${report.database}: skipped (${report.skipped})`);
      continue;
    }
    const scale =
      report.scaleSeconds === undefined
        ? 'demo world only'
        : `demo:scale took ${report.scaleSeconds.toFixed(1)} s`;
    console.log(
      `\n#### ${report.database}${report.variant ? `, ${report.variant}` : ''} (the demo provider has ${plural(report.providerInvoices ?? 0, 'invoice', 'invoices')}; ${scale})\n`,
    );
    console.log(endpointTable(report));
    console.log(`\nTargets of issue 16 (set for 100,000 invoices):\n\n${targetTable(report)}`);
  }
  const measured = reports.filter((report) => !report.skipped);
  if (measured.length > 0) {
    console.log(
      `\n#### Health under list load\n\nProbes at ${PROBE_RATE} req/s each (1 connection, latencies corrected for coordinated omission) for ${options.duration} s, alone and while autocannon loads the provider list's first page; event-loop delay and CPU measured inside the server (perf_hooks.monitorEventLoopDelay, process.cpuUsage).\n`,
    );
    console.log(underLoadTable(measured));
  }
  const errors = measured.flatMap((report) => report.rows.filter((row) => row.errors > 0));
  if (errors.length > 0) {
    console.log(`\nNon-2xx answers or connection errors: ${errors.map((row) => row.endpoint).join('; ')}`);
  }

  mkdirSync(join(ROOT, 'bench-results'), { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify({ header, options, reports }, null, 2)}\n`);
  console.log(`\nResults written to ${RESULTS_FILE.slice(ROOT.length + 1)}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
