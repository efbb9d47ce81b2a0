import { expect, type Page } from '@playwright/test';
import { totpCode } from '../server/modules/auth/totp';
import { MAX_LENGTH } from '../src/domain/schemas/fields';
import { OPERATOR_SECTIONS } from '../src/views/operator/operator-sections';
import { createOperatorAccount, expectNoAxeViolations, passwordLinkFor, test } from './support';

// Issue 33's back office on a phone: every screen at 375 px reads its lists as cards, without sideways scroll and
// axe clean; a demo request's company at the form's cap keeps the inbox's columns on screen at 1280 px; one
// visit is one row of the bitácora, its time as DD/MM/YYYY HH:mm.

const WAIT = { timeout: 30_000 };
const PASSWORD = 'Girasol-Norte-77';

/** The page's h1 of each section (the nav's label where they differ). */
const HEADINGS: Record<string, string> = {
  Programas: 'Programas de crédito',
  Exposición: 'Exposición y concentración',
};

async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    inner: window.innerWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
}

/** The screen once its data is in: no spinner left, no sideways scroll, axe clean. */
async function expectNarrowScreenFits(page: Page) {
  await expect(page.locator('.bp6-spinner')).toHaveCount(0, WAIT);
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);
}

test('the back office at 375 px: every screen without sideways scroll, lists as cards; each visit one bitácora row', async ({
  page,
  request,
}) => {
  test.setTimeout(4 * 60_000);
  const id = Date.now().toString(36);
  const username = `operadora.angosta.${id}`;
  const email = `${username}@flujo.mx`;
  const secret = createOperatorAccount(username, email, 'analista,aprobador,tesoreria,auditor');
  // A company named at the demo form's cap, one word: it must wrap on the card and be cut in the table.
  const company = `Comercializadora${id}`.padEnd(MAX_LENGTH.demoCompany, 'X');
  const demo = await request.post('/api/accounts/request-demo/', {
    data: {
      first_name: 'Ana',
      last_name: 'Torres',
      phone: '5598765432',
      email: `ana.${id}@ejemplo.mx`,
      company,
    },
  });
  expect(demo.status()).toBe(201);

  await page.goto(await passwordLinkFor(email));
  await page.getByLabel('Nueva contraseña').fill(PASSWORD);
  await page.getByRole('button', { name: /Guardar|Cambiar/ }).click();
  await expect(page).toHaveURL(/\/auth\/ingresar\/$/, WAIT);

  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/operacion/ingresar/');
  await page.getByLabel('Usuario', { exact: true }).fill(username);
  await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Contraseña', { exact: true }).press('Enter');
  const code = page.getByLabel('Código de verificación', { exact: true });
  await expect(code).toBeVisible(WAIT);
  await code.fill(totpCode(secret, new Date()));
  await code.press('Enter');
  await expect(page).toHaveURL(/\/operacion\/mesa\/$/, WAIT);

  for (const section of OPERATOR_SECTIONS) {
    await test.step(section.label, async () => {
      await page.getByRole('link', { name: section.label, exact: true }).click();
      await expect(
        page.getByRole('heading', { level: 1, name: HEADINGS[section.label] ?? section.label }),
      ).toBeVisible(WAIT);
      await expectNarrowScreenFits(page);
    });
  }

  await test.step("a corporate's file and a programme's movements", async () => {
    await page.getByRole('link', { name: 'Corporativos', exact: true }).click();
    await page
      .getByRole('button', { name: /Grupo Altamira/ })
      .first()
      .click(WAIT);
    await expect(page.getByRole('heading', { level: 1, name: /Grupo Altamira/ })).toBeVisible(WAIT);
    await expectNarrowScreenFits(page);

    await page.getByRole('link', { name: 'Programas', exact: true }).click();
    const programmes = page.getByRole('table', { name: 'Programas de crédito' });
    await programmes.getByRole('button', { name: 'Ver movimientos' }).first().click(WAIT);
    // Each row a card: its label before its value, its actions named as in the table.
    await expect(page.getByRole('table', { name: 'Movimientos del programa' })).toBeVisible(WAIT);
    await expect(
      programmes.getByRole('cell', { name: /^Límite y vigencia\s*\$[\d,]+\.\d{2} MXN/ }),
    ).toBeVisible();
    await expectNarrowScreenFits(page);
  });

  await test.step('the inbox cuts a long company in its column and shows it whole on focus', async () => {
    // A full load this time (the page's own address), the visit that used to be called twice.
    await page.goto('/operacion/bandeja/');
    const inbox = page.getByRole('table', { name: /Solicitudes de demo/ });
    await expect(inbox.getByText(company)).toBeVisible(WAIT);
    await expectNoSidewaysScroll(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    const cell = inbox.getByText(company);
    await expect(cell).toHaveAttribute('title', company);
    const box = await cell.boundingBox();
    const before = box?.height ?? 0;
    // The table's columns stay in its box: no sideways scroll in its own region either.
    const region = page.locator('.flujo-operator-table-scroll').first();
    expect(await region.evaluate((node) => node.scrollWidth <= node.clientWidth)).toBe(true);
    await cell.focus();
    await expect.poll(async () => (await cell.boundingBox())?.height ?? 0).toBeGreaterThan(before);
    await expectNoAxeViolations(page);
  });

  await test.step("the bitácora lists the inbox's two visits once each, their time DD/MM/YYYY HH:mm", async () => {
    await page.getByRole('link', { name: 'Bitácora', exact: true }).click();
    await page.getByLabel('Operador').fill(username);
    await page.getByLabel('Acción').fill('Consultar la bandeja');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    const audit = page.getByRole('table', { name: 'Bitácora' });
    // From the nav, then by its address.
    await expect(audit.getByRole('cell', { name: 'Consultar la bandeja' })).toHaveCount(2, WAIT);
    await expect(page.getByText('2 acciones', { exact: true })).toBeVisible();
    await expect(audit.locator('tbody tr td').first()).toHaveText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
  });
});
