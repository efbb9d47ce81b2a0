import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, expect, type Page, type Route } from '@playwright/test';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { ACCESS_TOKEN_KEY } from '../src/stores/storage-keys';
import { MESSAGE_DIALOG_NAMES } from '../src/views/invoices/message-dialog';
import {
  coveringPaths,
  formatEvent,
  generatePaths,
  type MachineModel,
  type ModelPath,
  measureCoverage,
  stateMatcher,
} from '../test/model/harness/model';
import { logIn, operator, test, withoutDashboardFrame } from './support';

// The browser flavour of the model tests (issue 17, decision 0049): one Playwright test per path that
// generatePaths gives for a machine, computed when Playwright collects the file, so a transition added to the
// machine adds a test here without anyone writing it. Each step runs the gesture of its executor and then the
// assertion of the state the model reaches; a step without either fails with a message naming it.

/** Every wait on the real server: generous, CI is a loaded 2-core machine. */
export const SERVER_WAIT = { timeout: 30_000 };

/**
 * Access tokens live 5 minutes and the session machine renews them a minute before; refresh tokens are
 * single-use (a second use revokes the family). Every context of a role starts from the same stored state,
 * so that state is renewed by a fresh sign-in before any of its contexts could reach the renewal.
 */
const SESSION_REUSE_MS = 90_000;
/** A path's test, so that a context opened with a 90 s old token closes before its renewal is due. */
export const PATH_TIMEOUT_MS = 120_000;

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/** One sign-in per role, through the real login form, reused by every path of the file while it is fresh. */
export class Sessions {
  private readonly cache = new Map<string, { state: StorageState; at: number }>();

  /** `prepare`: what the user does right after signing in (the corporate waits for its summary). */
  constructor(
    private readonly password: string,
    private readonly prepare: (page: Page) => Promise<void> = async () => {},
  ) {}

  async stateOf(browser: Browser, username: string): Promise<StorageState> {
    const cached = this.cache.get(username);
    if (cached && Date.now() - cached.at < SESSION_REUSE_MS) return cached.state;
    const context = await browser.newContext();
    try {
      await withoutDashboardFrame(context);
      const page = await context.newPage();
      const at = Date.now();
      await logIn(page, username, this.password);
      await expect(page).toHaveURL(/\/dashboard\//, SERVER_WAIT);
      await this.prepare(page);
      const state = await context.storageState();
      this.cache.set(username, { state, at });
      return state;
    } finally {
      await context.close();
    }
  }

  /**
   * A context of its own for one path, signed in as `username`; `localStorage` adds keys to the stored ones
   * (the saved pre-authorization the quotation page starts from).
   */
  async contextAs(
    browser: Browser,
    username: string,
    localStorage: Record<string, string> = {},
  ): Promise<BrowserContext> {
    const state = await this.stateOf(browser, username);
    const origins = state.origins.map((origin) => ({
      ...origin,
      localStorage: [
        ...origin.localStorage.filter((item) => !(item.name in localStorage)),
        ...Object.entries(localStorage).map(([name, value]) => ({ name, value })),
      ],
    }));
    const context = await browser.newContext({ storageState: { ...state, origins } });
    await withoutDashboardFrame(context);
    return context;
  }
}

/** The corporate's half of the dashboard ('Cuentas por Pagar'), where its sections live and a login lands. */
export async function payablesView(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'Resumen de facturas' })).toBeVisible(SERVER_WAIT);
}

/** A gesture: what the actor does in the browser (or the operator through ops) for one model event. */
export type Executor<Ctx> = (ctx: Ctx, event: EventObject) => Promise<void>;
/** What the UI shows in a state; keys are state ids ('#machine.state') or relative keys, as in path.test. */
export type StateCheck<Ctx> = (ctx: Ctx, state: AnyMachineSnapshot, path: ModelPath) => Promise<void>;

export interface GeneratedSuite<Ctx> {
  model: MachineModel;
  /**
   * Once per file (again if a failure restarts the worker): accounts, and every path's own fresh data made
   * with one ops call for all of them, which each path then uses alone (index: the path's position).
   */
  prepare?: (browser: Browser, paths: readonly ModelPath[]) => Promise<void>;
  /** The contexts for one path, and its own data (never another path's). */
  setup: (browser: Browser, path: ModelPath, index: number) => Promise<Ctx>;
  teardown: (ctx: Ctx) => Promise<void>;
  /** By event type; every partition of a type goes to the same executor, which reads the payload. */
  events: Readonly<Record<string, Executor<Ctx>>>;
  states: Readonly<Record<string, StateCheck<Ctx>>>;
}

/** Runs one generated path: the initial state's check, then for each step its gesture and its state's check. */
async function runPath<Ctx>(suite: GeneratedSuite<Ctx>, path: ModelPath, ctx: Ctx): Promise<void> {
  const matches = stateMatcher(suite.model.machine);
  const check = async (state: AnyMachineSnapshot): Promise<void> => {
    const keys = Object.keys(suite.states).filter((key) => matches(state, key));
    if (keys.length === 0) {
      throw new Error(
        `${suite.model.id}: no browser assertion for state ${JSON.stringify(state.value)}; add one to the states of e2e/generated-*.spec.ts`,
      );
    }
    for (const key of keys) await suite.states[key]!(ctx, state, path);
  };
  const [initial, ...steps] = path.steps;
  await test.step(`⇒ ${JSON.stringify(initial!.state.value)}`, () => check(initial!.state));
  for (const step of steps) {
    const name = formatEvent(step.event, suite.model.events);
    await test.step(`${name} ⇒ ${JSON.stringify(step.state.value)}`, async () => {
      const execute = suite.events[step.event.type];
      if (!execute) {
        throw new Error(
          `${suite.model.id}: no browser executor for ${step.event.type} (step '${name}'); add one to the events of e2e/generated-*.spec.ts`,
        );
      }
      await execute(ctx, step.event);
      await check(step.state);
    });
  }
}

/**
 * Declares one test per path of the covering set of the generated paths (decision 0055: every transition and
 * leaf state the generated paths reach, taken at least once in the browser), named by stepLabel, then a last
 * test that checks a fresh generation gives the same set and that it covers what the whole generation covers.
 */
export function defineGeneratedPathTests<Ctx>(suite: GeneratedSuite<Ctx>): void {
  const paths = coveringPaths(suite.model, generatePaths(suite.model)).paths;
  const declared: string[] = [];
  test.describe(`${suite.model.id} (generated paths, browser)`, () => {
    const prepare = suite.prepare;
    if (prepare) {
      test.beforeAll(async ({ browser }) => {
        test.setTimeout(240_000);
        await prepare(browser, paths);
      });
    }
    paths.forEach((path, index) => {
      declared.push(path.description);
      test(path.description, async ({ browser }) => {
        test.setTimeout(PATH_TIMEOUT_MS);
        const ctx = await suite.setup(browser, path, index);
        try {
          await runPath(suite, path, ctx);
        } finally {
          await suite.teardown(ctx);
        }
      });
    });

    test('the browser paths cover every transition the generated paths take', () => {
      const generated = generatePaths(suite.model);
      const again = coveringPaths(suite.model, generated);
      expect(again.paths.length).toBeGreaterThan(0);
      expect(declared, 'covering paths and declared tests').toEqual(
        again.paths.map((path) => path.description),
      );
      expect(new Set(declared).size).toBe(declared.length);
      const whole = measureCoverage(suite.model, generated);
      expect(again.transitions, 'transitions taken in the browser').toEqual(whole.transitions.covered);
      expect(again.states, 'leaf states visited in the browser').toEqual(whole.states.covered);
      console.log(
        `${suite.model.id}: ${again.paths.length} of ${generated.length} generated paths in the browser, ` +
          `taking ${again.transitions.length}/${whole.transitions.total.length} transitions ` +
          `(waived ${whole.transitions.waived.length}) and ${again.states.length}/${whole.states.total.length} states`,
      );
      // Every event type the model may send has a gesture, even one no path uses yet.
      const types = [...new Set(suite.model.events.map((event) => event.type))];
      expect(
        types.filter((type) => !suite.events[type]),
        'event types without a browser executor',
      ).toEqual([]);
    });
  });
}

/** Writes CFDI XML files to a temporary folder and imports them with one `ops cfdi:import`; their ids by UUID. */
export function importCfdi(
  files: ReadonlyArray<{ uuid: string; name: string; xml: string }>,
): Map<string, number> {
  const dir = mkdtempSync(join(tmpdir(), 'flujo-e2e-generated-'));
  try {
    for (const file of files) writeFileSync(join(dir, `${file.name}.xml`), file.xml);
    const output = operator('cfdi:import', dir);
    expect(output).toContain(`${files.length} importadas, 0 rechazadas`);
    const ids = new Map<string, number>();
    for (const match of output.matchAll(/^importada\s+\S+\s+(\S+)\s+id=(\d+)$/gm)) {
      ids.set(match[1]!.toUpperCase(), Number(match[2]));
    }
    for (const file of files) {
      if (!ids.has(file.uuid.toUpperCase())) throw new Error(`cfdi:import did not report ${file.uuid}`);
    }
    return ids;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The message dialog (named Listo, Error, Aviso… by its variant), not another dialog closing beside it (the
 * factoring panel also has 'Cerrar'); `text` must be in it.
 */
export function messageDialog(page: Page, text?: string | RegExp) {
  const names = new RegExp(
    `^(${MESSAGE_DIALOG_NAMES.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`,
  );
  const dialog = page.getByRole('dialog', { name: names });
  return text === undefined ? dialog : dialog.filter({ hasText: text });
}

export async function closeMessage(page: Page, text?: string | RegExp): Promise<void> {
  const dialog = messageDialog(page, text);
  await expect(dialog).toBeVisible(SERVER_WAIT);
  await dialog.getByRole('button', { name: 'Cerrar' }).click();
  await expect(dialog).toBeHidden(SERVER_WAIT);
}

/** The row of the invoice with this folio fiscal in any invoice table (its copy button names it). */
export function invoiceRow(page: Page, uuid: string) {
  return page
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: `Copiar folio fiscal ${uuid}` }) });
}

/**
 * Holds the page's POSTs to one endpoint until the path says how the server answers: the browser analogue
 * of the in-process tests' MSW gates (test/model/harness/msw-gate.ts), so the states between the gesture and
 * the answer (loading, paying…) can be seen.
 */
export class Gate {
  private readonly held: Route[] = [];
  private readonly waiting: Array<(route: Route) => void> = [];

  private constructor(readonly path: string) {}

  static async on(page: Page, path: string): Promise<Gate> {
    const gate = new Gate(path);
    await page.route(
      (url) => url.pathname === path,
      (route) => {
        if (route.request().method() !== 'POST') return route.fallback();
        const next = gate.waiting.shift();
        if (next) next(route);
        else gate.held.push(route);
      },
    );
    return gate;
  }

  /** The next held request (the page must send it within the server wait). */
  take(): Promise<Route> {
    const ready = this.held.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the page sent no POST ${this.path}`)),
        SERVER_WAIT.timeout,
      );
      this.waiting.push((route) => {
        clearTimeout(timer);
        resolve(route);
      });
    });
  }

  /** The real server answers. */
  async pass(): Promise<void> {
    await (await this.take()).continue();
  }

  /** An answer the real server cannot be made to give on demand (a 500, a session that ends mid-call). */
  async respond(status: number, body: unknown): Promise<void> {
    await (await this.take()).fulfill({
      status,
      contentType: 'application/json',
      body: JSON.stringify(body),
    });
  }

  /** The real server does the work, but its answer never reaches the browser. */
  async loseAnswer(): Promise<void> {
    const route = await this.take();
    const answer = await route.fetch();
    expect(answer.status()).toBe(200);
    await route.abort('connectionreset');
  }
}

/** The page's access token (the API calls a concurrent tab would make with the same session). */
export async function accessTokenOf(page: Page): Promise<string> {
  const token = await page.evaluate((key) => localStorage.getItem(key), ACCESS_TOKEN_KEY);
  if (!token) throw new Error('no access token in localStorage');
  return token;
}
