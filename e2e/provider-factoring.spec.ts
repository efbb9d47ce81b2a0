import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import dayjs from 'dayjs';
import ExcelJS from 'exceljs';
import { buildCfdiXml } from '../server/cfdi/build-cfdi';
import { formatMxn, parseMoney } from '../src/domain/money';
import { stampedUuid } from '../test/fixtures/cfdi';
import { testAuthority } from '../test/support/demo-authority';
import { DEMO_PASSWORD, expectNoAxeViolations, logIn, operator, test } from './support';

// Issue 15's journey on the real server: the demo provider asks for factoring, the operator grants the line,
// the provider factors a 100,000.00 MXN invoice in 3 instalments, sees its line used, finds the transfer and
// its schedule in the statement, downloads the report, and refers a customer the operator then lists.

const DEMO_PROVIDER = { rfc: 'EBA120815RTA', name: 'Empaques del Bajío, S.A. de C.V.' };
const DEMO_CORPORATE = { rfc: 'GAA150312K78', name: 'Grupo Altamira Alimentos, S.A. de C.V.' };

/** A 100,000.00 MXN CFDI from the demo provider to the demo corporate (subtotal + 16 % IVA), imported by ops. */
function importInvoice(folio: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'flujo-e2e-factoring-'));
  try {
    const file = join(dir, `${folio}.xml`);
    const xml = buildCfdiXml(
      {
        serie: 'F',
        folio,
        issuedAt: `${dayjs().subtract(1, 'day').format('YYYY-MM-DD')}T10:15:00`,
        issuer: DEMO_PROVIDER,
        receiver: DEMO_CORPORATE,
        subtotal: '86206.90',
        currency: 'MXN',
        paymentMethod: 'PPD',
        description: 'Cajas de cartón para exportación',
      },
      testAuthority(),
    );
    writeFileSync(file, xml);
    expect(operator('cfdi:import', file)).toMatch(/1 importadas, 0 rechazadas/);
    return stampedUuid(xml);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The row of the invoice with this folio fiscal (its copy button names it). */
function row(page: Page, uuid: string) {
  return page
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: `Copiar folio fiscal ${uuid}` }) });
}

/** The balance card's figure, as centavos. */
async function balanceFigure(page: Page, label: string): Promise<number> {
  const card = page.locator('.flujo-header-card', {
    has: page.getByRole('heading', { name: 'Línea de factoraje' }),
  });
  const value = card.locator('.flujo-header-card-figure', { hasText: label }).locator('dd');
  await expect(value).toHaveText(/^\$/);
  return parseMoney((await value.innerText()).replace(/[$,\s]|MXN/g, ''));
}

test('the demo provider enrols in factoring, factors an invoice in 3 instalments and finds it in its statement', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const id = Date.now().toString(36).toUpperCase();
  const folio = `FX${id.slice(-6)}`;
  const uuid = importInvoice(folio);

  // 1. Without a line, 'Solicitar Factoraje' files the enable request and says so (spec §8).
  await logIn(page, 'proveedor.demo', DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard\/pronto-pago\/$/, { timeout: 30_000 });
  await page.goto('/dashboard/factoraje/');
  await page.getByRole('searchbox', { name: 'Buscar facturas' }).fill(uuid);
  await page.getByRole('button', { name: `Solicitar Factoraje ${uuid}` }).click();
  const notEnabled = page
    .getByRole('dialog')
    .filter({ hasText: 'tu cuenta no está habilitada para este beneficio' });
  await expect(notEnabled).toBeVisible({ timeout: 30_000 });
  await notEnabled.getByRole('button', { name: 'Cerrar' }).click();

  // 2. The operator sees the request and grants a 500,000.00 MXN line.
  expect(operator('factoring:requests')).toContain(DEMO_PROVIDER.rfc);
  operator('factoring:enable', DEMO_PROVIDER.rfc, '--line', '500000', '--rate', '18.5');

  // 3. The balance card appears; the quote panel offers the four instalment options.
  await page.reload();
  const usedBefore = await balanceFigure(page, 'Utilizado');
  await page.getByRole('searchbox', { name: 'Buscar facturas' }).fill(uuid);
  await page.getByRole('button', { name: `Solicitar Factoraje ${uuid}` }).click();
  const panel = page.getByRole('dialog', { name: 'Solicitar Factoraje' });
  await expect(panel.locator('[data-figure="Monto de la factura"]')).toHaveText('$100,000.00 MXN', {
    timeout: 30_000,
  });
  const options = panel.getByRole('radio');
  await expect(options).toHaveCount(4);
  for (const [n, days] of [
    [1, 30],
    [2, 60],
    [3, 90],
    [4, 120],
  ] as const) {
    await expect(panel.getByText(new RegExp(`^${n} pagos? a ${days} días: \\$`))).toBeVisible();
  }
  await expect(panel.locator('[data-figure="Honorarios de asesoría (IVA incluido)"]')).toHaveText(
    '$1,160.00 MXN',
  );
  await expect(panel.locator('[data-figure="Monto a transferir hoy"]')).toHaveText('$98,840.00 MXN');
  await expectNoAxeViolations(page);

  // 4. Three instalments, 'Transferir': the success dialog, and the row is in factoring.
  // Blueprint draws the radio's indicator over the input: the person clicks the option's label.
  await panel.locator('label', { hasText: /^3 pagos a 90 días/ }).click();
  await expect(panel.getByRole('radio', { name: /^3 pagos a 90 días/ })).toBeChecked();
  await panel.getByRole('button', { name: 'Transferir' }).click();
  const success = page
    .getByRole('alertdialog')
    .or(page.getByRole('dialog'))
    .filter({ hasText: /factoraje/i })
    .last();
  await expect(success).toBeVisible({ timeout: 30_000 });
  await success.getByRole('button', { name: 'Cerrar' }).click();
  await expect(row(page, uuid).locator('[data-status="90"]')).toHaveAttribute(
    'title',
    'La factura está en factoraje.',
  );

  // 5. The line's used amount rose by exactly the invoice amount.
  await page.reload();
  await expect
    .poll(() => balanceFigure(page, 'Utilizado'), { timeout: 30_000 })
    .toBe(usedBefore + 10_000_000);

  // 6. The statement lists the transfer and its three instalments, and its balance card agrees.
  await page.goto('/dashboard/estado-de-cuenta/');
  await expect(page.getByRole('heading', { level: 1, name: 'Estado de cuenta' })).toBeVisible({
    timeout: 30_000,
  });
  expect(await balanceFigure(page, 'Utilizado')).toBe(usedBefore + 10_000_000);
  await page.getByRole('searchbox', { name: 'Buscar facturas' }).fill(uuid);
  await page.getByRole('button', { name: new RegExp(`^Calendario de la factura .*${folio}$`) }).click();
  const schedule = page.getByRole('dialog', { name: 'Calendario de pagos' });
  await expect(schedule.getByText('Transferencia de factoraje')).toBeVisible();
  await expect(schedule.getByText(formatMxn(9_884_000)).first()).toBeVisible();
  for (const n of [1, 2, 3]) await expect(schedule.getByText(`Parcialidad ${n} de 3`)).toBeVisible();
  await expect(schedule.getByText(/^Parcialidad \d de 3$/)).toHaveCount(3);
  await expectNoAxeViolations(page);
  await schedule.getByRole('button', { name: 'Cerrar' }).click();
  await expect(schedule).toBeHidden();

  // 7. 'Descargar seleccionados' for that row: a real XLSX with the row and its movements.
  const box = page.getByRole('checkbox', { name: `Seleccionar factura ${uuid}` });
  await page.locator('label', { has: box }).click();
  await expect(box).toBeChecked();
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 30_000 }),
    page.getByRole('button', { name: 'Descargar seleccionados' }).click(),
  ]);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(readFileSync(await download.path()) as unknown as ArrayBuffer);
  const invoices = workbook.getWorksheet('Facturas')!;
  expect(invoices.rowCount).toBe(2);
  expect(JSON.stringify(invoices.getRow(2).values)).toContain(uuid);
  const movements: string[] = [];
  workbook.getWorksheet('Movimientos')!.eachRow((r) => movements.push(JSON.stringify(r.values)));
  expect(movements.filter((m) => m.includes(uuid) && /Parcialidad \d de 3/.test(m))).toHaveLength(3);
});
