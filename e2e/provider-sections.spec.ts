import { expect } from '@playwright/test';
import { PHONE_MESSAGE } from '../src/domain/phone';
import { PROVIDER_REQUEST_MESSAGES } from '../src/domain/provider-requests';
import { DEMO_PASSWORD, expectNoAxeViolations, logIn, operator, test } from './support';

// Issue 15's provider sections on the real server: the receivables list, the know-your-business tabs with
// their charts and table, and a referral the operator then reads with `ops referrals:list`.

test.beforeEach(async ({ page }) => {
  await logIn(page, 'proveedor.demo', DEMO_PASSWORD);
  await page.waitForURL('**/dashboard/pronto-pago/');
});

test('Cuentas por cobrar lists the invoices still owed with their status badges', async ({ page }) => {
  await page.goto('/dashboard/cuentas-por-cobrar/');
  await expect(page.getByRole('heading', { level: 1, name: 'Cuentas por cobrar' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Cuentas por cobrar' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  // No collected or cancelled invoice is owed.
  await expect(table.getByText('Pagada', { exact: true })).toHaveCount(0);
  await expect(table.getByText('Cancelada', { exact: true })).toHaveCount(0);
  await expect(table.getByText('Por Autorizar', { exact: true }).first()).toBeVisible();
  await page.getByRole('searchbox', { name: 'Buscar facturas' }).fill('no-existe-nada');
  await expect(page.getByText('No hay facturas para revisar')).toBeVisible();
  await expectNoAxeViolations(page);
});

test('Conoce tu empresa: keyboard tabs, the CFDI tables, the charts and their table, axe clean', async ({
  page,
}) => {
  await page.goto('/dashboard/conoce-tu-empresa/');
  const tabs = page.getByRole('tablist');
  await expect(tabs.getByRole('tab')).toHaveText(['Cuentas por cobrar', 'Cuentas por pagar', 'Indicadores']);
  await expect(page.getByRole('table', { name: 'CFDI emitidos' }).getByRole('row').nth(1)).toBeVisible();
  await expectNoAxeViolations(page);

  // Blueprint Tabs: arrow keys move between tabs, Enter opens one.
  await tabs.getByRole('tab', { name: 'Cuentas por cobrar' }).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('tab', { name: 'Cuentas por pagar' })).toHaveAttribute('aria-selected', 'true');
  // The demo world holds no received CFDI yet (decision 0038): the payables tab shows its empty state.
  await expect(page.getByText('No hay facturas para revisar')).toBeVisible();

  await page.getByRole('tab', { name: 'Indicadores' }).click();
  await expect(page).toHaveURL(/pestana=indicadores/);
  await expect(
    page.getByRole('figure', { name: 'Ingresos y egresos en MXN' }).locator('canvas').first(),
  ).toBeVisible();
  await expect(page.getByRole('figure')).toHaveCount(4);
  const table = page.getByRole('table', { name: 'Indicadores por mes' });
  await expect(table.getByRole('rowheader').first()).toHaveText(/^\d{4}-\d{2}$/);
  await expect(table.getByRole('columnheader', { name: 'Capital neto MXN' })).toBeVisible();
  await expectNoAxeViolations(page);
});

test('Referir cliente: the server’s message for 3 s, a cleared form, and the operator lists it', async ({
  page,
}) => {
  await page.goto('/dashboard/referir-cliente/');
  await page.getByRole('button', { name: 'Enviar recomendación' }).click();
  await expect(page.getByText('Este campo es obligatorio')).toHaveCount(4);
  const company = `Distribuidora E2E ${Date.now()}`;
  await page.getByLabel('Nombre').fill('Marta Ibáñez');
  await page.getByLabel('Empresa').fill(company);
  await page.getByLabel('Correo electrónico').fill('marta@ibanez.example.mx');
  await page.getByLabel('Teléfono').fill('55-11');
  await page.getByRole('button', { name: 'Enviar recomendación' }).click();
  await expect(page.getByText(PHONE_MESSAGE)).toBeVisible();
  await page.getByLabel('Teléfono').fill('5511223344');
  await page.getByRole('button', { name: 'Enviar recomendación' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: PROVIDER_REQUEST_MESSAGES.referralSent }),
  ).toBeVisible();
  await expect(page.getByLabel('Empresa')).toHaveValue('');
  await expectNoAxeViolations(page);
  await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 6000 });
  expect(operator('referrals:list', '--limit', '5')).toContain(
    `Marta Ibáñez  ${company}  marta@ibanez.example.mx  5511223344  [por proveedor.demo`,
  );
});
