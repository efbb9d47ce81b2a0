import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { type BrowserContext, test as base, expect, type Page, type Request } from '@playwright/test';
import { base32Decode } from '../server/modules/auth/totp';
import { PRERENDERED_FRAME_ID } from '../src/views/common/prerendered-frame-ids';

export const DEMO_PASSWORD = 'Flujo-Demo-2026!';

/**
 * Pages in these specs load without the dashboard frame a section's document paints before the app starts
 * (decision 0033). The frame is inert, so a person can neither click nor type in it, but Playwright can fill
 * its fields, give its file inputs files and find its headings: a spec would act on the picture of the page
 * before the live one replaced it. The frame itself is tested in dashboard-frame.spec.ts.
 */
export async function withoutDashboardFrame(target: Page | BrowserContext): Promise<void> {
  await target.addInitScript((frameId: string) => {
    document.addEventListener('DOMContentLoaded', () => document.getElementById(frameId)?.remove());
  }, PRERENDERED_FRAME_ID);
}

/**
 * Axe finds no violation on the page once its transitions have ended: a dialog fading in or out is drawn at
 * partial opacity, and axe would judge its text's contrast mid-transition. `exclude`: a selector axe skips.
 */
export async function expectNoAxeViolations(page: Page, exclude?: string): Promise<void> {
  await page.waitForFunction(
    // Endless animations (a spinner, a skeleton's glow) never settle and are left out.
    () =>
      document
        .getAnimations()
        .every(
          (animation) =>
            animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity,
        ),
    undefined,
    { timeout: 15_000 },
  );
  const builder = new AxeBuilder({ page });
  const results = await (exclude ? builder.exclude(exclude) : builder).analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

/** Playwright's `test`, every page of whose context loads without the dashboard frame. */
export const test = base.extend({
  context: async ({ context }, use) => {
    await withoutDashboardFrame(context);
    await use(context);
  },
});
const PORT = process.env.E2E_PORT ?? 8181;

/** Every request the page makes from now on, to prove what it does not load. */
export function recordRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  return requests;
}

/** The recorded http(s) requests that left `origin` (data: and blob: URLs never reach the network). */
export function requestsOutside(requests: readonly Request[], origin: string): string[] {
  return requests
    .map((request) => request.url())
    .filter((url) => /^https?:/.test(url) && new URL(url).origin !== origin);
}

export async function logIn(page: Page, username: string, password: string) {
  await page.goto('/auth/ingresar/');
  await page.getByLabel('Usuario').fill(username);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
}

export interface NewUser {
  username: string;
  email: string;
  password: string;
  company: string;
}

/** A fresh provider account through the real sign-up form (the real ALTCHA widget solves its challenge). */
export async function signUp(page: Page, user: NewUser) {
  await page.goto('/auth/registro/');
  await expect(page.getByRole('heading', { level: 1, name: 'Crea tu perfil' })).toBeVisible();
  await page.getByLabel('Nombre').fill('Ana');
  await page.getByLabel('Apellido').fill('Quintero');
  await page.getByLabel('Usuario').fill(user.username);
  await page.getByLabel('Teléfono celular').fill('5512349876');
  await page.getByLabel('Empresa').fill(user.company);
  await page.getByLabel('Correo electrónico').fill(user.email);
  await page.getByLabel('Contraseña', { exact: true }).fill(user.password);
  await page.getByLabel('Confirmar contraseña').fill(user.password);
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await expect(page).toHaveURL(/\/auth\/ingresar\/\?registro=exitoso$/, { timeout: 30_000 });
}

/**
 * `npm run ops -- <args>` against the server under test: the CLI finds the data directory locked by that
 * server and hands the command to it over its local socket (docs/decisions/0013-ops-socket.md).
 */
export function operator(...args: string[]): string {
  const { dataDir } = JSON.parse(readFileSync(`.tmp/e2e-server-${PORT}.json`, 'utf8')) as { dataDir: string };
  return execFileSync(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], {
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
}

/** How far the page scrolls sideways, in px: 0 when it fits the viewport. */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/**
 * A Flujo operator made as the issue says, with `ops operator:create` (name Regina Olvera): the TOTP secret read
 * from the enrolment the command prints once.
 */
export function createOperatorAccount(username: string, email: string, roles: string): Buffer {
  const created = operator(
    'operator:create',
    username,
    '--email',
    email,
    '--roles',
    roles,
    '--name',
    'Regina',
    '--last-name',
    'Olvera',
  );
  const line = created.split('\n').find((text) => text.trim().startsWith('otpauth://'));
  if (!line) throw new Error(`operator:create printed no otpauth URI:\n${created}`);
  const secret = new URL(line.trim()).searchParams.get('secret');
  if (!secret) throw new Error(`the otpauth URI has no secret: ${line}`);
  return base32Decode(secret);
}

/**
 * With no SMTP configured e-mails stay in the outbox: the set-password link (invitation or reset) of the newest
 * such e-mail to `email`, read with `ops mail:list` from the running server.
 */
export async function passwordLinkFor(email: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const link = operator('mail:list', '--limit', '30')
      .split('-'.repeat(72))
      .filter((message) => message.includes(`to ${email}`))
      .join('\n')
      .match(/https?:\/\/[^"\s]+\/auth\/reiniciar-contrasena\/\?token=[\w-]+/g)
      ?.at(0);
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`no password e-mail for ${email} in the outbox`);
}
