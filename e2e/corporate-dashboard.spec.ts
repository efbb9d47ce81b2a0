import { expect, type Page } from '@playwright/test';
import { CORPORATE_MESSAGES } from '../server/modules/corporates/corporates.service';
import { CORPORATE_STATUS_MEANINGS, InvoiceStatus } from '../src/domain/invoice-status';
import { paths } from '../src/domain/paths';
import { DEMO_PASSWORD, expectNoAxeViolations, horizontalOverflow, logIn, test } from './support';

// Round trips to the real server on a loaded machine: generous, explicit waits.
const WAIT = { timeout: 15_000 };
const CHECKBOX_PREFIX = 'Seleccionar factura ';

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Secciones del dashboard' });

/** The demo corporate signs in and lands on its 'Cuentas por Pagar' view, the summary (decision 0065). */
async function openCorporateView(page: Page) {
  await logIn(page, 'corporativo.demo', DEMO_PASSWORD);
  await expect(page).toHaveURL(new RegExp(`${paths.invoiceSummary}$`), WAIT);
  await expect(page.getByRole('heading', { level: 1, name: 'Resumen de facturas' })).toBeVisible(WAIT);
  await expect(page.getByRole('button', { name: 'Cuentas por Pagar' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
}

/** A date a week from today, as the browser's date field takes it. */
function aWeekFromToday(): string {
  const date = new Date(Date.now() + 7 * 24 * 60 * 60 * 1000);
  return date.toISOString().slice(0, 10);
}

/** The folio fiscal of the first request in the list (its checkbox is named by it). */
/** Ticks a row's checkbox the way a user does: Blueprint draws the box over the input, so the click goes there. */
async function selectRequest(page: Page, uuid: string) {
  const box = page.getByRole('checkbox', { name: `${CHECKBOX_PREFIX}${uuid}` });
  await page.locator('label', { has: box }).click();
  await expect(box).toBeChecked(WAIT);
}

async function firstRequestUuid(page: Page): Promise<string> {
  const box = page.getByRole('checkbox', { name: new RegExp(`^${CHECKBOX_PREFIX}`) }).first();
  await expect(box).toBeVisible(WAIT);
  const name = await box.getAttribute('aria-label');
  return (name ?? '').slice(CHECKBOX_PREFIX.length);
}

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the demo corporate lands on its summary, filters by status, answers two requests and switches views', async ({
    page,
  }) => {
    await openCorporateView(page);
    await expect(page.locator('.flujo-dashboard')).toHaveClass(/bp6-dark/);

    // The three stat cards, filled from the summary's first page.
    const cards = page.getByRole('region', { name: 'Indicadores' });
    for (const label of ['Facturas', 'Clientes', 'Monto Total']) {
      await expect(cards.getByRole('heading', { name: label })).toBeVisible(WAIT);
    }
    await expect(cards.locator('.bp6-skeleton')).toHaveCount(0, WAIT);
    await expect(cards.getByText(/MXN$/)).toBeVisible();
    const table = page.getByRole('table', { name: 'Facturas recibidas' });
    await expect(table.getByRole('columnheader')).toHaveText([
      'Estado',
      'Folio',
      'RFC',
      'Cliente',
      'Fecha de emisión',
      'Fecha de pago',
      'Monto',
      'Descripción',
      // Each row's Historial (with the CFDI's proof, issue 30).
      'Acciones',
    ]);
    await expect(table.locator('tbody tr').first()).toBeVisible(WAIT);
    await page.waitForLoadState('networkidle', WAIT);
    await expectNoAxeViolations(page);

    // The status filter lives in the URL; every row left is Solicitado, explained on keyboard focus.
    await page.getByLabel('Estatus').selectOption(String(InvoiceStatus.PENDING));
    await expect(page).toHaveURL(new RegExp(`[?&]status=${InvoiceStatus.PENDING}`), WAIT);
    const badges = table.locator('.flujo-status-explained');
    await expect(badges.first()).toHaveText('Solicitado', WAIT);
    await expect(table.locator('tbody tr .bp6-tag').filter({ hasNotText: 'Solicitado' })).toHaveCount(
      0,
      WAIT,
    );
    await badges.first().focus();
    await expect(page.locator('.bp6-tooltip')).toHaveText(
      CORPORATE_STATUS_MEANINGS[InvoiceStatus.PENDING],
      WAIT,
    );

    // Supplier requests: authorize one with a payment date.
    await sidebar(page).getByRole('link', { name: 'Solicitudes' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Solicitudes' })).toBeVisible(WAIT);
    const authorized = await firstRequestUuid(page);
    const authorizedRow = page.getByRole('row').filter({
      has: page.getByRole('checkbox', { name: `${CHECKBOX_PREFIX}${authorized}` }),
    });
    await selectRequest(page, authorized);
    await authorizedRow.getByLabel(/^Fecha de pago /).fill(aWeekFromToday());
    await page.getByRole('button', { name: 'Autorizar' }).click();
    const alert = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Cerrar' }) });
    await expect(alert.getByText(CORPORATE_MESSAGES.authorizedOne)).toBeVisible(WAIT);
    await alert.getByRole('button', { name: 'Cerrar' }).click();
    await expect(page.getByRole('checkbox', { name: `${CHECKBOX_PREFIX}${authorized}` })).toHaveCount(
      0,
      WAIT,
    );

    // Reject another with a reason.
    const rejected = await firstRequestUuid(page);
    expect(rejected).not.toBe(authorized);
    await selectRequest(page, rejected);
    await page.getByRole('button', { name: 'Rechazar' }).click();
    const confirm = page.getByRole('dialog', { name: 'Rechazar solicitudes' });
    await confirm.getByLabel('Motivo (opcional)').fill('El monto no coincide con la orden de compra.');
    await confirm.getByRole('button', { name: 'Rechazar' }).click();
    await expect(alert.getByText(CORPORATE_MESSAGES.rejectedOne)).toBeVisible(WAIT);
    await alert.getByRole('button', { name: 'Cerrar' }).click();
    await expect(page.getByRole('checkbox', { name: `${CHECKBOX_PREFIX}${rejected}` })).toHaveCount(0, WAIT);
    await page.waitForLoadState('networkidle', WAIT);
    // Axe judges the settled page: a dialog still fading out has its text at partial contrast.
    await expect(page.getByRole('dialog')).toHaveCount(0, WAIT);
    await expectNoAxeViolations(page);

    // 'Cuentas por Cobrar' is the provider view (light), remembered across a reload; and back.
    await page.getByRole('button', { name: 'Cuentas por Cobrar' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Pronto Pago' })).toBeVisible(WAIT);
    await expect(page.locator('.flujo-dashboard')).not.toHaveClass(/bp6-dark/);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Pronto Pago' })).toBeVisible(WAIT);
    await expect(page.getByRole('button', { name: 'Cuentas por Cobrar' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await page.getByRole('button', { name: 'Cuentas por Pagar' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Resumen de facturas' })).toBeVisible(WAIT);
    await expect(page.locator('.flujo-dashboard')).toHaveClass(/bp6-dark/);

    // Spec §2: any other dashboard path takes the corporate to its summary.
    await page.goto('/dashboard/no-existe/');
    await expect(page).toHaveURL(new RegExp(`${paths.invoiceSummary}$`), WAIT);
  });
});

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the summary reads as cards without sideways scroll', async ({ page }) => {
    await openCorporateView(page);
    const table = page.getByRole('table', { name: 'Facturas recibidas' });
    const first = table.locator('tbody tr').first();
    await expect(first).toBeVisible(WAIT);
    await expect(first.locator('.flujo-status-explained')).toBeVisible();
    expect(await horizontalOverflow(page), 'the page scrolls sideways').toBe(0);
    const box = await first.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
  });
});
