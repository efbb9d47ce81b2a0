import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import dayjs from 'dayjs';
import ExcelJS from 'exceljs';
import { zipSync } from 'fflate';
import { buildCfdiXml } from '../server/cfdi/build-cfdi';
import { sealRefusals } from '../server/cfdi/verify-cfdi';
import { DEMO_CORPORATE, DEMO_PROVIDERS } from '../server/seed/demo-world';
import { BULK_UPLOAD_MESSAGES, TEMPLATE_COLUMNS, TEMPLATE_SHEET_NAME } from '../src/domain/bulk-upload';
import { paths } from '../src/domain/paths';
import { PRE_AUTHORIZATION_STORE_KEY } from '../src/stores/storage-keys';
import { testAuthority } from '../test/support/demo-authority';
import { DEMO_PASSWORD, expectNoAxeViolations, logIn, operator, test } from './support';

// Issue 14's browser journeys on the real server: the demo corporate fills the downloaded template for 20
// invoices, uploads a ZIP of 30 new CFDI with one payment date, and drops a ZIP with a foreign receiver's XML
// (the error dialog names the file; closing it clears the stored pre-authorization). Issue 30: a ZIP with one
// forged CFDI (a genuine one edited after signing) is refused whole, the dialog naming the forged file with the
// seal's Spanish reason, and none of its three invoices reaches the corporate's list.

const WAIT = { timeout: 15_000 };
const UPLOAD_WAIT = { timeout: 45_000 };

test.describe.configure({ mode: 'serial' });

const [DEMO_PROVIDER] = DEMO_PROVIDERS;
/** A receiver that is not the demo corporate (an invented RFC with a valid check digit). */
const FOREIGN_RECEIVER = { rfc: 'CNO100823HX5', name: 'CORPORATIVO NORTEÑO' };
const RUN = dayjs().format('HHmmss');
const inDays = (days: number) => dayjs().add(days, 'day').format('YYYY-MM-DD');

/** A stamped CFDI 4.0 of the first demo provider, issued three days ago, to the demo corporate (or another). */
function cfdi(folio: string, receiver: { rfc: string; name: string } = DEMO_CORPORATE): string {
  return buildCfdiXml(
    {
      serie: 'BULK',
      folio,
      issuedAt: `${dayjs().subtract(3, 'day').format('YYYY-MM-DD')}T10:00:00`,
      issuer: { rfc: DEMO_PROVIDER.rfc, name: DEMO_PROVIDER.name },
      receiver,
      subtotal: '8620.69',
      currency: 'MXN',
      paymentMethod: 'PPD',
      description: 'Servicio de la carga masiva',
    },
    testAuthority(),
  );
}

function zipOf(files: Record<string, string>): Buffer {
  const entries: Record<string, Uint8Array> = {};
  for (const [name, content] of Object.entries(files)) entries[name] = new TextEncoder().encode(content);
  return Buffer.from(zipSync(entries));
}

async function corporateSignIn(page: Page): Promise<void> {
  await logIn(page, 'corporativo.demo', DEMO_PASSWORD);
  // A corporate lands on its 'Cuentas por Pagar' view, the summary (decision 0065).
  await expect(page.getByRole('heading', { level: 1, name: 'Resumen de facturas' })).toBeVisible(WAIT);
}

async function openPreAuthorization(page: Page): Promise<void> {
  await page.goto('/dashboard/pre-autorizacion/');
  await expect(page.getByRole('heading', { level: 1, name: 'Pre-autorización' })).toBeVisible(WAIT);
  await expect(page.getByRole('button', { name: 'Descargar plantilla' })).toBeEnabled(WAIT);
}

async function expectQuotationOf(page: Page, count: number): Promise<void> {
  await expect(page).toHaveURL(/\/dashboard\/cotizacion\/$/, UPLOAD_WAIT);
  await expect(page.getByRole('table', { name: 'Cotización por factura' })).toBeVisible(UPLOAD_WAIT);
  await expect(page.getByLabel('Totales de la cotización').locator('[data-total="invoices"]')).toHaveText(
    String(count),
    UPLOAD_WAIT,
  );
}

/** The bulk panel's date, typed month first as it shows it, then 'Autorizar masivamente'. */
async function authorizeWithDate(page: Page, isoDate: string): Promise<void> {
  await expect(page.getByText('Selecciona una fecha de pago para la carga masiva.')).toBeVisible(WAIT);
  const field = page.getByRole('combobox', { name: 'Fecha de pago', exact: true });
  await field.fill(dayjs(isoDate).format('MM/DD/YYYY'));
  await expect(field).toHaveValue(dayjs(isoDate).format('MM/DD/YYYY'), WAIT);
  await page.getByRole('button', { name: 'Autorizar masivamente' }).click();
}

test('the template: downloaded, 20 rows dated with a real XLSX library, uploaded, 20 lines quoted', async ({
  page,
}) => {
  test.setTimeout(180_000);
  // Twenty invoices new to Flujo, imported as the SAT sync would, so the run does not depend on the demo world.
  const folios = Array.from({ length: 20 }, (_, i) => `T${RUN}-${i + 1}`);
  const dir = mkdtempSync(join(tmpdir(), 'flujo-bulk-e2e-'));
  try {
    mkdirSync(dir, { recursive: true });
    for (const folio of folios) writeFileSync(join(dir, `${folio}.xml`), cfdi(folio));
    operator('cfdi:import', dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  await corporateSignIn(page);
  await openPreAuthorization(page);
  const downloading = page.waitForEvent('download', UPLOAD_WAIT);
  await page.getByRole('button', { name: 'Descargar plantilla' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^plantilla-pre-autorizacion-\d{4}-\d{2}-\d{2}\.xlsx$/);
  const path = await download.path();

  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path);
  const sheet = workbook.getWorksheet(TEMPLATE_SHEET_NAME);
  if (!sheet) throw new Error('no Facturas sheet');
  const headers = (sheet.getRow(1).values as unknown[]).slice(1);
  expect(headers).toEqual(Object.values(TEMPLATE_COLUMNS));
  const serieColumn = headers.indexOf(TEMPLATE_COLUMNS.serieFolio) + 1;
  const dateColumn = headers.indexOf(TEMPLATE_COLUMNS.paymentDate) + 1;
  const wanted = new Set(folios.map((folio) => `BULK-${folio}`));
  let dated = 0;
  sheet.eachRow((row, number) => {
    if (number === 1) return;
    if (wanted.has(String(row.getCell(serieColumn).value))) {
      row.getCell(dateColumn).value = inDays(30);
      dated += 1;
    }
  });
  expect(dated).toBe(20);
  const filled = Buffer.from(await workbook.xlsx.writeBuffer());

  await page.getByLabel('Cargar plantilla').setInputFiles({
    name: 'plantilla-llena.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: filled,
  });
  await expectQuotationOf(page, 20);
});

test('a ZIP of 30 CFDI XML, one payment date, «Autorizar masivamente»: 30 lines quoted', async ({ page }) => {
  test.setTimeout(180_000);
  const files: Record<string, string> = {};
  for (let i = 1; i <= 30; i += 1) files[`Z${RUN}-${i}.xml`] = cfdi(`Z${RUN}-${i}`);

  await corporateSignIn(page);
  await openPreAuthorization(page);
  // A file of another kind is refused in Spanish, in the words the server's 415 uses (decision 0065).
  await page.getByLabel('Seleccionar ZIP').setInputFiles({
    name: 'facturas.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4'),
  });
  const wrongKind = page.getByRole('dialog').filter({ hasText: 'El archivo no es un ZIP.' });
  await expect(wrongKind).toContainText(BULK_UPLOAD_MESSAGES.notZip, WAIT);
  await wrongKind.getByRole('button', { name: 'Cerrar' }).click();
  await expect(wrongKind).toBeHidden(WAIT);
  await page.getByLabel('Seleccionar ZIP').setInputFiles({
    name: 'facturas.zip',
    mimeType: 'application/zip',
    buffer: zipOf(files),
  });
  // The panel, in dark mode, with its date field: axe passes.
  await expect(page.getByText('Selecciona una fecha de pago para la carga masiva.')).toBeVisible(WAIT);
  await expect(page.locator('.flujo-dashboard')).toHaveClass(/bp6-dark/);
  await expectNoAxeViolations(page);
  // Without a date the panel asks for one.
  await page.getByRole('button', { name: 'Autorizar masivamente' }).click();
  await expect(page.getByText('Requerido')).toBeVisible(WAIT);
  await authorizeWithDate(page, inDays(30));
  await expectQuotationOf(page, 30);
  const stored = await page.evaluate(
    (key) =>
      JSON.parse(localStorage.getItem(key) ?? 'null') as { invoices: { paymentDate: string }[] } | null,
    PRE_AUTHORIZATION_STORE_KEY,
  );
  expect(stored?.invoices).toHaveLength(30);
  expect(new Set(stored?.invoices.map((invoice) => invoice.paymentDate))).toEqual(new Set([inDays(30)]));
});

test('a dropped ZIP with a foreign receiver: the error dialog names the file; closing it clears the stored work', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await corporateSignIn(page);
  await openPreAuthorization(page);
  // Some saved work beforehand, as a previous upload would leave it.
  await page.evaluate(
    (key) =>
      localStorage.setItem(
        key,
        JSON.stringify({
          invoices: [{ id: 1, folio: 'A-1', emissionDate: null, paymentDate: '2099-01-01' }],
          savedAt: Date.now(),
        }),
      ),
    PRE_AUTHORIZATION_STORE_KEY,
  );
  const zip = zipOf({
    [`F${RUN}-bien.xml`]: cfdi(`F${RUN}-1`),
    'ajena.xml': cfdi(`F${RUN}-2`, FOREIGN_RECEIVER),
  });
  // A real drop: a DataTransfer holding the file, dispatched on the drop zone.
  const dataTransfer = await page.evaluateHandle((bytes) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(bytes)], 'facturas.zip', { type: 'application/zip' }));
    return transfer;
  }, Array.from(zip));
  const zone = page.getByRole('region', { name: 'Arrastra aquí un ZIP con los XML de tus facturas' });
  await zone.dispatchEvent('dragover', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
  await authorizeWithDate(page, inDays(30));

  const alert = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Cerrar' }) });
  await expect(alert).toBeVisible(UPLOAD_WAIT);
  await expect(alert).toContainText('ajena.xml');
  await expect(alert).toContainText(`El receptor ${FOREIGN_RECEIVER.rfc} no es tu empresa.`);
  await expectNoAxeViolations(page);
  await alert.getByRole('button', { name: 'Cerrar' }).click();
  await expect(alert).toBeHidden(WAIT);
  expect(await page.evaluate((key) => localStorage.getItem(key), PRE_AUTHORIZATION_STORE_KEY)).toBeNull();
  await expect(page).toHaveURL(/\/dashboard\/pre-autorizacion\/$/);
});

/** The corporate's invoice summary searched for `text` (the search lives in the URL once its debounce ends). */
async function searchReceivedInvoices(page: Page, text: string): Promise<void> {
  await page.goto(paths.invoiceSummary);
  await expect(page.getByRole('heading', { level: 1, name: 'Resumen de facturas' })).toBeVisible(WAIT);
  await page.getByRole('searchbox', { name: 'Buscar facturas' }).fill(text);
  await expect(page).toHaveURL(new RegExp(`[?&]search=${text}`), WAIT);
}

test('a ZIP with a forged CFDI: the dialog names it with the seal reason and none of the three is imported', async ({
  page,
}) => {
  test.setTimeout(180_000);
  // Serie-folios no other test uses: the summary's search finds them by that text.
  const prefix = `SF${RUN}-`;
  const genuine = { [`${prefix}1.xml`]: cfdi(`${prefix}1`), [`${prefix}2.xml`]: cfdi(`${prefix}2`) };
  // A genuine CFDI of the same allied provider whose SubTotal is changed after signing: the seal breaks.
  const original = cfdi(`${prefix}3`);
  const forged = original.replace('SubTotal="8620.69"', 'SubTotal="862.07"');
  expect(forged).not.toBe(original);
  const forgedName = `${prefix}3-forjada.xml`;

  await corporateSignIn(page);
  await openPreAuthorization(page);
  await page.getByLabel('Seleccionar ZIP').setInputFiles({
    name: 'facturas.zip',
    mimeType: 'application/zip',
    buffer: zipOf({ ...genuine, [forgedName]: forged }),
  });
  await authorizeWithDate(page, inDays(30));

  // The ZIP's 400 shows in the error dialog, one line per refused file.
  const alert = page.getByRole('dialog', { name: 'Error' });
  await expect(alert).toBeVisible(UPLOAD_WAIT);
  await expect(alert.getByText(`${forgedName}: ${sealRefusals.seal}`, { exact: true })).toBeVisible();
  expect(sealRefusals.seal).toBe('El sello digital no corresponde al contenido del CFDI.');
  // Only the forged file is named: the two genuine ones were fine, yet refused with the whole ZIP.
  for (const name of Object.keys(genuine)) await expect(alert).not.toContainText(name);
  await alert.getByRole('button', { name: 'Cerrar' }).click();
  await expect(alert).toBeHidden(WAIT);
  await expect(page).toHaveURL(/\/dashboard\/pre-autorizacion\/$/);

  // Nothing was written: the corporate's list finds none of the three folios.
  await searchReceivedInvoices(page, prefix);
  const table = page.getByRole('table', { name: 'Facturas recibidas' });
  await expect(page.getByRole('heading', { name: 'No hay facturas para revisar' })).toBeVisible(UPLOAD_WAIT);
  await expect(table.getByRole('row')).toHaveCount(0);

  // The same search does find them once imported: the two genuine CFDI alone are accepted and listed.
  await openPreAuthorization(page);
  await page.getByLabel('Seleccionar ZIP').setInputFiles({
    name: 'facturas.zip',
    mimeType: 'application/zip',
    buffer: zipOf(genuine),
  });
  await authorizeWithDate(page, inDays(30));
  await expectQuotationOf(page, 2);
  await searchReceivedInvoices(page, prefix);
  await expect(table.getByRole('row').filter({ hasText: `BULK-${prefix}` })).toHaveCount(2, UPLOAD_WAIT);
  await expect(table.getByRole('row').filter({ hasText: `BULK-${prefix}3` })).toHaveCount(0);
});
