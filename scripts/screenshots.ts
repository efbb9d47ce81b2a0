// `npm run screenshots`: PNGs of every screen (the public site and auth pages signed out, every dashboard
// screen with the demo data), for design review (not committed).
// Builds nothing: it serves the current dist/ (run `npm run build` first) from the real server on a temporary
// DATA_DIR, which loads the demo world, shoots the signed-out pages, logs in with Playwright as the demo
// provider, the demo corporate and the demo operator (back office), and writes screenshots/<role>-<screen>-<width>.png at 1280, 1024 and
// 375 px, plus the slide-in menu open.
//   npm run screenshots                       every screen
//   npm run screenshots -- pronto-pago        only screens whose file name contains 'pronto-pago'
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from '@playwright/test';
import { base32Decode, totpCode } from '../server/modules/auth/totp';
import { DEMO_OPERATORS } from '../server/seed/demo-operators';
import { bankStatementCsv } from '../src/domain/bank-statement';
import { InvoiceStatus } from '../src/domain/invoice-status';
import { paths } from '../src/domain/paths';
import type { DeskItem } from '../src/domain/schemas/control-desk';
import type { Invoice } from '../src/domain/schemas/invoices';
import { PRE_AUTHORIZATION_STORE_KEY } from '../src/stores/storage-keys';
import { PUBLIC_PATHS } from '../src/views/public/public-pages';
import { freePort } from '../test/support/real-server';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'screenshots');
const WIDTHS = [1280, 1024, 375] as const;
const HEIGHT = { 1280: 800, 1024: 768, 375: 812 } as const;
// NOTE: a loaded machine makes every round trip slow; these waits are generous on purpose.
const WAIT = 30_000;
// README "Demo accounts".
const DEMO_PASSWORD = 'Flujo-Demo-2026!';

interface Screen {
  name: string;
  path: string;
  /** Open the slide-in menu before the shot (only below 1024 px, where the sidebar is hidden). */
  menu?: boolean;
  /** A gesture before the shot (a panel or dialog open), after the data arrived. */
  action?: (page: Page) => Promise<void>;
  /** Work the screen needs before it is opened (the quotation's saved pre-authorization). */
  prepare?: (page: Page) => Promise<void>;
}

/** Signed out: every prerendered public page and the auth pages. */
const VISITOR_SCREENS: readonly Screen[] = [
  ...PUBLIC_PATHS.map((path) => ({ name: path.replaceAll('/', '') || 'raiz', path })),
  { name: 'ingresar', path: paths.login },
  { name: 'registro', path: paths.signUp },
  { name: 'recuperar-contrasena', path: paths.resetRequest },
  { name: 'operacion-ingresar', path: paths.operatorLogin },
  { name: 'diagramas', path: paths.diagrams },
  {
    name: 'diagramas-cobertura',
    path: paths.diagrams,
    action: async (page) => {
      await page.getByRole('switch', { name: 'Mostrar cobertura de pruebas' }).focus();
      await page.keyboard.press('Space');
    },
  },
];
const PROVIDER_SCREENS: readonly Screen[] = [
  { name: 'pronto-pago', path: paths.prontoPago },
  { name: 'facturas-pronto-pago', path: paths.advancedInvoices },
  // Redirected to Pronto Pago: the demo provider's SAT link is authorized.
  { name: 'sat-credentials-redirected', path: paths.satCredentials },
  { name: 'factoraje', path: paths.factoring },
  // The first 'Solicitar Factoraje': the quote panel with a line, the enable request's answer without one.
  {
    name: 'factoraje-solicitud',
    path: paths.factoring,
    action: async (page) => {
      await page
        .getByRole('button', { name: /^Solicitar Factoraje / })
        .first()
        .click();
      await page
        .getByRole('button', { name: /^(Transferir|Cerrar)$/ })
        .last()
        .waitFor({ timeout: WAIT });
      await page.waitForLoadState('networkidle', { timeout: WAIT });
      await page.waitForTimeout(500);
    },
  },
  // Listed in the sidebar only for corporate accounts, reachable by URL for every provider.
  { name: 'estado-de-cuenta', path: paths.accountStatement },
  { name: 'conoce-tu-empresa', path: paths.knowYourCompany },
  { name: 'conoce-tu-empresa-indicadores', path: `${paths.knowYourCompany}?pestana=indicadores` },
  { name: 'cuentas-por-cobrar', path: paths.receivables },
  { name: 'referir-cliente', path: paths.referClient },
  { name: 'editar-perfil', path: paths.profile },
  { name: 'cambiar-clave', path: paths.passwordChange },
  { name: 'menu', path: paths.prontoPago, menu: true },
  // An invoice's Historial: the proof of its CFDI (certificate, SAT's answers) above its movements.
  {
    name: 'historial-prueba',
    path: paths.prontoPago,
    action: async (page) => {
      await page
        .getByRole('button', { name: /^Historial / })
        .first()
        .click();
      await page.getByRole('region', { name: 'Prueba de autenticidad del CFDI' }).waitFor({ timeout: WAIT });
      await page.waitForTimeout(500);
    },
  },
  // A paid invoice's Historial, then 'Ver en el diagrama': its path over the lifecycle diagram.
  {
    name: 'historial-diagrama',
    path: `${paths.advancedInvoices}?status=10`,
    action: async (page) => {
      await page
        .getByRole('button', { name: /^Historial / })
        .first()
        .click();
      await page.getByRole('button', { name: 'Ver en el diagrama' }).click({ timeout: WAIT });
      await page.locator('.flujo-path .flujo-step-mark').first().waitFor({ timeout: WAIT });
      await page.waitForTimeout(500);
    },
  },
];

const CORPORATE_SCREENS: readonly Screen[] = [
  {
    name: 'resumen-de-facturas',
    path: paths.invoiceSummary,
    prepare: (page) => disburseDemoAdvances(page, paths.invoiceSummary),
  },
  { name: 'pre-autorizacion', path: paths.preAuthorization },
  { name: 'solicitudes', path: paths.requests },
  { name: 'estado-de-cuenta', path: paths.accountStatement },
  { name: 'cotizacion', path: paths.quotation, prepare: savePreAuthorizationWork },
  {
    name: 'cotizacion-resumen',
    path: paths.quotation,
    prepare: savePreAuthorizationWork,
    // The buyer absorbs the cost: the resume dialog, on the corporate's dark theme.
    action: async (page) => {
      await page.getByRole('button', { name: 'Continuar' }).click({ timeout: WAIT });
      await page.getByRole('button', { name: 'El comprador' }).click({ timeout: WAIT });
      const resume = page.getByRole('dialog', { name: 'Resumen de la cotización' });
      await resume
        .getByRole('button', { name: 'Pagar a Proveedores' })
        .and(page.locator(':enabled'))
        .waitFor({
          timeout: WAIT,
        });
      await page.waitForTimeout(500);
    },
  },
  { name: 'menu', path: paths.invoiceSummary, menu: true },
];

/**
 * What the pre-authorization page saves before 'Cotizar': up to two MXN and two USD invoices the demo corporate
 * may still authorize, from different providers where it can, each to be paid in 15 days.
 */
async function savePreAuthorizationWork(page: Page): Promise<void> {
  const access = await page.evaluate(() => localStorage.getItem('access'));
  const answer = await page.request.get('/api/corporates/pre-authorization/?page_size=100', {
    headers: { Authorization: `Bearer ${access}` },
  });
  const { results } = (await answer.json()) as { results: Invoice[] };
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const recent = results.filter((invoice) => invoice.date_of_emission >= day(-130));
  const picked: Invoice[] = [];
  // A foreign-currency invoice carries its CFDI TipoCambio; a peso one has none ('-').
  for (const foreign of [false, true]) {
    const ofCurrency = recent.filter((invoice) => (invoice.exchange_rate !== '-') === foreign);
    const byProvider = [...new Map(ofCurrency.map((invoice) => [invoice.emitter_rfc, invoice])).values()];
    picked.push(...[...byProvider, ...ofCurrency.filter((i) => !byProvider.includes(i))].slice(0, 2));
  }
  const work = {
    invoices: picked.map((invoice) => ({
      id: invoice.id,
      folio: invoice.serie_folio || invoice.fiscal_folio.slice(0, 8),
      emissionDate: invoice.date_of_emission,
      paymentDate: day(15),
    })),
    savedAt: Date.now(),
  };
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [
    PRE_AUTHORIZATION_STORE_KEY,
    JSON.stringify(work),
  ] as const);
}

/** The demo corporate's programme detail on /operacion/programas/ (its ledger and what is still to collect). */
async function openDemoProgramme(page: Page): Promise<void> {
  const row = page
    .getByRole('table', { name: 'Programas de crédito' })
    .getByRole('row')
    .filter({ hasText: 'Grupo Altamira' });
  await row.getByRole('button', { name: 'Ver movimientos' }).click({ timeout: WAIT });
}

/** The financier's back office (issue 19), signed in as the demo operator with its TOTP code. */
const OPERATOR_SCREENS: readonly Screen[] = [
  { name: 'mesa', path: paths.operatorDesk },
  { name: 'dispersiones', path: paths.operatorDisbursements },
  {
    name: 'cobranza',
    path: paths.operatorCollections,
    action: async (page) => {
      // A small bank statement through the page's own file input: the result's lines and the unidentified queue.
      const yesterday = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
      const csv = bankStatementCsv(
        [
          ['SPEI20260001', 18_500_00, 'DISTRIBUIDORA DEL NORTE SA', 'PAGO FACT 881'],
          ['SPEI20260002', 72_300_50, 'COMERCIAL ORIENTE SA DE CV', 'ANTICIPO'],
          ['SPEI20260003', 4_999_99, 'SERVICIOS INTEGRALES MX', 'PAGO'],
        ].map(([clave, amount, name, concepto]) => ({
          fecha: yesterday,
          claveRastreo: String(clave),
          amount: Number(amount),
          rfcOrdenante: null,
          nombreOrdenante: String(name),
          referencia: '',
          concepto: String(concepto),
        })),
      );
      await page
        .locator('#cobranza-archivo')
        .setInputFiles(
          { name: 'estado.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) },
          { timeout: WAIT },
        );
      await page.getByRole('list', { name: 'Resultado del último archivo' }).waitFor({ timeout: WAIT });
      await page.waitForLoadState('networkidle', { timeout: WAIT });
    },
  },
  { name: 'corporativos', path: paths.operatorCorporates },
  {
    name: 'corporativo-expediente',
    path: paths.operatorCorporates,
    action: async (page) => {
      await page
        .getByRole('button', { name: /Grupo Altamira/ })
        .first()
        .click({ timeout: WAIT });
      await page.waitForURL(/\/operacion\/corporativos\/\d+\/$/, { timeout: WAIT });
      await page.getByRole('heading', { level: 1, name: /Grupo Altamira/ }).waitFor({ timeout: WAIT });
      await page.waitForLoadState('networkidle', { timeout: WAIT });
    },
  },
  { name: 'programas', path: paths.operatorProgrammes },
  {
    name: 'operacion-exposicion',
    path: paths.operatorExposure,
    action: async (page) => {
      await page.getByRole('heading', { level: 2, name: 'Por comprador' }).waitFor({ timeout: WAIT });
      await page.waitForLoadState('networkidle', { timeout: WAIT });
    },
  },
  {
    name: 'programa-movimientos',
    path: paths.operatorProgrammes,
    action: async (page) => {
      await openDemoProgramme(page);
      const collectible = page.getByRole('heading', { level: 3, name: 'Por cobrar al corporativo' });
      await collectible.waitFor({ timeout: WAIT });
      await collectible.scrollIntoViewIfNeeded();
    },
  },
  {
    name: 'programa-registrar-cobro',
    path: paths.operatorProgrammes,
    action: async (page) => {
      await openDemoProgramme(page);
      const collect = page
        .getByRole('table', { name: 'Por cobrar al corporativo' })
        .getByRole('button', { name: /^Registrar cobro de la factura / })
        .first();
      await collect.click({ timeout: WAIT });
      await page.getByRole('dialog').waitFor({ timeout: WAIT });
      // Blueprint's dialog fades in; the shot waits for it to settle.
      await page.waitForTimeout(500);
    },
  },
  { name: 'operacion-cartera', path: paths.operatorPortfolio },
  { name: 'alianzas', path: paths.operatorAlliances },
  { name: 'bandeja', path: paths.operatorInbox },
  { name: 'bitacora', path: paths.operatorAudit },
  {
    name: 'vencimientos',
    path: paths.operatorMaturities,
    prepare: (page) => disburseDemoAdvances(page, paths.operatorHome),
  },
];

// Issue 34: after ops demo:payment-complement, the paid advances on the desk and the Historial of the one whose
// REP arrived ('REP recibido' with its folio fiscal and date).
const REP_OPERATOR_SCREENS: readonly Screen[] = [
  { name: 'mesa-rep', path: `${paths.operatorDesk}?state=paid` },
];
const REP_PROVIDER_SCREENS: readonly Screen[] = [
  {
    name: 'historial-rep',
    path: `${paths.advancedInvoices}?status=10`,
    action: async (page) => {
      const buttons = page.getByRole('button', { name: /^Historial / });
      await buttons.first().waitFor({ timeout: WAIT });
      const proof = page.getByRole('region', { name: 'Prueba de autenticidad del CFDI' });
      for (let index = 0; index < (await buttons.count()); index += 1) {
        await buttons.nth(index).click();
        await proof.waitFor({ timeout: WAIT });
        if ((await proof.textContent())?.includes('REP recibido')) break;
        await page.getByRole('button', { name: 'Cerrar' }).last().click();
      }
      await page.waitForTimeout(500);
    },
  },
];

// Shot again once the operator grants the demo provider a factoring line: the balance card, the quote panel.
const FACTORING_LINE_SCREENS: readonly Screen[] = PROVIDER_SCREENS.filter((screen) =>
  ['factoraje', 'factoraje-solicitud', 'estado-de-cuenta'].includes(screen.name),
);

const running = (server: ChildProcess) => server.exitCode === null && server.signalCode === null;

async function waitForHealth(base: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (!running(server)) throw new Error('the server exited before answering /api/health/');
    try {
      if ((await fetch(`${base}/api/health/`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 500));
  }
  throw new Error('the server did not answer /api/health/ within 2 minutes');
}

/** The demo operator's two-step sign-in: password, then the code its authenticator would show now. */
async function logInOperator(page: Page): Promise<void> {
  const operator = DEMO_OPERATORS[0]!;
  await page.goto(paths.operatorLogin);
  await page.getByLabel('Usuario', { exact: true }).fill(operator.username);
  await page.getByLabel('Contraseña', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByLabel('Contraseña', { exact: true }).press('Enter');
  const code = page.getByLabel('Código de verificación', { exact: true });
  await code.waitFor({ timeout: WAIT });
  await code.fill(totpCode(base32Decode(operator.secret), new Date()));
  await code.press('Enter');
  await page.waitForURL(`**${paths.operatorDesk}`, { timeout: WAIT });
}

/** Signs in and waits for the page the login lands on (`landing`). */
async function logIn(page: Page, username: string, landing: string): Promise<void> {
  await page.goto(paths.login);
  await page.getByLabel('Usuario').fill(username);
  await page.getByLabel('Contraseña').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await page.waitForURL(`**${landing}`, { timeout: WAIT });
}

/** The screen as a visitor sees it once its data arrived: the heading shown and the network quiet. */
async function shoot(page: Page, screen: Screen, file: string): Promise<void> {
  await screen.prepare?.(page);
  await page.goto(screen.path);
  await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: WAIT });
  await page.waitForLoadState('networkidle', { timeout: WAIT });
  if (screen.menu) {
    await page.getByRole('button', { name: 'Abrir menú' }).click();
    await page.getByRole('dialog', { name: 'Menú del dashboard' }).waitFor({ timeout: WAIT });
    // Blueprint's drawer slides in; the shot waits for it to settle.
    await page.waitForTimeout(500);
  }
  await screen.action?.(page);
  await page.screenshot({ path: file, fullPage: !screen.menu && !screen.action });
}

let operatorState: Awaited<ReturnType<BrowserContext['storageState']>> | null = null;

async function shootRole(
  browser: Browser,
  base: string,
  role:
    | 'visitor'
    | 'provider'
    | 'provider-con-linea'
    | 'corporate'
    | 'operator'
    | 'operator-rep'
    | 'provider-rep',
  filter: string | undefined,
): Promise<string[]> {
  const written: string[] = [];
  const operatorRole = role === 'operator' || role === 'operator-rep';
  const screens = {
    visitor: VISITOR_SCREENS,
    provider: PROVIDER_SCREENS,
    'provider-con-linea': FACTORING_LINE_SCREENS,
    corporate: CORPORATE_SCREENS,
    operator: OPERATOR_SCREENS,
    'operator-rep': REP_OPERATOR_SCREENS,
    'provider-rep': REP_PROVIDER_SCREENS,
  }[role];
  for (const width of WIDTHS) {
    const todo = screens.filter(
      (screen) =>
        (!screen.menu || width < 1024) && (!filter || `${role}-${screen.name}-${width}`.includes(filter)),
    );
    if (todo.length === 0) continue;
    const context = await browser.newContext({
      baseURL: base,
      viewport: { width, height: HEIGHT[width] },
      // A TOTP code works once: the operator signs in once and the other widths reuse its session.
      ...(operatorRole && operatorState ? { storageState: operatorState } : {}),
    });
    const page = await context.newPage();
    if (operatorRole && !operatorState) {
      await logInOperator(page);
      operatorState = await context.storageState();
    } else if (role === 'corporate') {
      // The demo corporate lands on its payables, the summary (decision 0065).
      await logIn(page, 'corporativo.demo', paths.invoiceSummary);
    } else if (role === 'provider' || role === 'provider-con-linea' || role === 'provider-rep') {
      await logIn(page, 'proveedor.demo', paths.prontoPago);
    }
    for (const screen of todo) {
      const file = join(OUT, `${role}-${screen.name}-${width}.png`);
      await shoot(page, screen, file);
      written.push(file);
      console.log(`wrote ${file}`);
    }
    await context.close();
  }
  return written;
}

/**
 * Issue 34: the demo buyer pays two advances and the provider's REP for the first arrives (ops
 * demo:payment-complement), then the desk and the provider's Historial are shot with 'REP recibido'.
 */
async function withPaymentComplement(dataDir: string, shootAll: () => Promise<string[]>): Promise<string[]> {
  execFileSync(process.execPath, ['--import', 'tsx', 'server/cli.ts', 'demo:payment-complement'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: 'ignore',
  });
  return shootAll();
}

/** Grants the demo provider a factoring line through the running server's ops socket, then shoots. */
async function withFactoringLine(dataDir: string, shootAll: () => Promise<string[]>): Promise<string[]> {
  execFileSync(
    process.execPath,
    ['--import', 'tsx', 'server/cli.ts', 'factoring:enable', 'EBA120815RTA', '--line', '500000'],
    { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, stdio: 'ignore' },
  );
  return shootAll();
}

/** The screenshot server's DATA_DIR, for the ops commands a screen's preparation runs over its socket. */
let serverDataDir = '';
let demoAdvancesDisbursed = false;

/**
 * The demo world's advances are never paid out (no disbursement rows), so nothing falls due: two advances in
 * process (one in dollars when there is one) are disbursed through `npm run ops -- disburse`, as an operator would,
 * so the corporate's 'Próximos vencimientos' and /operacion/vencimientos/ have a day, a batch and a converted
 * invoice to show. Run by the first screen that needs it (the corporate's summary, else the operator's screen).
 */
async function disburseDemoAdvances(page: Page, home: string): Promise<void> {
  if (demoAdvancesDisbursed) return;
  demoAdvancesDisbursed = true;
  // The session is in the origin's storage: open the role's home first to read its token.
  await page.goto(home);
  await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: WAIT });
  const access = await page.evaluate(() => localStorage.getItem('access'));
  const get = async (url: string) =>
    (await page.request.get(url, { headers: { Authorization: `Bearer ${access}` } })).json();
  // The operator picks from the desk, the corporate from its summary: ids and whether each is in dollars.
  const candidates: Array<{ id: number; dollars: boolean }> =
    home === paths.operatorHome
      ? ((await get('/api/operator/desk/')) as { results: DeskItem[] }).results.map((item) => ({
          id: item.invoice_id,
          dollars: item.amount_with_exchange_rate_usd !== null,
        }))
      : ((await get('/api/corporates/summary/?page_size=100')) as { results: Invoice[] }).results
          .filter((invoice) => invoice.status === InvoiceStatus.PROCESS)
          .map((invoice) => ({ id: invoice.id, dollars: invoice.amount_with_exchange_rate_usd !== null }));
  const dollars = candidates.find((candidate) => candidate.dollars);
  const chosen = [...new Set([dollars, ...candidates].filter((candidate) => candidate !== undefined))].slice(
    0,
    2,
  );
  for (const invoice of chosen) {
    execFileSync(
      process.execPath,
      ['--import', 'tsx', 'server/cli.ts', 'disburse', String(invoice.id), '--force'],
      {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, DATA_DIR: serverDataDir, LOG_LEVEL: 'warn' },
      },
    );
  }
}

async function main(): Promise<void> {
  const filter = process.argv[2];
  if (!existsSync(join(ROOT, 'dist', 'index.html'))) {
    console.error('dist/ is missing: run `npm run build` first (this script builds nothing).');
    process.exit(1);
  }
  mkdirSync(OUT, { recursive: true });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'flujo-screenshots-'));
  serverDataDir = dataDir;
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  });
  // Listened for from the start, as in bench-web.ts: an early exit must not leave the finally block waiting.
  const exited = new Promise<void>((done) => server.once('exit', () => done()));
  let browser: Browser | undefined;
  try {
    await waitForHealth(base, server);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
    const written = [
      ...(await shootRole(browser, base, 'visitor', filter)),
      ...(await shootRole(browser, base, 'provider', filter)),
      ...(await withFactoringLine(dataDir, () => shootRole(browser!, base, 'provider-con-linea', filter))),
      ...(await shootRole(browser, base, 'corporate', filter)),
      ...(await shootRole(browser, base, 'operator', filter)),
      ...(await withPaymentComplement(dataDir, async () => [
        ...(await shootRole(browser!, base, 'operator-rep', filter)),
        ...(await shootRole(browser!, base, 'provider-rep', filter)),
      ])),
    ];
    console.log(`${written.length} screenshots in ${OUT}`);
  } finally {
    await browser?.close();
    if (running(server)) server.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
