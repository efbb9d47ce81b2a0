import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import dayjs from 'dayjs';
import ExcelJS from 'exceljs';
import { AUDIT_RANGE_MESSAGES, AUDIT_TRAIL_COLUMNS, MAX_AUDIT_RANGE_DAYS } from '../src/domain/audit-trail';
import { paths } from '../src/domain/paths';
import { DEMO_PASSWORD, expectNoAxeViolations, logIn, test } from './support';

// Issue 17's audit trail export on the real server (demo world): the corporate downloads its 'Bitácora de
// auditoría' from Estado de cuenta and exceljs opens it; the provider, on Cuentas por cobrar, meets the range
// rules and the empty range. Screenshots of the panel go to test-results/ (1280, 1024 and 375 px).

const WAIT = { timeout: 30_000 };

async function setRange(page: Page, from: string, to: string): Promise<void> {
  await page.getByLabel('Desde').fill(from);
  await page.getByLabel('Hasta').fill(to);
}

async function shoot(page: Page, name: string): Promise<void> {
  const panel = page.getByRole('region', { name: 'Bitácora de auditoría' });
  for (const width of [1280, 1024, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('the corporate downloads the audit trail of its received invoices as XLSX', async ({ page }) => {
  test.setTimeout(120_000);
  await logIn(page, 'corporativo.demo', DEMO_PASSWORD);
  // A corporate account lands on its buyer's side, 'Cuentas por Pagar' (decision 0065).
  await expect(page).toHaveURL(new RegExp(`${paths.invoiceSummary}$`), WAIT);
  await page.getByRole('link', { name: 'Estado de cuenta' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Estado de cuenta' })).toBeVisible(WAIT);
  const panel = page.getByRole('region', { name: 'Bitácora de auditoría' });
  await expect(panel).toBeVisible(WAIT);
  const today = dayjs().format('YYYY-MM-DD');
  const from = dayjs()
    .subtract(MAX_AUDIT_RANGE_DAYS - 1, 'day')
    .format('YYYY-MM-DD');
  await setRange(page, from, today);
  await expectNoAxeViolations(page);
  await shoot(page, 'corporate');

  const button = panel.getByRole('button', { name: 'Descargar XLSX' });
  await button.focus();
  const [download] = await Promise.all([page.waitForEvent('download', WAIT), page.keyboard.press('Enter')]);
  expect(download.suggestedFilename()).toBe(`bitacora-auditoria-${from}-a-${today}.xlsx`);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(readFileSync(await download.path()) as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([...AUDIT_TRAIL_COLUMNS]);
  expect(sheet.rowCount).toBeGreaterThan(10);
  await expect(panel.getByText(`Se descargó la bitácora del ${from} al ${today}.`)).toBeVisible();
});

test('the provider meets the range rules and an empty range on Cuentas por cobrar', async ({ page }) => {
  test.setTimeout(120_000);
  await logIn(page, 'proveedor.demo', DEMO_PASSWORD);
  await expect(page).toHaveURL(new RegExp(`${paths.prontoPago}$`), WAIT);
  await page.goto(paths.receivables);
  const panel = page.getByRole('region', { name: 'Bitácora de auditoría' });
  await expect(panel).toBeVisible(WAIT);
  const button = panel.getByRole('button', { name: 'Descargar XLSX' });

  await setRange(page, '2026-03-01', '2026-02-01');
  await expect(panel.getByText(AUDIT_RANGE_MESSAGES.toBeforeFrom)).toBeVisible();
  await expect(button).toBeDisabled();
  await shoot(page, 'provider-invalid');

  await setRange(page, '2001-01-01', '2001-01-31');
  await expect(button).toBeEnabled();
  await button.click();
  await expect(
    panel.getByText(/No hay cambios de estado de tus facturas entre el 2001-01-01 y el 2001-01-31/),
  ).toBeVisible(WAIT);
  await expectNoAxeViolations(page);
  await shoot(page, 'provider-empty');
});
