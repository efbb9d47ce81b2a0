import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type Request, test } from '@playwright/test';
import { formatCurrency, parseMoney } from '../src/domain/money';
import { advanceQuote } from '../src/domain/quote';
import { operator } from './support';

// The public site as a visitor gets it: the prerendered pages from the real server, in Chromium.

interface PublicPage {
  path: string;
  heading: string;
  texts: string[];
  dark?: boolean;
}

const PAGES: PublicPage[] = [
  {
    path: '/inicio/',
    heading: 'Cobra tus facturas hoy, sin deuda',
    texts: ['para registrarte', 'para recibir tu pago', 'la alianza no tiene costo'],
  },
  {
    path: '/proveedores/',
    heading: 'Adelanta tus facturas y mejora tu flujo de efectivo',
    texts: ['Factoraje revolvente', 'Vinculación con el SAT'],
  },
  {
    path: '/compradores/',
    heading: 'Fortalece a tus proveedores sin costo para tu empresa',
    texts: ['Preautoriza facturas', 'de costo para tu empresa'],
    dark: true,
  },
  {
    path: '/alianzas-corporativas/',
    heading: 'Liquidez para tu cadena de suministro, sin costo para tu empresa',
    texts: ['Cómo funciona una alianza', 'Solicita una demostración para tu empresa'],
    dark: true,
  },
  {
    path: '/calculadora/',
    heading: '¿Cuánto recibes hoy por tu factura?',
    texts: ['Recibes hoy', 'tasa + IVA'],
  },
  { path: '/contacto/', heading: 'Contacto', texts: ['contacto@flujo.mx', 'Enviar mensaje por WhatsApp'] },
  { path: '/solicitar-demo/', heading: 'Solicitar Demo', texts: ['Qué sigue después de enviar tus datos'] },
  {
    path: '/terminos-y-condiciones/',
    heading: 'Términos y Condiciones',
    texts: ['Ley aplicable y jurisdicción', 'contacto@flujo.mx'],
  },
  {
    path: '/politicas-de-privacidad/',
    heading: 'Aviso de privacidad',
    texts: ['Tus derechos ARCO', 'Ley Federal de Protección de Datos Personales', 'contacto@flujo.mx'],
  },
  {
    path: '/politica-de-proteccion-de-datos/',
    heading: 'Política de protección de datos',
    texts: ['Medidas técnicas', 'argon2id'],
  },
  {
    path: '/requisitos/',
    heading: 'Requisitos para una alianza corporativa',
    texts: ['Opinión de cumplimiento de obligaciones fiscales', 'Descargar la lista en PDF'],
  },
];

const WIDTHS = [
  { name: 'escritorio', width: 1280, height: 900 },
  { name: 'móvil', width: 375, height: 812 },
];

/** Scripts and other requests a page makes, to prove what it does not load. */
function recordRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  return requests;
}

/** Waits until React has taken over the prerendered page. */
async function hydrated(page: Page) {
  await expect(page.locator('.site')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
}

async function expectNoAxeViolations(page: Page) {
  // Off-screen sections skip rendering (content-visibility); axe must see all of them to check contrast.
  await page.addStyleTag({
    content: '.site-section,.site-cta,.site-footer{content-visibility:visible!important}',
  });
  const results = await new AxeBuilder({ page }).exclude('iframe.site-pdf').analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

for (const viewport of WIDTHS) {
  test.describe(`sitio público en ${viewport.name} (${viewport.width} px)`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    for (const publicPage of PAGES) {
      test(`${publicPage.path} muestra su contenido y pasa axe`, async ({ page, baseURL }) => {
        const requests = recordRequests(page);
        const errors: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error') errors.push(message.text());
        });
        page.on('pageerror', (error) => errors.push(String(error)));
        await page.goto(publicPage.path);
        await expect(page.getByRole('heading', { level: 1, name: publicPage.heading })).toBeVisible();
        for (const text of publicPage.texts) await expect(page.getByText(text).first()).toBeAttached();
        await hydrated(page);
        await expect(page).toHaveTitle(/Flujo/);
        await expectNoAxeViolations(page);

        const background = await page.locator('.site').evaluate((el) => getComputedStyle(el).backgroundColor);
        expect(background).toBe(publicPage.dark ? 'rgb(17, 20, 24)' : 'rgb(255, 255, 255)');

        // Nothing from another origin, no dashboard or session code, no Blueprint all-icons chunk.
        const origin = new URL(baseURL!).origin;
        // (The browser's own PDF viewer loads chrome:// resources for the embedded checklist; not the page's.)
        const fromNetwork = requests.filter((r) => /^https?:/.test(r.url()));
        expect(fromNetwork.filter((r) => !r.url().startsWith(origin)).map((r) => r.url())).toEqual([]);
        const scripts = fromNetwork.filter((r) => r.resourceType() === 'script').map((r) => r.url());
        expect(
          scripts.filter((url) => /dashboard|session|registro|ingresar|\/paths-|allPaths/.test(url)),
        ).toEqual([]);
        expect(errors).toEqual([]);
      });
    }
  });
}

test.describe('en un teléfono', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('el menú se abre y se cierra bajo 1024 px', async ({ page }) => {
    await page.goto('/inicio/');
    await hydrated(page);
    const menu = page.getByRole('button', { name: 'Menú' });
    const nav = page.getByRole('navigation', { name: 'Principal' });
    await expect(nav.getByRole('link', { name: 'Calculadora' })).toBeHidden();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(nav.getByRole('link', { name: 'Calculadora' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Crear cuenta' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(nav.getByRole('link', { name: 'Calculadora' })).toBeHidden();
    await menu.click();
    await nav.getByRole('link', { name: 'Calculadora' }).click();
    await expect(page).toHaveURL(/\/calculadora\/$/);
  });
});

test('las preguntas frecuentes se abren una a la vez', async ({ page }) => {
  await page.goto('/inicio/');
  const first = page.locator('details').filter({ hasText: '¿Qué es el pronto pago?' });
  const second = page.locator('details').filter({ hasText: '¿Cuánto cuesta adelantar una factura?' });
  await expect(page.getByText('En lugar de esperar 30, 60 o 90')).toBeHidden();
  await first.getByText('¿Qué es el pronto pago?').click();
  await expect(page.getByText('En lugar de esperar 30, 60 o 90')).toBeVisible();
  await second.getByText('¿Cuánto cuesta adelantar una factura?').click();
  await expect(second).toHaveAttribute('open', '');
  await expect(first).not.toHaveAttribute('open', '');
});

test('el carrusel avanza, retrocede y se puede pausar', async ({ page }) => {
  await page.goto('/inicio/');
  await hydrated(page);
  const carousel = page.getByRole('region', { name: 'Por qué elegir factoraje', exact: true });
  await carousel.scrollIntoViewIfNeeded();
  await carousel.getByRole('button', { name: 'Pausar rotación' }).click();
  await expect(carousel.getByRole('button', { name: 'Reanudar rotación' })).toBeVisible();
  await expect(carousel.getByText('1 de 4', { exact: true })).toBeVisible();
  await expect(carousel.getByRole('heading', { name: 'El factoraje no es un crédito' })).toBeVisible();
  await carousel.getByRole('button', { name: 'Siguiente' }).click();
  await expect(carousel.getByText('2 de 4', { exact: true })).toBeVisible();
  await expect(
    carousel.getByRole('heading', { name: 'Mejora tu flujo de efectivo sin deuda' }),
  ).toBeInViewport();
  await carousel.getByRole('button', { name: 'Anterior' }).click();
  await expect(carousel.getByText('1 de 4', { exact: true })).toBeVisible();
  // It loops: before the first slide comes the last.
  await carousel.getByRole('button', { name: 'Anterior' }).click();
  await expect(carousel.getByText('4 de 4', { exact: true })).toBeVisible();
});

async function fillDemoForm(page: Page, scope = page.locator('form[aria-label="Solicitar demo"]')) {
  await scope.getByLabel('Nombre').fill('Rosa');
  await scope.getByLabel('Apellido').fill('Villalobos');
  await scope.getByLabel('Teléfono').fill('8112345678');
  await scope.getByLabel('Correo electrónico').fill('rosa.villalobos@example.mx');
  await scope.getByLabel('Empresa').fill('Aceros del Norte');
  return scope;
}

test('Solicitar Demo envía la solicitud y el servidor la guarda', async ({ page }) => {
  await page.goto('/solicitar-demo/');
  const form = await fillDemoForm(page);
  const stored = page.waitForResponse((r) => r.url().includes('/api/accounts/request-demo/'));
  await form.getByRole('button', { name: 'Solicitar demo' }).click();
  const response = await stored;
  expect(response.status()).toBe(201);
  expect(new URL(response.url()).searchParams.get('source')).toBe('solicitar-demo');
  expect(await response.json()).toEqual({ message: 'Solicitud enviada con éxito' });
  await expect(page.getByRole('alert').filter({ hasText: 'Solicitud enviada con éxito' })).toBeVisible();
  await expect(form.getByLabel('Nombre')).toHaveValue('');
  // The row itself, as the operator reads it from the running server's database.
  expect(operator('demo-requests:list', '--limit', '20')).toMatch(
    /Rosa Villalobos {2}Aceros del Norte {2}rosa\.villalobos@example\.mx {2}8112345678 {2}\[solicitar-demo\]/,
  );
});

test('el formulario corporativo de alianzas también envía, con su origen', async ({ page }) => {
  await page.goto('/alianzas-corporativas/');
  const form = await fillDemoForm(page);
  const stored = page.waitForResponse((r) => r.url().includes('/api/accounts/request-demo/'));
  await form.getByRole('button', { name: 'Solicitar demo' }).click();
  const response = await stored;
  expect(response.status()).toBe(201);
  expect(new URL(response.url()).searchParams.get('source')).toBe('alianzas-corporativas');
  await expect(page.getByRole('alert').filter({ hasText: 'Solicitud enviada con éxito' })).toBeVisible();
});

test('un correo mal escrito se señala en su campo antes de enviar', async ({ page }) => {
  await page.goto('/solicitar-demo/');
  await fillDemoForm(page);
  await page.getByLabel('Correo electrónico').fill('rosa@');
  await page.getByRole('button', { name: 'Solicitar demo' }).click();
  // The browser-side rule catches it first: no call, a field message.
  await expect(page.getByText('Debe ser un correo valido')).toBeVisible();
});

test('la calculadora muestra lo que calcula el dominio', async ({ page }) => {
  await page.goto('/calculadora/');
  await hydrated(page);
  await page.getByLabel('Monto de la factura (MXN)').fill('480,000.00');
  await page.getByLabel('Días para la fecha de pago').fill('75');
  await page.getByLabel('Tasa anual').selectOption({ label: '17.00 % tasa + IVA' });
  const quote = advanceQuote({ amount: parseMoney('480000.00'), maxRate: '19.72', days: 75 });
  const result = page.getByRole('region', { name: 'Tu adelanto', exact: true });
  await expect(result.getByText(formatCurrency(quote.total, 'MXN'))).toBeVisible();
  await expect(result.getByText(`−${formatCurrency(quote.costFinancing, 'MXN')}`)).toBeVisible();
  await expect(result.getByText('17.00 % tasa + IVA')).toBeVisible();
});

test('el boletín guarda el correo y regresa a la página con el resultado', async ({ page }) => {
  await page.goto('/compradores/');
  await hydrated(page);
  await page.getByLabel('Correo para el boletín').fill('tesoreria@example.mx');
  await page.getByRole('button', { name: 'Suscribirme' }).click();
  await expect(page).toHaveURL(/\/compradores\/\?boletin=suscrito#boletin$/);
  await expect(
    page.getByRole('status').filter({ hasText: 'Te enviaremos el próximo boletín' }),
  ).toBeVisible();
});

test('Requisitos incrusta el PDF del proyecto y lo ofrece para descargar', async ({ page, request }) => {
  await page.goto('/requisitos/');
  const frame = page.locator('iframe.site-pdf');
  await expect(frame).toHaveAttribute('src', '/documentos/requisitos-alianza-corporativa.pdf');
  const download = page.getByRole('link', { name: 'Descargar la lista en PDF' });
  await expect(download).toHaveAttribute('download', 'requisitos-alianza-corporativa.pdf');
  const pdf = await request.get('/documentos/requisitos-alianza-corporativa.pdf');
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
});

test('Contacto ofrece correo y mensaje de chat', async ({ page }) => {
  await page.goto('/contacto/');
  await expect(page.getByRole('main').getByRole('link', { name: 'contacto@flujo.mx' })).toHaveAttribute(
    'href',
    /^mailto:contacto@flujo\.mx/,
  );
  await expect(
    page.getByRole('main').getByRole('link', { name: 'Enviar mensaje por WhatsApp' }),
  ).toHaveAttribute('href', /^https:\/\/wa\.me\/\d+\?text=/);
});

test('el modo oscuro se guarda y se aplica al volver', async ({ page }) => {
  await page.goto('/inicio/');
  await hydrated(page);
  const toggle = page.getByRole('button', { name: 'Modo oscuro' });
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(page.locator('.site')).toHaveClass(/site--dark/);
  expect(await page.evaluate(() => localStorage.getItem('flujo.darkMode'))).toBe('true');
  await page.goto('/contacto/');
  await hydrated(page);
  await expect(page.locator('.site')).toHaveClass(/site--dark/);
  await expect(page.getByRole('button', { name: 'Modo oscuro' })).toHaveAttribute('aria-pressed', 'true');
});

test('con sesión, la navegación ofrece Dashboard y Cerrar Sesión, que borra todo', async ({ page }) => {
  await page.goto('/inicio/');
  const nav = page.getByRole('navigation', { name: 'Principal' });
  await expect(nav.getByRole('link', { name: 'Ingresar' })).toHaveAttribute('href', '/auth/ingresar/');
  await expect(nav.getByRole('link', { name: 'Crear cuenta' })).toHaveAttribute('href', '/auth/registro/');
  await page.evaluate(() => {
    localStorage.setItem('flujo.user', JSON.stringify({ isAuthenticated: true }));
    localStorage.setItem('flujo.darkMode', 'false');
  });
  await page.goto('/proveedores/');
  await hydrated(page);
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard/');
  await expect(nav.getByRole('link', { name: 'Ingresar' })).toHaveCount(0);
  await nav.getByRole('button', { name: 'Cerrar Sesión' }).click();
  await expect(page).toHaveURL(/\/inicio\/$/);
  expect(await page.evaluate(() => localStorage.getItem('flujo.darkMode'))).toBeNull();
  await expect(nav.getByRole('link', { name: 'Ingresar' })).toBeVisible();
});
