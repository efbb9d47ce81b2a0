import { expect } from '@playwright/test';
import { operator, test } from './support';

test('the public home page loads from the real server', async ({ page }) => {
  await page.goto('/inicio/');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Cobra tus facturas hoy, sin deuda' }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ingresar' })).toBeVisible();
});

test('unknown paths fall back to /inicio/', async ({ page }) => {
  await page.goto('/no-existe/');
  await expect(page).toHaveURL(/\/inicio\/$/);
});

test('auditors see every machine diagram on /diagramas/', async ({ page }) => {
  // 'todas' lists every machine on one page (the printable view); each diagram is fetched as it is shown.
  await page.goto('/diagramas/?maquina=todas');
  await expect(page.getByRole('heading', { level: 1, name: 'Diagramas de flujo de trabajo' })).toBeVisible();
  for (const title of ['Ciclo de vida de la factura', 'Solicitud de demo']) {
    await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible();
    const diagram = page.getByRole('img', { name: `Diagrama de estados: ${title}` });
    await diagram.scrollIntoViewIfNeeded();
    await expect(diagram).toBeVisible({ timeout: 30_000 });
    // The SVG really arrived: its states are drawn.
    await expect(diagram.locator('g.flujo-state').first()).toBeAttached();
  }
});

test('a visitor requests a demo and the server stores it', async ({ page, request }) => {
  await page.goto('/solicitar-demo/');
  await page.getByLabel('Nombre').fill('Ana');
  await page.getByLabel('Apellido').fill('Torres');
  await page.getByLabel('Teléfono').fill('5598765432');
  await page.getByLabel('Correo electrónico').fill('ana.torres@example.mx');
  await page.getByLabel('Empresa').fill('Maquiladora Norte');
  await page.getByRole('button', { name: 'Solicitar demo' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Solicitud enviada con éxito' })).toBeVisible();
  await expect(page.getByLabel('Nombre')).toHaveValue('');
  const health = await request.get('/api/health/');
  expect(await health.json()).toEqual({ status: 'ok', database: 'pglite' });
  expect(operator('demo-requests:list', '--limit', '20')).toContain(
    'Ana Torres  Maquiladora Norte  ana.torres@example.mx  5598765432',
  );
});
