import { expect } from '@playwright/test';
import { machineCatalogue } from '../src/machines/catalogue';
import { DEMO_PASSWORD, expectNoAxeViolations, logIn, test } from './support';

// The diagrams for auditors (decision 0045): /diagramas/ is public; 'Ver en el diagrama' is in a dashboard
// list's Historial. Waits on the server (the diagram's chunks, the invoice list, the trail) are generous.
const SERVER = { timeout: 30_000 };

test.describe('/diagramas/', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('shows the lifecycle machine in Spanish with its technical names, zooms and passes axe', async ({
    page,
  }) => {
    await page.goto('/diagramas/');
    await expect(page.getByRole('heading', { level: 2, name: 'Ciclo de vida de la factura' })).toBeVisible(
      SERVER,
    );
    const viewport = page.getByRole('region', { name: 'Diagrama: Ciclo de vida de la factura' });
    const diagram = viewport.getByRole('img', { name: 'Diagrama de estados: Ciclo de vida de la factura' });
    await expect(diagram).toBeVisible(SERVER);
    // A state drawn with its Spanish label and, under it, its technical id.
    const available = viewport.locator('[id="state:invoiceLifecycle.available"]');
    await expect(available.locator('text', { hasText: 'Por Autorizar' })).toHaveCount(1);
    await expect(available.locator('text', { hasText: /^available$/ })).toHaveCount(1);
    // An edge with its Spanish event label beside the technical event name.
    const disburse = viewport.locator('[id="t:invoiceLifecycle.process|invoice.disburse|0:0"]');
    await expect(disburse).toContainText('El operador registra el desembolso');
    await expect(disburse).toContainText('invoice.disburse');
    // Guards are explained in Spanish beside the diagram.
    const guards = page.getByRole('region', { name: 'Condiciones' });
    await expect(guards.getByText('Quien actúa es un operador de Flujo.')).toBeVisible();
    await expect(guards.getByText('[G7]')).toBeVisible();

    // Zoom: the buttons and the keyboard change the announced zoom and the drawn size.
    const zoom = page.getByRole('status').filter({ hasText: /^Zoom \d+ %$/ });
    const percent = async () => Number((await zoom.innerText()).replace(/\D/g, ''));
    const width = async () => Number(await diagram.getAttribute('width'));
    const before = { percent: await percent(), width: await width() };
    await page.getByRole('button', { name: 'Acercar' }).click();
    await expect.poll(percent).toBeGreaterThan(before.percent);
    expect(await width()).toBeGreaterThan(before.width);
    await viewport.focus();
    await page.keyboard.press('-');
    await page.keyboard.press('-');
    await expect.poll(percent).toBeLessThan(before.percent);
    expect(await width()).toBeLessThan(before.width);
    await page.keyboard.press('0');
    await expect.poll(percent).toBe(before.percent);

    // The coverage overlay colours every transition the generated paths take.
    // From the keyboard (the sticky site header may cover the switch after Playwright scrolls to it).
    await page.getByRole('switch', { name: 'Mostrar cobertura de pruebas' }).focus();
    await page.keyboard.press('Space');
    await expect(viewport.locator('g.flujo-edge.is-covered')).toHaveCount(22);
    await expect(viewport.locator('g.flujo-edge.is-uncovered')).toHaveCount(0);

    await expectNoAxeViolations(page);
  });

  test('lists every machine and shows the one chosen in the address', async ({ page }) => {
    await page.goto('/diagramas/?maquina=solicitud-inexistente');
    // An unknown machine falls back to the lifecycle.
    await expect(page.getByRole('heading', { level: 2, name: 'Ciclo de vida de la factura' })).toBeVisible(
      SERVER,
    );
    const nav = page.getByRole('navigation', { name: 'Máquinas de estados' });
    // One link per catalogued machine (the back office's screen machines included), and 'Todas las máquinas'.
    await expect(nav.getByRole('link')).toHaveCount(machineCatalogue.length + 1);
    await nav.getByRole('link', { name: 'Solicitud de demo' }).click();
    await expect(page).toHaveURL(/\/diagramas\/\?maquina=demo-request$/);
    await expect(page.getByRole('heading', { level: 2, name: 'Solicitud de demo' })).toBeVisible(SERVER);
    await expect(page.getByRole('img', { name: 'Diagrama de estados: Solicitud de demo' })).toBeVisible(
      SERVER,
    );
  });
});

test("'Ver en el diagrama' highlights exactly the four steps of a paid invoice", async ({ page }) => {
  await logIn(page, 'proveedor.demo', DEMO_PASSWORD);
  await page.waitForURL('**/dashboard/**', SERVER);
  // The demo world's paid invoice: imported, pre-authorized by the buyer, advanced, disbursed (demo-world.ts).
  await page.goto('/dashboard/facturas-pronto-pago/?status=10');
  await page
    .getByRole('button', { name: /^Historial / })
    .first()
    .click(SERVER);
  // The trail holds four rows: this is what 'four steps' means.
  await expect(page.getByRole('list', { name: 'Movimientos' }).getByRole('listitem')).toHaveCount(4, SERVER);
  // Named by its serie-folio ('A-1003'), its folio fiscal as secondary text (issue 33).
  const drawer = page.getByRole('dialog', { name: /^Historial de la factura A-\d+$/ });
  await expect(drawer).toContainText(/Folio fiscal [0-9A-F-]{36}/i);
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Ver en el diagrama' }).click();

  const dialog = page.getByRole('dialog', { name: /^Recorrido en el diagrama · Factura A-\d+$/ });
  await expect(dialog.locator('g.flujo-edge.is-step')).toHaveCount(4, SERVER);
  await expect(dialog.locator('.flujo-step-mark')).toHaveCount(4);
  const steps = dialog.getByRole('list', { name: 'Pasos' }).getByRole('listitem');
  await expect(steps).toHaveCount(4);
  await expect(steps.nth(0)).toContainText('Por Autorizar');
  await expect(steps.nth(1)).toContainText('corporativo.demo');
  await expect(steps.nth(2)).toContainText('proveedor.demo');
  await expect(steps.nth(3)).toContainText('El operador registra el desembolso');
  await expect(steps.nth(3)).toContainText('«En trámite» a «Pagada»');
  await expect(dialog.getByText('Sin transición en el diagrama')).toHaveCount(0);
  // A supplier reads the Spanish labels: no event ids or guard marks, in the diagram or the steps (decision 0065).
  await expect(dialog.locator('[id="t:invoiceLifecycle.process|invoice.disburse|0:0"]')).toContainText(
    'El operador registra el desembolso',
  );
  await expect(dialog).not.toContainText('invoice.disburse');
  await expect(dialog).not.toContainText('[G');
  // The edges drawn are the trail's: the import's arrow, then pre-authorize, advance and disburse.
  await expect(
    dialog.locator(
      [
        '[id="init:invoiceLifecycle.available"]',
        '[id="t:invoiceLifecycle.available|invoice.preAuthorize|1:0"]',
        '[id="t:invoiceLifecycle.approved|invoice.approveAdvance|0:0"]',
        '[id="t:invoiceLifecycle.process|invoice.disburse|0:0"]',
      ]
        .map((id) => `${id}.is-step`)
        .join(', '),
    ),
  ).toHaveCount(4);
  await expectNoAxeViolations(page);
});
