import { expect, type Page } from '@playwright/test';
import { paths } from '../src/domain/paths';
import { DEMO_PASSWORD, expectNoAxeViolations, logIn, test } from './support';

// Round trips to the real server on a loaded machine: generous, explicit waits.
const WAIT = { timeout: 15_000 };

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Secciones del dashboard' });

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the provider dashboard is light, with the brand, the user menu and a sidebar with icons; axe passes', async ({
    page,
  }) => {
    await logIn(page, 'proveedor.demo', DEMO_PASSWORD);
    await expect(page).toHaveURL(new RegExp(`${paths.prontoPago}$`), WAIT);
    await expect(page.getByRole('heading', { level: 1, name: 'Pronto Pago' })).toBeVisible(WAIT);

    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Flujo' })).toBeVisible();
    await expect(header.getByRole('button', { name: 'Mi cuenta' })).toBeVisible();
    // The slide-in menu's toggle is for narrow screens only.
    await expect(page.getByRole('button', { name: 'Abrir menú' })).toBeHidden();

    const nav = sidebar(page);
    await expect(nav).toBeVisible();
    const links = nav.getByRole('link');
    await expect(links).toHaveText([
      'Pronto Pago',
      'Facturas adelantadas',
      'Factoraje',
      'Conoce tu empresa',
      'Cuentas por cobrar',
      'Referir cliente',
    ]);
    for (const link of await links.all()) await expect(link.locator('svg')).toHaveCount(1);
    await expect(nav.getByRole('link', { name: 'Pronto Pago' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
    // The sidebar leaves the content the rest of the width (about 240 px).
    const box = await nav.boundingBox();
    expect(box?.width).toBeGreaterThan(200);
    expect(box?.width).toBeLessThanOrEqual(260);

    await expect(page.locator('.flujo-dashboard')).not.toHaveClass(/bp6-dark/);
    await expect(page.getByText('Monto total')).toBeVisible(WAIT);
    await expectNoAxeViolations(page);

    await header.getByRole('button', { name: 'Mi cuenta' }).click();
    await expect(page.getByRole('menuitem')).toHaveText(['Perfil', 'Cambiar clave', 'Cerrar sesión']);
    await expectNoAxeViolations(page);
  });

  test('the corporate dashboard is dark, marks its section and shows the spec tooltips; axe passes', async ({
    page,
  }) => {
    await logIn(page, 'corporativo.demo', DEMO_PASSWORD);
    await expect(page).toHaveURL(new RegExp(`${paths.invoiceSummary}$`), WAIT);
    await expect(page.getByRole('heading', { level: 1, name: 'Resumen de facturas' })).toBeVisible(WAIT);
    await expect(page.locator('.flujo-dashboard')).toHaveClass(/bp6-dark/);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Flujo' })).toBeVisible();

    const nav = sidebar(page);
    await expect(nav.getByRole('link', { name: 'Resumen de facturas' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    const tooltips = {
      'Resumen de facturas': 'Visualiza el estatus de cada factura',
      'Pre-autorización': 'Autoriza las facturas que deseas que tus proveedores puedan adelantar',
      Solicitudes: 'Revisa las facturas que tus proveedores desean adelantar',
    };
    for (const [label, tooltip] of Object.entries(tooltips)) {
      await expect(nav.getByRole('link', { name: label })).toHaveAccessibleDescription(tooltip);
    }
    await nav.getByRole('link', { name: 'Pre-autorización' }).hover();
    const shown = page.locator('.bp6-tooltip');
    await expect(shown).toHaveText(tooltips['Pre-autorización'], WAIT);
    await page.mouse.move(900, 600);
    await expect(shown).toBeHidden(WAIT);
    await page.waitForLoadState('networkidle', WAIT);
    await expectNoAxeViolations(page);
  });
});

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the sidebar is hidden and the menu button opens the slide-in menu', async ({ page }) => {
    await logIn(page, 'proveedor.demo', DEMO_PASSWORD);
    await expect(page.getByRole('heading', { level: 1, name: 'Pronto Pago' })).toBeVisible(WAIT);
    await expect(sidebar(page)).toBeHidden();

    const toggle = page.getByRole('button', { name: 'Abrir menú' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    const menu = page.getByRole('dialog', { name: 'Menú del dashboard' });
    await expect(menu).toBeVisible(WAIT);
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(menu.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', paths.prontoPago);
    await expect(menu.getByRole('link', { name: 'Pronto Pago' })).toHaveAttribute('aria-current', 'page');
    await expectNoAxeViolations(page);

    await menu.getByRole('link', { name: 'Facturas adelantadas' }).click();
    await expect(menu).toBeHidden(WAIT);
    await expect(page).toHaveURL(new RegExp(paths.advancedInvoices), WAIT);

    await toggle.click();
    await expect(menu.getByRole('link', { name: 'Facturas adelantadas' })).toHaveAttribute(
      'aria-current',
      'page',
      WAIT,
    );
    await menu.getByRole('button', { name: 'Cerrar menú' }).click();
    await expect(menu).toBeHidden(WAIT);
  });
});
