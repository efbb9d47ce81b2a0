import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { paths } from '../src/domain/paths';
import { DEMO_PASSWORD, expectNoAxeViolations, logIn, test } from './support';

// Issue 15's account statement on the real server (demo world): each role opens /dashboard/estado-de-cuenta/,
// reads a row's movements, selects rows and downloads the XLSX report, which exceljs opens.

const WAIT = { timeout: 30_000 };
const SELECT_PREFIX = 'Seleccionar factura ';

/** The folio fiscal of each row's checkbox, in table order. */
async function rowFolios(page: Page): Promise<string[]> {
  const labels = await page
    .getByRole('checkbox', { name: /^Seleccionar factura / })
    .evaluateAll((boxes) => boxes.map((box) => box.getAttribute('aria-label') ?? ''));
  return labels.map((label) => label.replace(SELECT_PREFIX, ''));
}

/** Clicks 'Descargar seleccionados', waits for the file and opens it with exceljs. */
async function downloadReport(page: Page): Promise<{ name: string; workbook: ExcelJS.Workbook }> {
  const button = page.getByRole('button', { name: 'Descargar seleccionados' });
  await expect(button).toBeEnabled();
  const [download] = await Promise.all([page.waitForEvent('download', WAIT), button.click()]);
  const file = await download.path();
  const workbook = new ExcelJS.Workbook();
  // exceljs types its input as the Buffer of older @types/node; the bytes are the same.
  await workbook.xlsx.load(readFileSync(file) as unknown as ArrayBuffer);
  return { name: download.suggestedFilename(), workbook };
}

function uuidsIn(sheet: ExcelJS.Worksheet): string[] {
  const header = sheet.getRow(1).values as unknown[];
  const column = header.indexOf('Folio fiscal');
  const uuids: string[] = [];
  sheet.eachRow((row, number) => {
    if (number > 1) uuids.push(String(row.getCell(column).value));
  });
  return uuids;
}

test('the corporate reads a row’s movements and downloads the report of two selected invoices', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await logIn(page, 'corporativo.demo', DEMO_PASSWORD);
  await expect(page).toHaveURL(new RegExp(`${paths.invoiceSummary}$`), WAIT);
  await page.getByRole('link', { name: 'Estado de cuenta' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Estado de cuenta' })).toBeVisible(WAIT);
  await expect(page.getByRole('checkbox', { name: /^Seleccionar factura / }).first()).toBeVisible(WAIT);
  await expect(page.getByRole('heading', { name: 'Próximas fechas de corte' })).toBeVisible();
  // What the corporate pays Flujo on the next cut-off date (indicators payment_date and total_by_date).
  await expect(
    page.getByRole('region', { name: 'Indicadores' }).getByText(/^A pagar: \$[\d,]+\.\d{2}/),
  ).toBeVisible(WAIT);
  await expectNoAxeViolations(page);

  // A row's movements: Flujo's advance to the provider and the repayment on the cut-off date.
  await page
    .getByRole('button', { name: /^Movimientos de la factura / })
    .first()
    .click();
  const drawer = page.getByRole('dialog', { name: 'Movimientos de la factura' });
  await expect(drawer.getByText('Pago a Flujo en la fecha de corte')).toBeVisible();
  await expectNoAxeViolations(page);
  await drawer.getByRole('button', { name: 'Cerrar' }).click();
  await expect(drawer).toBeHidden();

  const folios = (await rowFolios(page)).slice(0, 2);
  for (const folio of folios) {
    // Blueprint's checkbox input is visually hidden: its label takes the click (as in corporate-dashboard.spec).
    const box = page.getByRole('checkbox', { name: `${SELECT_PREFIX}${folio}` });
    await page.locator('label', { has: box }).click();
    await expect(box).toBeChecked(WAIT);
  }
  const { name, workbook } = await downloadReport(page);
  expect(name).toMatch(/^estado-de-cuenta-\d{4}-\d{2}-\d{2}\.xlsx$/);
  expect(uuidsIn(workbook.getWorksheet('Facturas')!).sort()).toEqual([...folios].sort());
  expect(workbook.getWorksheet('Movimientos')!.rowCount).toBeGreaterThan(2);
  await expect(page.getByText('Se descargó el reporte de 2 facturas.')).toBeVisible();
});

test('the provider selects all its statement rows, downloads them all, and select-all toggles back to none', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await logIn(page, 'proveedor.demo', DEMO_PASSWORD);
  await expect(page).toHaveURL(new RegExp(`${paths.prontoPago}$`), WAIT);
  await page.goto(paths.accountStatement);
  await expect(page.getByRole('heading', { level: 1, name: 'Estado de cuenta' })).toBeVisible(WAIT);
  await expect(page.getByRole('checkbox', { name: /^Seleccionar factura / }).first()).toBeVisible(WAIT);
  await expectNoAxeViolations(page);

  const selectAll = page.getByRole('button', { name: 'Seleccionar todos' });
  await selectAll.click();
  await expect(selectAll).toHaveAttribute('aria-pressed', 'true');
  const folios = await rowFolios(page);
  const { workbook } = await downloadReport(page);
  expect(uuidsIn(workbook.getWorksheet('Facturas')!).sort()).toEqual([...folios].sort());
  // 'Seleccionar todos' again selects none, and the download is disabled without a selection.
  await selectAll.click();
  await expect(selectAll).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByRole('button', { name: 'Descargar seleccionados' })).toBeDisabled();
});
