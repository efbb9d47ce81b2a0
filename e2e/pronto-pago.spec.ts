import { expect, type Page } from '@playwright/test';
import dayjs from 'dayjs';
import { formatConvertedMxn, formatMoney, formatMxn, parseMoney } from '../src/domain/money';
import { displayedAnnualRate } from '../src/domain/quote';
import { rfcCheckDigit } from '../src/domain/rfc';
import type { ForwardPaymentQuote, Invoice } from '../src/domain/schemas/invoices';
import { DEMO_PASSWORD, logIn, operator, signUp, test } from './support';

// Issue 5's journey on the real server: a new provider links SAT, gets one invoice authorized by its customer,
// advances it, the operator pays it, and the audit trail tells who did each step. The invoice is a dollar one:
// its row and the advance drawer say so, and the drawer shows the peso value it is quoted on with its rate.

const API = '/api';

/** The invoice row with this folio fiscal (its copy button names it; the cell shows serie-folio). */
function row(page: Page, folio: string) {
  return page
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: `Copiar folio fiscal ${folio}` }) });
}

async function accessToken(page: Page): Promise<string> {
  const token = await page.evaluate(
    () => Object.entries(localStorage).find(([key]) => key.toLowerCase().includes('access'))?.[1],
  );
  if (!token) throw new Error('no access token in localStorage');
  return token;
}

test('a new provider links SAT, requests authorization, advances an invoice and sees it paid', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const id = Date.now().toString(36).slice(-6).toUpperCase();
  const user = {
    username: `ruth.${id.toLowerCase()}`,
    email: `ruth.${id.toLowerCase()}@ejemplo.mx`,
    password: `Cobranza-${id}-Uno`,
    company: 'Refacciones Quintero, S.A. de C.V.',
  };
  // A company RFC (persona moral) with a correct check digit; the letters vary per run.
  const body = `RQ${id.replace(/[^A-Z]/g, 'X').slice(0, 1)}200115K8`;
  const rfc = body + rfcCheckDigit(body);

  // 1. Sign up, log in: with no SAT link every dashboard screen leads to the credentials form.
  await signUp(page, user);
  await logIn(page, user.username, user.password);
  await expect(page).toHaveURL(/\/dashboard\/sat-credentials\/$/);
  await page.goto('/dashboard/pronto-pago/');
  await expect(page).toHaveURL(/\/dashboard\/sat-credentials\/$/);

  // 2. Link SAT: the form hides and the provider waits for approval.
  await page.getByLabel('RFC').fill(rfc);
  await page.getByLabel('Contraseña CIEC').fill('ciec-de-prueba-1');
  await page.getByRole('button', { name: 'Enviar credenciales' }).click();
  await expect(
    page.getByText('Credenciales enviadas correctamente. Espera a que tu vinculación sea aprobada'),
  ).toBeVisible();
  await expect(
    page.getByText(
      'Recibimos tus credenciales. Tu vinculación con el SAT se aprobará en las próximas horas; esta pantalla ' +
        'se actualizará sola cuando esté lista.',
      { exact: true },
    ),
  ).toBeVisible();
  await expect(page.getByLabel('RFC')).toHaveCount(0);

  // 3. The operator generates CFDIs issued by this RFC to the demo corporate and approves the link; the
  //    waiting screen notices on its next status check and opens Pronto Pago. The seventh is in USD.
  operator('sat:generate', rfc, '--count', '7');
  expect(operator('sat:approve', rfc)).toMatch(/7/);
  await expect(page).toHaveURL(/\/dashboard\/pronto-pago\/$/, { timeout: 40_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Pronto Pago' })).toBeVisible();

  // 4. Request authorization of the dollar invoice: its row says USD.
  const usdRow = page.getByRole('row').filter({ hasText: /\d USD/ });
  await expect(usdRow).toHaveCount(1);
  const requestButton = usdRow.getByRole('button', { name: /^Solicitar adelanto / });
  await expect(requestButton).toBeVisible();
  const folio = (await requestButton.getAttribute('aria-label'))!.replace('Solicitar adelanto ', '');
  await requestButton.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('24 horas');
  await dialog.getByRole('button', { name: 'Cerrar' }).click();
  await expect(row(page, folio)).toContainText('Solicitado');

  // 5. The corporate authorizes it through the API, with a payment date 45 days from today.
  const login = await request.post(`${API}/accounts/login/`, {
    data: { username: 'corporativo.demo', password: DEMO_PASSWORD },
  });
  expect(login.status()).toBe(200);
  const corporate = { Authorization: `Bearer ${(await login.json()).access}` };
  const requests = await request.get(
    `${API}/corporates/manually-requests/?search=${encodeURIComponent(folio)}`,
    {
      headers: corporate,
    },
  );
  const invoice = ((await requests.json()) as { results: Invoice[] }).results.find(
    (r) => r.fiscal_folio === folio,
  );
  expect(invoice).toBeTruthy();
  const paymentDate = dayjs().add(45, 'day').format('YYYY-MM-DD');
  const authorized = await request.post(`${API}/corporates/manually-requests/authorize/`, {
    headers: { ...corporate, 'Idempotency-Key': `e2e-authorize-${id}` },
    data: [{ invoice_id: invoice!.id, payment_date: paymentDate }],
  });
  expect(authorized.status()).toBe(200);

  // 6. The provider opens the quote drawer: it names the invoice by its folio and its dollar amount, shows the
  //    peso value with the CFDI's rate, and its figures are the server's quote in pesos, by the domain rules.
  await page.reload();
  await expect(row(page, folio)).toContainText('Autorizada');
  const dollars = formatMoney(parseMoney(invoice!.amount), 'USD');
  await expect(row(page, folio)).toContainText(dollars);
  await page.getByRole('button', { name: `Adelantar pago ${folio}` }).click();
  const drawer = page.locator('.bp6-drawer', { has: page.getByRole('heading', { name: 'Adelantar pago' }) });
  await expect(drawer.locator('[data-figure="Total a recibir"]')).toBeVisible();
  await expect(drawer.locator('[data-figure="Factura"]')).toHaveText(invoice!.serie_folio!);
  await expect(drawer.locator('[data-figure="Monto de la factura"]')).toHaveText(dollars);
  await expect(drawer.locator('[data-figure="Valor en pesos"]')).toHaveText(
    formatConvertedMxn(parseMoney(invoice!.amount_with_exchange_rate!), invoice!.exchange_rate),
  );
  await expect(drawer).toContainText(`Folio fiscal ${folio}`);
  const quoteAnswer = await request.get(`${API}/providers/forward-payment/${invoice!.id}/`, {
    headers: { Authorization: `Bearer ${await accessToken(page)}` },
  });
  const quote = (await quoteAnswer.json()) as ForwardPaymentQuote;
  const money = (amount: string) => formatMxn(parseMoney(amount));
  await expect(drawer.locator('[data-figure="Tasa anual"]')).toHaveText(
    `${displayedAnnualRate(quote.max_rate)}% tasa + IVA`,
  );
  await expect(drawer.locator('[data-figure="Días de adelanto"]')).toHaveText(String(quote.days));
  await expect(drawer.locator('[data-figure="Costo financiero"]')).toHaveText(money(quote.cost_financing));
  await expect(drawer.locator('[data-figure="Costo de asesoría"]')).toHaveText(money(quote.cost_consultancy));
  await expect(drawer.locator('[data-figure="Total a recibir"]')).toHaveText(money(quote.total));

  // 7. Advance: the success dialog, and the row is in process.
  await drawer.getByRole('button', { name: 'Adelantar pago', exact: true }).click();
  const success = page.getByRole('dialog').filter({ hasText: 'en trámite' });
  await expect(success).toBeVisible();
  await success.getByRole('button', { name: 'Cerrar' }).click();
  await expect(row(page, folio)).toContainText('En trámite');

  // 8. The operator disburses; the row shows Pagada.
  // --force: the e2e world has no credit programme reservation or CLABE checks to pass (decision 0054).
  operator('disburse', String(invoice!.id), '--force');
  await page.reload();
  await expect(row(page, folio)).toContainText('Pagada');

  // 9. The audit trail shows the four steps with their actors, after the import.
  await page.getByRole('button', { name: `Historial ${folio}` }).click();
  const steps = page.getByRole('list', { name: 'Movimientos' }).getByRole('listitem');
  await expect(steps.first()).toBeVisible();
  await expect(steps).toHaveCount(5);
  await expect(steps.nth(1)).toContainText('Por Autorizar → Solicitado');
  await expect(steps.nth(1)).toContainText(user.username);
  await expect(steps.nth(2)).toContainText('Solicitado → Autorizada');
  await expect(steps.nth(2)).toContainText('corporativo.demo');
  await expect(steps.nth(3)).toContainText('Autorizada → En trámite');
  await expect(steps.nth(3)).toContainText(user.username);
  await expect(steps.nth(4)).toContainText('En trámite → Pagada');
  await expect(steps.nth(4)).toContainText('operador Flujo');
});
