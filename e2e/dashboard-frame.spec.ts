import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, logIn } from './support';

// The dashboard frame (decision 0033), with Playwright's own `test`: these pages keep it.
const WAIT = { timeout: 15_000 };
const FRAME = '#flujo-frame';

test('a dashboard section document paints its page before any script runs', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/dashboard/pronto-pago/');
  const frame = page.locator(FRAME);
  await expect(frame).toBeVisible(WAIT);
  await expect(frame.locator('h1')).toHaveText('Pronto Pago');
  await expect(frame).toContainText('¿Qué puedes hacer aquí?');
  await expect(frame).toContainText(
    'Visualiza tus cuentas por cobrar y adelanta su pago con una tasa preferencial.',
  );
  await expect(frame.locator('nav a')).toContainText(['Pronto Pago', 'Facturas adelantadas']);
  await expect(frame.locator('.flujo-dashboard-brand')).toContainText('Flujo');
  // Styled by its own rules (the stylesheet is not applied without the app): the header is a bar, not a list.
  await expect(frame.locator('.flujo-dashboard-header')).toHaveCSS('display', 'flex');
  // Nobody can act on the picture: it is inert, and no script has started the app.
  await expect(frame).toHaveAttribute('inert', '');
  await expect(page.locator('#root')).toBeEmpty();
  await context.close();
});

test('the live page replaces the frame for a signed-in provider; a signed-out visitor is sent home', async ({
  page,
  browser,
}) => {
  await logIn(page, 'proveedor.demo', DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard\/pronto-pago\/$/, WAIT);
  await page.goto('/dashboard/pronto-pago/');
  await expect(page.getByRole('checkbox', { name: /^Seleccionar factura / }).first()).toBeVisible(WAIT);
  await expect(page.locator(FRAME)).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'Pronto Pago' })).toHaveCount(1);
  await expect(page.locator('link[data-deferred-stylesheet]')).toHaveAttribute('media', 'all');

  const visitor = await browser.newPage();
  await visitor.goto('/dashboard/pronto-pago/');
  await expect(visitor).toHaveURL(/\/inicio\/$/, WAIT);
  await expect(visitor.locator(FRAME)).toHaveCount(0);
  await visitor.close();
});
