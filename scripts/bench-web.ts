// `npm run bench:web`: Lighthouse (mobile preset) on the public pages, the login page, the provider's
// dashboard, the corporate's summary and the back office's desk, served by the real server from the production build. Prints, per page, the median of the runs (5 unless --runs=)
// for each category and the gzip size of the JavaScript and CSS the page loads. Runs one Lighthouse at a time
// (docs/variability.md: never in parallel).
//   npm run bench:web                 build, then measure DEFAULT_PAGES
//   npm run bench:web -- --no-build   measure the current dist/
//   npm run bench:web -- /contacto/   other pages
//   npm run bench:web -- --runs=1     a quick look (the table's numbers are medians of 5)
//   npm run bench:web -- --keep       keep the Lighthouse JSON reports and traces (their directory is printed)
// Pages under /dashboard/ are measured signed in as the demo provider, the corporate dashboard's pages as the
// demo corporate, the back office's pages as the demo operator (accountFor); the table says who for each page.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { base32Decode, TOTP_WINDOW_STEPS, totpCode, totpStep } from '../server/modules/auth/totp';
import { DEMO_OPERATORS } from '../server/seed/demo-operators';
import { DEMO_PASSWORD } from '../server/seed/demo-world';
import { paths } from '../src/domain/paths';
import { freePort } from '../test/support/real-server';
import { CHROMIUM_ARGS } from './chromium';

const ROOT = resolve(import.meta.dirname, '..');
const DEFAULT_RUNS = 5;
const DEFAULT_PAGES = [
  '/inicio/',
  '/calculadora/',
  '/auth/ingresar/',
  paths.prontoPago,
  // Issue 15: the section with the chart library (its charts load only when the Indicadores tab draws).
  paths.knowYourCompany,
  // Issue 33: the corporate's summary ('Cuentas por Pagar') and the back office's desk.
  paths.invoiceSummary,
  paths.operatorDesk,
];

/** A seeded user (server/seed/demo-world.ts, demo-operators.ts) and how it signs in, in the browser Lighthouse drives. */
interface Account {
  username: string;
  signIn: (page: Page, base: string) => Promise<void>;
}

const WAIT = 60_000;

/** The customer's login form; `then` runs once the dashboard is shown. */
function customer(username: string, then?: (page: Page) => Promise<void>): Account {
  return {
    username,
    signIn: async (page, base) => {
      await page.goto(`${base}${paths.login}`);
      await page.getByLabel('Usuario').fill(username);
      await page.getByLabel('Contraseña').fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: 'Ingresar' }).click();
      await page.waitForURL(/\/dashboard\//, { timeout: WAIT });
      await then?.(page);
    },
  };
}

const PROVIDER = customer('proveedor.demo');
/** The demo corporate may land on either view; the role switch puts it in its payables view (spec §1). */
const CORPORATE = customer('corporativo.demo', async (page) => {
  const summary = `**${paths.invoiceSummary}`;
  if (new URL(page.url()).pathname === paths.invoiceSummary) return;
  await page.getByRole('button', { name: 'Cuentas por Pagar' }).click();
  await page.waitForURL(summary, { timeout: WAIT });
});

const DEMO_OPERATOR = DEMO_OPERATORS[0]!;
/** The last TOTP step the bench signed in with: the server takes a step once (RFC 6238 §5.2). */
let lastOperatorStep = -1;

/** A step the server has not seen yet and still accepts, waiting for the clock when every such step is used. */
async function freshOperatorStep(): Promise<number> {
  for (;;) {
    const now = totpStep(new Date());
    const step = Math.max(now, lastOperatorStep + 1);
    if (step <= now + TOTP_WINDOW_STEPS) {
      lastOperatorStep = step;
      return step;
    }
    await new Promise((done) => setTimeout(done, 1_000));
  }
}

/** The back office's two-step sign-in, as scripts/screenshots.ts does it: password, then the code of the moment. */
const OPERATOR: Account = {
  username: DEMO_OPERATOR.username,
  signIn: async (page, base) => {
    await page.goto(`${base}${paths.operatorLogin}`);
    await page.getByLabel('Usuario', { exact: true }).fill(DEMO_OPERATOR.username);
    await page.getByLabel('Contraseña', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByLabel('Contraseña', { exact: true }).press('Enter');
    const code = page.getByLabel('Código de verificación', { exact: true });
    await code.waitFor({ timeout: WAIT });
    const step = await freshOperatorStep();
    await code.fill(totpCode(base32Decode(DEMO_OPERATOR.secret), new Date(step * 30_000)));
    await code.press('Enter');
    await page.waitForURL(`**${paths.operatorDesk}`, { timeout: WAIT });
  },
};

const CORPORATE_PAGES: readonly string[] = [
  paths.invoiceSummary,
  paths.preAuthorization,
  paths.requests,
  paths.quotation,
];

/** Who a page is measured as: nobody for the public pages and the two login pages. */
function accountFor(path: string): Account | null {
  if (path.startsWith('/operacion/')) return path === paths.operatorLogin ? null : OPERATOR;
  if (CORPORATE_PAGES.includes(path)) return CORPORATE;
  if (path.startsWith(paths.dashboard)) return PROVIDER;
  return null;
}
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const METRICS = {
  'first-contentful-paint': 'FCP',
  'largest-contentful-paint': 'LCP',
  'total-blocking-time': 'TBT',
  'cumulative-layout-shift': 'CLS',
  'speed-index': 'SI',
} as const;
// The flags the research measured with (shared/research/verified-stack.md), then those of the Lighthouse
// CLI's own launcher (chrome-launcher's defaults) that bear on timing or noise: this script launches Chromium
// itself, so that a signed-in page can be logged into in the same browser before Lighthouse attaches.
const CHROME_FLAGS = [
  '--headless',
  ...CHROMIUM_ARGS,
  '--disable-extensions',
  '--disable-default-apps',
  '--disable-backgrounding-occluded-windows',
  '--disable-renderer-backgrounding',
  '--disable-background-timer-throttling',
  '--disable-ipc-flooding-protection',
  '--disable-features=Translate,OptimizationHints,MediaRouter,InterestFeedContentSuggestions,RenderDocument',
  '--no-default-browser-check',
  '--password-store=basic',
  '--mute-audio',
];
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const KEEP = process.argv.includes('--keep');

interface LighthouseReport {
  categories: Record<string, { score: number | null }>;
  audits: Record<
    string,
    {
      numericValue?: number;
      displayValue?: string;
      details?: {
        items?: Array<{ url?: string; resourceType?: string; mimeType?: string; transferSize?: number }>;
      };
    }
  >;
  environment: { benchmarkIndex: number };
}

/** Still running: neither exited with a code nor ended by a signal. */
const running = (server: ChildProcess) => server.exitCode === null && server.signalCode === null;

async function waitForHealth(base: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 300_000; // seeding the demo data is slow on a busy machine
  while (Date.now() < deadline) {
    if (!running(server)) {
      throw new Error(
        `the server exited before answering /api/health/ (${server.signalCode ?? `code ${server.exitCode}`})`,
      );
    }
    try {
      if ((await fetch(`${base}/api/health/`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 500));
  }
  throw new Error('the server did not answer /api/health/ within 5 minutes');
}

/** NOTE: Lighthouse now and then fails to record a trace (NO_NAVSTART); such a run is retried. */
const ATTEMPTS = 3;

async function lighthouse(url: string, output: string): Promise<LighthouseReport> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouseOnce(url, output);
    } catch (error) {
      if (attempt >= ATTEMPTS) throw error;
      console.warn(`Lighthouse failed on ${url} (attempt ${attempt}); trying again.`);
    }
  }
}

/** A fresh Chromium with its own profile, and the port its DevTools protocol listens on. */
async function launchChromium(): Promise<{ port: number; stop: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'flujo-chromium-'));
  const browser = spawn(
    CHROME_PATH,
    [...CHROME_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<void>((done) => browser.once('exit', () => done()));
  const stop = async () => {
    if (running(browser)) browser.kill('SIGTERM');
    await exited;
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    const port = await new Promise<number>((found, fail) => {
      let said = '';
      const timer = setTimeout(
        () => fail(new Error(`Chromium did not open its DevTools port: ${said}`)),
        60_000,
      );
      browser.stderr!.on('data', (chunk: Buffer) => {
        said += chunk.toString();
        const match = said.match(/DevTools listening on ws:\/\/[^:]+:(\d+)\//);
        if (match) {
          clearTimeout(timer);
          found(Number(match[1]));
        }
      });
      browser.once('exit', () => fail(new Error(`Chromium exited before listening: ${said}`)));
    });
    return { port, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Signs in through the login form in the browser Lighthouse will drive, so the SPA itself writes its
 * session to local storage. Lighthouse keeps local storage (its default `clearStorageTypes` leaves it) and
 * still empties the HTTP cache, so the measured load is a signed-in visitor's first.
 */
async function signIn(port: number, base: string, account: Account): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const page = await browser.contexts()[0]!.newPage();
    await account.signIn(page, base);
    await page.close();
  } finally {
    // Connected over CDP, close() only disconnects: the browser is left to Lighthouse.
    await browser.close();
  }
}

async function lighthouseOnce(url: string, output: string): Promise<LighthouseReport> {
  const browser = await launchChromium();
  try {
    const account = accountFor(new URL(url).pathname);
    if (account) await signIn(browser.port, new URL(url).origin, account);
    execFileSync(
      join(ROOT, 'node_modules/.bin/lighthouse'),
      [
        url,
        `--port=${browser.port}`,
        `--only-categories=${CATEGORIES.join(',')}`,
        '--output=json',
        `--output-path=${output}`,
        '--quiet',
        // --keep also keeps each run's trace beside its report (<report>-0.trace.json), to see what blocked.
        ...(KEEP ? ['--save-assets'] : []),
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
  } finally {
    await browser.stop();
  }
  return JSON.parse(readFileSync(output, 'utf8')) as LighthouseReport;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const gzipSize = (bytes: Buffer | string) => gzipSync(bytes, { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * The page's JavaScript as Lighthouse saw it requested, and its CSS (inlined in a prerendered page's HTML,
 * a stylesheet in the SPA's). A path with no prerendered page gets the SPA's index.html.
 */
function initialAssets(path: string, report: LighthouseReport) {
  const dist = join(ROOT, 'dist');
  const prerendered = join(dist, path, 'index.html');
  const requests = report.audits['network-requests']?.details?.items ?? [];
  const scripts = requests
    .filter((request) => request.resourceType === 'Script' && request.url?.includes('/assets/'))
    .map((request) => new URL(request.url!).pathname);
  const js = scripts.reduce((sum, script) => sum + gzipSize(readFileSync(join(dist, script))), 0);
  // What went over the wire for them (the server's own compression, headers included).
  const jsTransferred = requests
    .filter((request) => request.resourceType === 'Script')
    .reduce((sum, request) => sum + (request.transferSize ?? 0), 0);
  const html = readFileSync(existsSync(prerendered) ? prerendered : join(dist, 'index.html'), 'utf8');
  const inlineCss = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1]).join('');
  const stylesheets = requests
    .filter((request) => request.resourceType === 'Stylesheet' && request.url?.includes('/assets/'))
    .map((request) => readFileSync(join(dist, new URL(request.url!).pathname)));
  const css = gzipSize(inlineCss) + stylesheets.reduce((sum, sheet) => sum + gzipSize(sheet), 0);
  return { js, jsTransferred, css, scripts: scripts.length, html: gzipSize(html) };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const pages = args.filter((arg) => arg.startsWith('/'));
  const runCount = Number(
    args.find((arg) => arg.startsWith('--runs='))?.slice('--runs='.length) ?? DEFAULT_RUNS,
  );
  if (!Number.isInteger(runCount) || runCount < 1)
    throw new Error('--runs= takes a whole number of runs, 1 or more');
  if (!args.includes('--no-build')) {
    console.log('Building the production bundle (npm run build)…');
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  }

  const port = await freePort();
  const base = `http://localhost:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'flujo-bench-'));
  const reports = mkdtempSync(join(tmpdir(), 'flujo-lighthouse-'));
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  });
  // Listened for from the start: a server that dies early has already emitted 'exit' by the time the
  // finally block runs, and waiting for it there would hang with nothing left to run (Node then exits 0).
  const exited = new Promise<void>((done) => server.once('exit', () => done()));
  try {
    await waitForHealth(base, server);
    const rows: string[] = [];
    const details: string[] = [];
    for (const path of pages.length > 0 ? pages : DEFAULT_PAGES) {
      const runs: LighthouseReport[] = [];
      const loadBefore = loadavg()[0]!;
      for (let run = 1; run <= runCount; run++) {
        console.log(`Lighthouse ${path} run ${run}/${runCount}…`);
        const name = `${path.replaceAll('/', '_')}run-${run}.json`;
        runs.push(await lighthouse(`${base}${path}`, join(reports, name)));
      }
      const score = (category: string) =>
        Math.round(median(runs.map((report) => (report.categories[category]?.score ?? 0) * 100)));
      const metric = (id: string) => median(runs.map((report) => report.audits[id]?.numericValue ?? 0));
      const assets = initialAssets(path, runs[0]!);
      const as = accountFor(path)?.username;
      rows.push(
        `| ${path}${as ? ` (${as})` : ''} | ${CATEGORIES.map(score).join(' | ')} | ` +
          `${kb(assets.js)} (${assets.scripts} files) | ${kb(assets.jsTransferred)} | ` +
          `${kb(assets.css)} | ${kb(assets.html)} |`,
      );
      const detail = Object.entries(METRICS)
        .map(([id, name]) =>
          id === 'cumulative-layout-shift'
            ? `${name} ${metric(id).toFixed(3)}`
            : `${name} ${Math.round(metric(id))} ms`,
        )
        .join(', ');
      const perRun = runs.map((report) => Math.round((report.categories.performance?.score ?? 0) * 100));
      details.push(
        `- ${path}: medians ${detail}; performance per run ${perRun.join(', ')}; ` +
          `Lighthouse benchmarkIndex ${Math.round(median(runs.map((r) => r.environment.benchmarkIndex)))}; ` +
          `load average (1 min) ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after`,
      );
    }
    console.log('');
    console.log(
      `Lighthouse 12 mobile preset, median of ${runCount} runs each, ${base} (real server, production build); ` +
        'a signed-in page names its user in brackets\n',
    );
    console.log(
      '| page | performance | accessibility | best practices | SEO | initial JS (gzip) | JS transferred | CSS (gzip) | HTML (gzip) |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const row of rows) console.log(row);
    console.log('');
    for (const line of details) console.log(line);
  } finally {
    if (running(server)) server.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
    if (KEEP) console.log(`Lighthouse reports kept in ${reports}`);
    else rmSync(reports, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
