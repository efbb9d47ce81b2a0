// `npm run bench:web`: Lighthouse (mobile preset) on the public pages, the login page and the provider's
// dashboard, served by the real server from the production build. Prints, per page, the median of the runs (5 unless --runs=)
// for each category and the gzip size of the JavaScript and CSS the page loads. Runs one Lighthouse at a time
// (docs/variability.md: never in parallel).
//   npm run bench:web                 build, then measure DEFAULT_PAGES
//   npm run bench:web -- --no-build   measure the current dist/
//   npm run bench:web -- /contacto/   other pages
//   npm run bench:web -- --runs=1     a quick look (the table's numbers are medians of 5)
//   npm run bench:web -- --keep       keep the Lighthouse JSON reports and traces (their directory is printed)
// Pages under /dashboard/ are measured signed in as the demo provider (SIGNED_IN_AS).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { DEMO_PASSWORD } from '../server/seed/demo-world';
import { freePort } from '../test/support/real-server';
import { CHROMIUM_ARGS } from './chromium';

const ROOT = resolve(import.meta.dirname, '..');
const DEFAULT_RUNS = 5;
const DEFAULT_PAGES = [
  '/inicio/',
  '/calculadora/',
  '/auth/ingresar/',
  '/dashboard/pronto-pago/',
  // Issue 15: the section with the chart library (its charts load only when the Indicadores tab draws).
  '/dashboard/conoce-tu-empresa/',
];
/** The dashboard needs a session: these pages are measured as this seeded user (server/seed/demo-world.ts). */
const SIGNED_IN = /^\/dashboard\//;
const SIGNED_IN_AS = { username: 'proveedor.demo', password: DEMO_PASSWORD };
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
      details?: { items?: Array<{ url?: string; resourceType?: string; mimeType?: string }> };
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
async function signIn(port: number, base: string): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const page = await browser.contexts()[0]!.newPage();
    await page.goto(`${base}/auth/ingresar/`);
    await page.getByLabel('Usuario').fill(SIGNED_IN_AS.username);
    await page.getByLabel('Contraseña').fill(SIGNED_IN_AS.password);
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await page.waitForURL(/\/dashboard\//, { timeout: 60_000 });
    await page.close();
  } finally {
    // Connected over CDP, close() only disconnects: the browser is left to Lighthouse.
    await browser.close();
  }
}

async function lighthouseOnce(url: string, output: string): Promise<LighthouseReport> {
  const browser = await launchChromium();
  try {
    if (SIGNED_IN.test(new URL(url).pathname)) await signIn(browser.port, new URL(url).origin);
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
  const html = readFileSync(existsSync(prerendered) ? prerendered : join(dist, 'index.html'), 'utf8');
  const inlineCss = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1]).join('');
  const stylesheets = requests
    .filter((request) => request.resourceType === 'Stylesheet' && request.url?.includes('/assets/'))
    .map((request) => readFileSync(join(dist, new URL(request.url!).pathname)));
  const css = gzipSize(inlineCss) + stylesheets.reduce((sum, sheet) => sum + gzipSize(sheet), 0);
  return { js, css, scripts: scripts.length, html: gzipSize(html) };
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
      for (let run = 1; run <= runCount; run++) {
        console.log(`Lighthouse ${path} run ${run}/${runCount}…`);
        const name = `${path.replaceAll('/', '_')}run-${run}.json`;
        runs.push(await lighthouse(`${base}${path}`, join(reports, name)));
      }
      const score = (category: string) =>
        Math.round(median(runs.map((report) => (report.categories[category]?.score ?? 0) * 100)));
      const metric = (id: string) => median(runs.map((report) => report.audits[id]?.numericValue ?? 0));
      const assets = initialAssets(path, runs[0]!);
      rows.push(
        `| ${path} | ${CATEGORIES.map(score).join(' | ')} | ${kb(assets.js)} (${assets.scripts} files) | ` +
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
          `Lighthouse benchmarkIndex ${Math.round(median(runs.map((r) => r.environment.benchmarkIndex)))}`,
      );
    }
    console.log('');
    console.log(
      `Lighthouse 12 mobile preset, median of ${runCount} runs each, ${base} (real server, production build); ` +
        `pages under /dashboard/ signed in as ${SIGNED_IN_AS.username}\n`,
    );
    console.log(
      '| page | performance | accessibility | best practices | SEO | initial JS (gzip) | CSS (gzip) | HTML (gzip) |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
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
