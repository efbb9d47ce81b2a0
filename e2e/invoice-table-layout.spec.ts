import { expect, type Page } from '@playwright/test';
import { DEMO_PASSWORD, horizontalOverflow, logIn, test } from './support';

// Issue 12, "a dashboard designed like the product": the Pronto Pago table at 1280 px fits with every column and
// its actions, rows are 60 px, the folio shows serie-folio with the UUID on hover and a copy button, and at
// 375 px each row reads as a card whose actions stay on screen.

const WAIT = { timeout: 30_000 };
const ROW_HEIGHT_PX = 60;
const TABLE_LABEL = 'Facturas de Pronto Pago';
const UUID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/i;

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

async function openProntoPago(page: Page) {
  await logIn(page, 'proveedor.demo', DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard\/pronto-pago\/$/, WAIT);
  await expect(page.getByRole('table', { name: TABLE_LABEL }).locator('tbody tr').first()).toBeVisible(WAIT);
}

/** The data rows the table drew (react-virtuoso adds spacer rows without cells of their own). */
function invoiceRows(page: Page) {
  return page.getByRole('table', { name: TABLE_LABEL }).locator('tbody tr.flujo-invoice-row');
}

test('at 1280 px the table fits with every action, rows are 60 px, the folio shows its UUID and copies it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await openProntoPago(page);

  // Every column is there, and no horizontal scroll anywhere.
  const table = page.getByRole('table', { name: TABLE_LABEL });
  for (const header of ['Folio', 'RFC', 'Cliente', 'Fecha de emisión', 'Monto', 'Descripción', 'Estatus']) {
    await expect(table.getByRole('columnheader', { name: header, exact: true })).toBeVisible(WAIT);
  }
  const overflow = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    table: (() => {
      const scroller = document.querySelector('[data-testid="virtuoso-scroller"]') as HTMLElement | null;
      return scroller ? scroller.scrollWidth - scroller.clientWidth : 0;
    })(),
  }));
  expect(overflow).toEqual({ page: 0, table: 0 });

  // Every row action drawn is inside the viewport.
  const actions = page.getByRole('button', { name: /^(Solicitar adelanto|Adelantar pago|Historial) / });
  await expect(actions.first()).toBeVisible(WAIT);
  const viewport = page.viewportSize()!;
  for (const action of await actions.all()) {
    const box = await action.boundingBox();
    if (!box) continue; // a row virtuoso keeps below the box is not drawn
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
  }

  // Rows are 60 px (spec §9).
  const rows = invoiceRows(page);
  const measured = Math.min(await rows.count(), 5);
  expect(measured).toBeGreaterThan(0);
  for (let index = 0; index < measured; index++) {
    const box = await rows.nth(index).boundingBox();
    expect(Math.abs(box!.height - ROW_HEIGHT_PX)).toBeLessThanOrEqual(1);
  }

  // The folio cell shows serie-folio; hovering it shows the whole folio fiscal (a UUID).
  const first = rows.first();
  const folio = first.locator('.flujo-folio-text');
  await expect(folio).toHaveText(/^A-\d+$/, WAIT);
  await folio.hover();
  const tooltip = page.locator('.bp6-tooltip').filter({ hasText: UUID });
  await expect(tooltip).toBeVisible(WAIT);
  const uuid = (await tooltip.innerText()).trim();

  // The copy button copies that UUID and says 'Copiado!' (spec §8).
  await first.getByRole('button', { name: `Copiar folio fiscal ${uuid}` }).click();
  await expect(page.getByText('Copiado!', { exact: true })).toBeVisible(WAIT);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(uuid);
});

test('at 375 px each row reads as a card with its actions on screen', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 375, height: 812 });
  await openProntoPago(page);
  const rows = invoiceRows(page);
  const first = rows.first();
  expect(await first.evaluate((row) => getComputedStyle(row).display)).not.toBe('table-row');
  // A card labels its values (the table's header is hidden at this width).
  expect(
    await first
      .locator('td[data-label="Cliente"]')
      .evaluate((cell) => getComputedStyle(cell, '::before').content),
  ).toBe('"Cliente"');
  // Every action of every card drawn lies within the screen's width (read at once: virtuoso redraws on scroll).
  const spans = await rows
    .getByRole('button', { name: /^(Solicitar adelanto|Adelantar pago|Historial) / })
    .evaluateAll((buttons) =>
      buttons.map((button) => {
        const box = button.getBoundingClientRect();
        return { left: box.left, right: box.right };
      }),
    );
  expect(spans.length).toBeGreaterThan(0);
  const width = page.viewportSize()!.width;
  for (const span of spans) {
    expect(span.left).toBeGreaterThanOrEqual(0);
    expect(span.right).toBeLessThanOrEqual(width);
  }
  expect(await horizontalOverflow(page)).toBe(0);
});
