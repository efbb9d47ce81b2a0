import { readFile } from 'node:fs/promises';
import { type Browser, expect, type Page } from '@playwright/test';
import dayjs from 'dayjs';
import { base32Decode, totpCode } from '../server/modules/auth/totp';
import { DEMO_OPERATORS } from '../server/seed/demo-operators';
import { BANK_STATEMENT_COLUMNS } from '../src/domain/bank-statement';
import { businessDateAt as businessDate } from '../src/domain/calendar-date';
import { DESK_CHECK_IDS } from '../src/domain/control-desk';
import { CORPORATE_DOCUMENT_KINDS, CORPORATE_DOCUMENT_LABELS } from '../src/domain/corporate-file';
import { DEFAULT_GRACE_DAYS, DELINQUENCY_MESSAGES } from '../src/domain/delinquency';
import { dueOn, freezesOn } from '../src/domain/maturities';
import { formatCurrency, parseMoney } from '../src/domain/money';
import { rfcCheckDigit } from '../src/domain/rfc';
import type { Invoice } from '../src/domain/schemas/invoices';
import type { MaturitiesReport } from '../src/domain/schemas/maturities';
import { ACCESS_TOKEN_KEY } from '../src/stores/storage-keys';
import {
  createOperatorAccount,
  DEMO_PASSWORD,
  expectNoAxeViolations,
  logIn,
  operator,
  passwordLinkFor,
  signUp,
  test,
  withoutDashboardFrame,
} from './support';

// Issue 19's browser journey on the real server (its first "Must show"): an analyst made by ops operator:create
// enrols TOTP and signs in; onboards a new corporate with its eight documents, which the demo aprobador approves
// before activating it; a 1,000,000.00 MXN programme proposed by one and approved by the other; an alliance at
// 15% with a supplier signed up here; the corporate's invited user pre-authorizes the supplier's invoice, the
// supplier advances it, the desk passes every check, the aprobador approves, tesorería batches it and confirms
// the bank's result file; the supplier sees Pagada and the programme shows the amount used. Issue 34's journey
// continues it: the bank's statement pays the advance by its maturity batch's reference (collected, the programme
// released); a second advance goes unpaid, `ops collections:run-day` on the day after its due date plus grace
// freezes the buyer's programme, and the supplier's next advance is refused with the reason.

// Round trips to the real server on a busy 2-core machine: generous, explicit waits.
const WAIT = { timeout: 30_000 };
const SLOW = { timeout: 60_000 };
const LIMIT = '1000000.00';
// A CLABE with a valid check digit (Banamex), where the supplier's advances are paid.
const SUPPLIER_CLABE = '002010077777777771';
const ANALYST_PASSWORD = 'Girasol-Norte-77';
const CORPORATE_PASSWORD = 'Cobranza-Norte-88';
const APROBADOR = DEMO_OPERATORS.find((o) => o.roles.includes('aprobador'))!;

/** Amounts as the back-office tables show them. */
const mxn = (amount: string) => `${formatCurrency(parseMoney(amount), 'MXN')} MXN`;

/** A persona moral RFC with a correct check digit; `seed` (letters) varies it per run. */
function companyRfc(first: string, seed: string): string {
  const body = `${first}${seed.slice(0, 2)}200115K8`;
  return body + rfcCheckDigit(body);
}

/** A minimal real PDF (one empty page, its cross-reference table), different for each `label`. */
function pdf(label: string): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Title (${label}) >>`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

async function setPassword(page: Page, email: string, password: string): Promise<void> {
  await page.goto(await passwordLinkFor(email));
  await page.getByLabel('Nueva contraseña').fill(password);
  await page.getByRole('button', { name: /Guardar|Cambiar/ }).click();
  await expect(page).toHaveURL(/\/auth\/ingresar\/$/, WAIT);
}

/** A page in a context of its own (one person each), without the dashboard frame. */
async function personPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  await withoutDashboardFrame(context);
  return context.newPage();
}

/** The operators' door: password, then the code the authenticator shows now. */
async function operatorSignIn(page: Page, username: string, password: string, secret: Buffer) {
  await page.goto('/operacion/ingresar/');
  await expect(page.getByRole('heading', { level: 1, name: 'Ingreso de operadores' })).toBeVisible(WAIT);
  await expectNoAxeViolations(page);
  await page.getByLabel('Usuario', { exact: true }).fill(username);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByLabel('Contraseña', { exact: true }).press('Enter');
  const code = page.getByLabel('Código de verificación', { exact: true });
  await expect(code).toBeVisible(WAIT);
  await code.fill(totpCode(secret, new Date()));
  await code.press('Enter');
  await expect(page).toHaveURL(/\/operacion\/mesa\/$/, WAIT);
}

async function tokenOf(page: Page): Promise<string> {
  const token = await page.evaluate((key) => localStorage.getItem(key), ACCESS_TOKEN_KEY);
  if (!token) throw new Error('no access token in localStorage');
  return token;
}

/** A back-office section reached from the nav, as an operator moves; its heading is the page's h1. */
async function openSection(page: Page, link: string, heading: string) {
  await page.getByRole('link', { name: link, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible(WAIT);
}

/** The supplier's 'Adelantar pago' on one invoice, from its row to 'En trámite'; what the drawer said it receives. */
async function requestAdvance(seller: Page, folio: string): Promise<string> {
  await seller.goto(`/dashboard/pronto-pago/?search=${folio}`);
  const row = seller
    .getByRole('row')
    .filter({ has: seller.getByRole('button', { name: `Copiar folio fiscal ${folio}` }) });
  await expect(row).toContainText('Autorizada', WAIT);
  await seller.getByRole('button', { name: `Adelantar pago ${folio}` }).click();
  const drawer = seller.locator('.bp6-drawer', {
    has: seller.getByRole('heading', { name: 'Adelantar pago' }),
  });
  const figure = drawer.locator('[data-figure="Total a recibir"]');
  await expect(figure).toBeVisible(WAIT);
  const total = (await figure.innerText()).trim();
  await drawer.getByRole('button', { name: 'Adelantar pago', exact: true }).click();
  const success = seller.getByRole('dialog').filter({ hasText: 'en trámite' });
  await expect(success).toBeVisible(WAIT);
  await success.getByRole('button', { name: 'Cerrar' }).click();
  await expect(row).toContainText('En trámite', WAIT);
  return total;
}

test('issues 19 and 34: an operator onboards a corporate and its programme; an advance goes from the desk to paid, collected from the bank statement; a late one freezes the buyer', async ({
  browser,
}) => {
  test.setTimeout(6 * 60_000);
  const id = Date.now().toString(36).slice(-6).toUpperCase();
  // Letters only (the RFC's name part), different per run.
  const seed = id.replace(/\d/g, (digit) => 'ABCDEFGHIJ'.charAt(Number(digit)));
  const corporate = {
    rfc: companyRfc('C', seed),
    name: `Comercializadora ${seed} SA de CV`,
    email: `tesoreria.${id.toLowerCase()}@ejemplo.mx`,
  };
  const supplier = {
    rfc: companyRfc('P', seed.slice(2)),
    username: `prov.${id.toLowerCase()}`,
    email: `prov.${id.toLowerCase()}@ejemplo.mx`,
    password: `Proveedor-${id}-Uno`,
    company: `Proveedora ${seed} SA de CV`,
  };
  const analystName = `analista.${id.toLowerCase()}`;

  const analyst = await personPage(browser);
  const approver = await personPage(browser);
  const buyer = await personPage(browser);
  const seller = await personPage(browser);
  let corporateId = 0;

  await test.step('an analyst made by ops operator:create sets a password, enrols TOTP and signs in', async () => {
    const email = `${analystName}@flujo.mx`;
    const secret = createOperatorAccount(analystName, email, 'analista,tesoreria');
    await setPassword(analyst, email, ANALYST_PASSWORD);
    await operatorSignIn(analyst, analystName, ANALYST_PASSWORD, secret);
    await expect(analyst.locator('.operator-shell__bar')).toContainText('Analista, Tesorería');
    await expectNoAxeViolations(analyst);
    await operatorSignIn(approver, APROBADOR.username, DEMO_PASSWORD, base32Decode(APROBADOR.secret));
  });

  await test.step('the analyst onboards a new corporate and uploads its eight documents', async () => {
    await openSection(analyst, 'Corporativos', 'Corporativos');
    await expectNoAxeViolations(analyst);
    await analyst.getByRole('button', { name: 'Nuevo corporativo' }).click();
    const form = analyst.getByRole('form', { name: 'Nuevo corporativo' });
    await form.getByLabel('RFC').fill(corporate.rfc);
    await form.getByLabel('Razón social').fill(corporate.name);
    await form.getByLabel('Nombre del administrador').fill('Marta');
    await form.getByLabel('Apellidos del administrador').fill('Ibarra Solís');
    await form.getByLabel('Correo del administrador').fill(corporate.email);
    await form.getByRole('button', { name: 'Crear y enviar invitación' }).click();
    await expect(analyst).toHaveURL(/\/operacion\/corporativos\/\d+\/$/, WAIT);
    corporateId = Number(/corporativos\/(\d+)\//.exec(analyst.url())![1]);
    await expect(analyst.getByRole('heading', { level: 1, name: corporate.name })).toBeVisible(WAIT);
    await expectNoAxeViolations(analyst);

    const file = analyst.getByRole('table', { name: 'Expediente' });
    for (const kind of CORPORATE_DOCUMENT_KINDS) {
      const label = CORPORATE_DOCUMENT_LABELS[kind];
      await analyst.getByRole('button', { name: `Subir ${label}`, exact: true }).click();
      const dialog = analyst.getByRole('dialog');
      await dialog.locator('#documento-archivo').setInputFiles({
        name: `${kind}.pdf`,
        mimeType: 'application/pdf',
        buffer: pdf(`${corporate.rfc} ${kind}`),
      });
      if (kind === 'estado_cuenta')
        await dialog.getByLabel('CLABE del estado de cuenta').fill(SUPPLIER_CLABE);
      await dialog.getByRole('button', { name: 'Subir', exact: true }).click();
      await expect(analyst.getByRole('dialog')).toHaveCount(0, WAIT);
      await expect(
        file.getByRole('row').filter({ has: analyst.getByRole('rowheader', { name: label, exact: true }) }),
      ).toContainText('Pendiente', WAIT);
    }
    await expectNoAxeViolations(analyst);
  });

  await test.step('the aprobador approves each document and activates the corporate', async () => {
    await approver.goto(`/operacion/corporativos/${corporateId}/`);
    await expect(approver.getByRole('heading', { level: 1, name: corporate.name })).toBeVisible(WAIT);
    const file = approver.getByRole('table', { name: 'Expediente' });
    for (const kind of CORPORATE_DOCUMENT_KINDS) {
      const label = CORPORATE_DOCUMENT_LABELS[kind];
      await approver.getByRole('button', { name: `Aprobar ${label}`, exact: true }).click();
      await approver.getByRole('button', { name: 'Registrar decisión' }).click();
      await expect(approver.getByRole('dialog')).toHaveCount(0, WAIT);
      await expect(
        file.getByRole('row').filter({ has: approver.getByRole('rowheader', { name: label, exact: true }) }),
      ).toContainText('Aprobado', WAIT);
    }
    await expectNoAxeViolations(approver);
    await approver.getByRole('button', { name: 'Activar corporativo' }).click();
    await expect(approver.getByText('El corporativo quedó activo.')).toBeVisible(WAIT);
    await expect(approver.getByRole('heading', { level: 1, name: corporate.name })).toBeVisible();
    await expect(approver.locator('header .bp6-tag')).toHaveText('Activo', WAIT);
  });

  await test.step('the analyst proposes a 1,000,000.00 MXN programme and the aprobador approves it', async () => {
    await openSection(analyst, 'Programas', 'Programas de crédito');
    await expectNoAxeViolations(analyst);
    await analyst.getByRole('button', { name: 'Proponer límite' }).click();
    const dialog = analyst.getByRole('dialog');
    await dialog.getByLabel('Corporativo').selectOption({ label: corporate.name });
    await dialog.getByLabel('Límite (MXN)').fill(LIMIT);
    await dialog.getByLabel('Fecha de inicio').fill(dayjs().subtract(1, 'day').format('YYYY-MM-DD'));
    await dialog.getByLabel('Fecha de fin').fill(dayjs().add(1, 'year').format('YYYY-MM-DD'));
    await dialog.getByRole('button', { name: 'Enviar a aprobación' }).click();
    await expect(analyst.getByRole('dialog')).toHaveCount(0, WAIT);
    const pending = analyst
      .getByRole('table', { name: 'Límites pendientes de aprobación' })
      .getByRole('row')
      .filter({ hasText: corporate.name });
    await expect(pending).toContainText(mxn(LIMIT), WAIT);
    // The proposer may not approve their own limit (and holds no aprobador role anyway).
    await expect(pending.getByRole('button', { name: 'Aprobar' })).toBeDisabled();

    await approver.getByRole('link', { name: 'Programas', exact: true }).click();
    const toApprove = approver
      .getByRole('row')
      .filter({ hasText: corporate.name })
      .filter({
        has: approver.getByRole('button', { name: 'Aprobar' }),
      });
    await toApprove.getByRole('button', { name: 'Aprobar' }).click();
    await expect(approver.getByText(`Límite de ${corporate.name} aprobado.`)).toBeVisible(WAIT);
    const row = approver
      .getByRole('table', { name: 'Programas de crédito' })
      .getByRole('row')
      .filter({ hasText: corporate.name });
    await expect(row.getByRole('cell').nth(0)).toHaveText('Activo', WAIT);
    await expect(row.getByRole('cell').nth(4)).toHaveText(mxn(LIMIT));
    await expectNoAxeViolations(approver);
  });

  await test.step('a supplier signs up, links SAT with an invoice to the corporate, and gets an alliance at 15%', async () => {
    await signUp(seller, supplier);
    await logIn(seller, supplier.username, supplier.password);
    await expect(seller).toHaveURL(/\/dashboard\/sat-credentials\/$/, WAIT);
    await seller.getByLabel('RFC').fill(supplier.rfc);
    await seller.getByLabel('Contraseña CIEC').fill('ciec-de-prueba-1');
    await seller.getByRole('button', { name: 'Enviar credenciales' }).click();
    await expect(seller.getByLabel('RFC')).toHaveCount(0, WAIT);

    // The alliance first, so the SAT approval below finds it (and does not make one at its default rate).
    await openSection(analyst, 'Alianzas', 'Alianzas');
    await expectNoAxeViolations(analyst);
    await analyst.getByRole('button', { name: 'Nueva alianza' }).click();
    const dialog = analyst.getByRole('dialog');
    await dialog.getByLabel('Corporativo').selectOption({ label: `${corporate.name} (${corporate.rfc})` });
    await dialog.getByLabel('RFC del proveedor').fill(supplier.rfc);
    await dialog.getByLabel('Tasa anual antes de IVA (%)').fill('15');
    await dialog.getByLabel('Días máximos hasta la fecha de pago').fill('120');
    await dialog.getByRole('button', { name: 'Guardar alianza' }).click();
    await expect(analyst.getByRole('dialog')).toHaveCount(0, WAIT);
    const alliance = analyst.getByRole('row').filter({ hasText: supplier.rfc });
    await expect(alliance).toContainText(corporate.name, WAIT);
    await expect(alliance.getByRole('cell').nth(3)).toHaveText('15.00 %');
    // The IVA-inclusive rate quotes read.
    await expect(alliance.getByRole('cell').nth(4)).toHaveText('17.40 %');
    // A pending alliance (the supplier's SAT link is not approved yet), axe clean too.
    await expectNoAxeViolations(analyst);

    operator('sat:generate', supplier.rfc, '--count', '3', '--to', corporate.rfc);
    expect(operator('sat:approve', supplier.rfc)).toMatch(/1/);
    // The desk checks the CLABE the advance is paid to.
    operator('company:clabe', supplier.rfc, SUPPLIER_CLABE);
    await expect(seller).toHaveURL(/\/dashboard\/pronto-pago\/$/, SLOW);
  });

  let invoice: Invoice | undefined;
  // Three invoices: the first is advanced and collected from the bank's statement, the second advanced and left
  // unpaid past its due date, the third the advance the frozen buyer no longer gets.
  let late: Invoice | undefined;
  let refused: Invoice | undefined;
  const paymentDays = [30, 20, 25];
  await test.step("the corporate's invited user sets a password and pre-authorizes the supplier's invoices", async () => {
    await setPassword(buyer, corporate.email, CORPORATE_PASSWORD);
    await logIn(buyer, corporate.email, CORPORATE_PASSWORD);
    // The new corporate lands on the buyer's side of the dashboard, where the pre-authorization lives.
    await expect(buyer.getByRole('button', { name: 'Cuentas por Pagar' })).toHaveAttribute(
      'aria-pressed',
      'true',
      WAIT,
    );
    await expect(buyer.getByRole('heading', { level: 1, name: 'Resumen de facturas' })).toBeVisible(WAIT);
    const answer = await buyer.request.get('/api/corporates/pre-authorization/?page_size=100', {
      headers: { Authorization: `Bearer ${await tokenOf(buyer)}` },
    });
    expect(answer.status()).toBe(200);
    const supplierInvoices = ((await answer.json()) as { results: Invoice[] }).results
      .filter((candidate) => candidate.emitter_rfc === supplier.rfc)
      .sort((a, b) => a.id - b.id);
    expect(supplierInvoices).toHaveLength(3);
    [invoice, late, refused] = supplierInvoices;

    for (const [index, each] of supplierInvoices.entries()) {
      const folio = each.serie_folio || each.fiscal_folio.slice(0, 8);
      await buyer.goto(`/dashboard/pre-autorizacion/?search=${each.fiscal_folio}`);
      const checkbox = buyer.getByLabel(`Seleccionar factura ${each.fiscal_folio}`);
      await expect(checkbox).toBeVisible(WAIT);
      // Blueprint draws its own box over the input: the click lands on the label, as a user's does.
      await checkbox.locator('xpath=..').click();
      await expect(checkbox).toBeChecked(WAIT);
      const date = buyer.getByLabel(`Fecha de pago ${folio}`);
      await expect(date).toBeEnabled(WAIT);
      await date.fill(dayjs().add(paymentDays[index]!, 'day').format('DD/MM/YYYY'));
      await date.press('Escape');
      await buyer.getByRole('button', { name: 'Cotizar' }).click();
      await expect(buyer).toHaveURL(/\/dashboard\/cotizacion\/$/, WAIT);
      await buyer.getByRole('button', { name: 'Continuar' }).click();
      const payer = buyer.getByRole('dialog', { name: '¿Quién absorbe el costo financiero?' });
      await payer.getByRole('button', { name: 'El proveedor' }).click();
      await payer.getByRole('button', { name: 'Aceptar' }).click();
      const alert = buyer.getByRole('dialog').filter({ has: buyer.getByRole('button', { name: 'Cerrar' }) });
      await alert.getByRole('button', { name: 'Cerrar' }).click(WAIT);
      await expect(buyer.getByRole('heading', { level: 1, name: 'Pre-autorización' })).toBeVisible(WAIT);
    }
  });

  let total = '';
  await test.step('the supplier advances it', async () => {
    total = await requestAdvance(seller, invoice!.fiscal_folio);
  });

  await test.step('the desk shows every check passing and the aprobador approves', async () => {
    await openSection(analyst, 'Mesa de control', 'Mesa de control');
    const row = analyst
      .getByRole('table', { name: 'Adelantos en la mesa de control' })
      .getByRole('row')
      .filter({ hasText: corporate.name });
    // One tag says how the checks went; each check, with its reason, on expand.
    const count = DESK_CHECK_IDS.length;
    await expect(row.getByText(`${count} de ${count} verificaciones pasan`)).toBeVisible(WAIT);
    await row.getByText(`Ver las ${count} verificaciones`).click();
    const checks = row.getByRole('list').getByRole('listitem');
    await expect(checks.filter({ hasText: 'Pasa:' })).toHaveCount(count);
    await expect(row).not.toContainText('Falla');
    await expectNoAxeViolations(analyst);

    await approver.getByRole('link', { name: 'Mesa de control', exact: true }).click();
    const toApprove = approver
      .getByRole('table', { name: 'Adelantos en la mesa de control' })
      .getByRole('row')
      .filter({ hasText: corporate.name });
    const label = (await toApprove.getByRole('cell').first().innerText()).trim();
    // «Aprobar» asks first: the amount the supplier receives, with its currency, and who receives it.
    await toApprove.getByRole('button', { name: `Aprobar ${label}` }).click();
    const confirmation = approver.getByRole('dialog', { name: `Aprobar el adelanto ${label}` });
    await expect(confirmation).toContainText(/Recibe el proveedor\$[\d,]+\.\d{2} MXN/, WAIT);
    await expect(confirmation).toContainText(total);
    await expect(confirmation).toContainText(`RFC ${supplier.rfc}`);
    await expect(confirmation).toContainText(/CLABE.*•••• \d{4}/);
    await expectNoAxeViolations(approver);
    await confirmation.getByRole('button', { name: 'Aprobar', exact: true }).click();
    // Then it says what happened.
    await expect(approver.getByRole('status').filter({ hasText: `Adelanto ${label} aprobado` })).toBeVisible(
      WAIT,
    );
    await expect(toApprove.getByRole('button', { name: /^Aprobar / })).toHaveCount(0, WAIT);
    await expectNoAxeViolations(approver);
  });

  await test.step('tesorería batches it and downloads the layout; the aprobador uploads the bank result', async () => {
    await openSection(analyst, 'Dispersiones', 'Dispersiones');
    const ready = analyst.getByRole('table', { name: 'Adelantos aprobados por dispersar' });
    // The supplier signed up here has this one advance: its row, whatever other tests left approved.
    const select = ready.getByRole('row').filter({ hasText: supplier.rfc }).getByRole('checkbox');
    // Blueprint draws its own box over the input: the click lands on the label, as a user's does.
    await select.locator('xpath=..').click(WAIT);
    await expect(select).toBeChecked();
    await expectNoAxeViolations(analyst);
    await analyst.getByRole('button', { name: 'Crear lote' }).click();
    await expect(analyst.getByRole('status').filter({ hasText: 'Lote creado.' })).toBeVisible(WAIT);

    // The new batch opens with its SPEI orders: one for this advance, for what the supplier was quoted.
    const orders = analyst.getByRole('table', { name: /^Órdenes SPEI del lote \d+$/ });
    const order = orders.getByRole('row').filter({ hasText: supplier.rfc });
    // The drawer's total already carries its currency ('$96,665.00 MXN').
    await expect(order).toContainText(total, WAIT);
    await expect(order).toContainText('Pendiente');
    const clave = (await order.getByRole('cell').first().innerText()).trim();
    expect(clave).toMatch(/^[A-Z0-9]{1,30}$/);

    const [download] = await Promise.all([
      analyst.waitForEvent('download', WAIT),
      analyst.getByRole('button', { name: 'Descargar layout' }).click(),
    ]);
    const layout = await readFile((await download.path())!, 'utf8');
    const line = layout.split('\r\n').find((l) => l.startsWith(`${clave},`));
    expect(line, layout).toBeTruthy();
    await expect(
      analyst.getByRole('status').filter({ hasText: /Layout del lote \d+ descargado\./ }),
    ).toBeVisible(WAIT);

    // Two people (decision 0059): who made the batch may not confirm it; the aprobador uploads the bank's file.
    const result = {
      name: 'resultado.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`clave_rastreo,estado,motivo\r\n${clave},liquidada,\r\n`),
    };
    await analyst.getByLabel('Cargar resultado del banco (CSV)').setInputFiles(result);
    await expect(
      analyst.getByRole('alert').filter({ hasText: 'Quien creó el lote no puede confirmar su resultado' }),
    ).toBeVisible(WAIT);
    const batchId = /(\d+)$/.exec((await orders.getAttribute('aria-label')) ?? '')![1];

    await openSection(approver, 'Dispersiones', 'Dispersiones');
    await approver.getByRole('button', { name: `Ver órdenes del lote ${batchId}`, exact: true }).click(WAIT);
    await approver.getByLabel('Cargar resultado del banco (CSV)').setInputFiles(result);
    await expect(
      approver
        .getByRole('status')
        .filter({ hasText: /^Resultado aplicado al lote \d+: 1 liquidada\(s\), 0 devuelta\(s\)/ }),
    ).toBeVisible(WAIT);
    const confirmed = approver
      .getByRole('table', { name: `Órdenes SPEI del lote ${batchId}` })
      .getByRole('row')
      .filter({ hasText: supplier.rfc });
    await expect(confirmed).toContainText('Liquidada', WAIT);
    await expect(confirmed).toContainText(`Confirmó ${APROBADOR.username}`);
    await expectNoAxeViolations(approver);
  });

  await test.step('the supplier sees Pagada and the programme shows the amount used', async () => {
    const folio = invoice!.fiscal_folio;
    await seller.reload();
    await expect(
      seller
        .getByRole('row')
        .filter({ has: seller.getByRole('button', { name: `Copiar folio fiscal ${folio}` }) }),
    ).toContainText('Pagada', WAIT);

    await openSection(analyst, 'Programas', 'Programas de crédito');
    const row = analyst
      .getByRole('table', { name: 'Programas de crédito' })
      .getByRole('row')
      .filter({ hasText: corporate.name });
    await expect(row.getByRole('cell').nth(3)).not.toHaveText(mxn('0.00'), WAIT);
    await expect(row.getByRole('cell').nth(2)).toHaveText(mxn('0.00'));
    await expectNoAxeViolations(analyst);
  });

  await test.step("the bank's statement pays it by its reference: collected, and the programme is back to 1,000,000.00", async () => {
    // The reference the buyer was told to pay with (its maturity batch), as the operator's maturities list it.
    const today = businessDate(new Date());
    const answer = await analyst.request.get(
      `/api/operator/maturities/?desde=${today}&hasta=${dayjs(today).add(60, 'day').format('YYYY-MM-DD')}&corporate_id=${corporateId}`,
      { headers: { Authorization: `Bearer ${await tokenOf(analyst)}` } },
    );
    expect(answer.status()).toBe(200);
    const report = (await answer.json()) as MaturitiesReport;
    const batch = report.days
      .flatMap((day) => day.buyers)
      .find((each) => each.invoices.some((line) => line.invoice_id === invoice!.id));
    if (!batch) throw new Error(`invoice ${invoice!.id} is in no maturity batch: ${JSON.stringify(report)}`);
    const statement = [
      BANK_STATEMENT_COLUMNS.join(','),
      [
        today,
        `COBRO${id}`,
        batch.outstanding,
        corporate.rfc,
        'Comercializadora',
        batch.reference,
        'Pago',
      ].join(','),
    ].join('\r\n');

    await openSection(analyst, 'Cobranza', 'Cobranza');
    await expectNoAxeViolations(analyst);
    await analyst.getByLabel('Cargar estado de cuenta (CSV)').setInputFiles({
      name: 'estado-de-cuenta.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`${statement}\r\n`),
    });
    const counts = analyst.getByRole('list', { name: 'Resultado del último archivo' });
    await expect(counts).toContainText('Exactas 1', SLOW);
    await expect(counts).toContainText('No identificadas 0');
    await expectNoAxeViolations(analyst);

    await openSection(analyst, 'Programas', 'Programas de crédito');
    const row = analyst
      .getByRole('table', { name: 'Programas de crédito' })
      .getByRole('row')
      .filter({ hasText: corporate.name });
    await expect(row.getByRole('cell').nth(4)).toHaveText(mxn(LIMIT), WAIT);
    await expect(row.getByRole('cell').nth(3)).toHaveText(mxn('0.00'));
  });

  await test.step('a second advance goes unpaid past its due date and grace: the day freezes the buyer', async () => {
    await requestAdvance(seller, late!.fiscal_folio);
    operator('disburse', String(late!.id));
    // The day after due date plus the programme's grace days (its default: the proposal gave none).
    const due = dueOn(dayjs().add(paymentDays[1]!, 'day').format('YYYY-MM-DD'), businessDate(new Date()));
    const output = operator(
      'collections:run-day',
      '--date',
      freezesOn(due, DEFAULT_GRACE_DAYS),
      '--corporativo',
      corporate.rfc,
    );
    expect(output).toContain(`Congelado por morosidad: ${corporate.name}`);

    await analyst.reload();
    const row = analyst
      .getByRole('table', { name: 'Programas de crédito' })
      .getByRole('row')
      .filter({ hasText: corporate.name });
    await expect(row.getByRole('cell').nth(0)).toContainText('Congelado', WAIT);
  });

  await test.step("the supplier's next advance against the frozen buyer is refused with the reason", async () => {
    const folio = refused!.fiscal_folio;
    await seller.goto(`/dashboard/pronto-pago/?search=${folio}`);
    await seller.getByRole('button', { name: `Adelantar pago ${folio}` }).click(WAIT);
    const drawer = seller.locator('.bp6-drawer', {
      has: seller.getByRole('heading', { name: 'Adelantar pago' }),
    });
    await drawer.getByRole('button', { name: 'Adelantar pago', exact: true }).click(WAIT);
    await expect(seller.getByText(DELINQUENCY_MESSAGES.lendingRefused)).toBeVisible(SLOW);
    await expectNoAxeViolations(seller);
  });

  for (const page of [analyst, approver, buyer, seller]) await page.context().close();
});
