import { expect, type Page } from '@playwright/test';
import { formatCurrency, parseMoney } from '../src/domain/money';
import { advanceQuote } from '../src/domain/quote';
import {
  expectNoAxeViolations as expectSettledPageAxeClean,
  horizontalOverflow,
  operator,
  recordRequests,
  requestsOutside,
  test,
} from './support';

// The public site as a visitor gets it: the prerendered pages from the real server, in Chromium.

interface PublicPage {
  path: string;
  heading: string;
  texts: string[];
  /** Spec §1's marketing claims as the page shows them: the figure and the words beside it. */
  claims?: [figure: string, words: string][];
  dark?: boolean;
}

const PAGES: PublicPage[] = [
  {
    path: '/inicio/',
    heading: 'Cobra tus facturas hoy, sin deuda',
    texts: ['la alianza no tiene costo'],
    claims: [
      ['< 10 min', 'para registrarte'],
      ['< 2 horas', 'para recibir tu pago'],
      ['< 24 horas', 'para adelantar facturas preautorizadas'],
      ['3 clics', 'para pedir un adelanto'],
      ['90 días', 'fechas de pago de hasta 90 días'],
    ],
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

/** Console errors and uncaught exceptions, which fail a test. */
function recordErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  return errors;
}

/** The public site's background: the dark tokens (`site--dark`, dark pages) or the light ones. */
const BACKGROUND = { dark: 'rgb(17, 20, 24)', light: 'rgb(255, 255, 255)' };

async function expectBackground(page: Page, tone: keyof typeof BACKGROUND) {
  const background = await page.locator('.site').evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(background).toBe(BACKGROUND[tone]);
}

/** Waits until React has taken over the prerendered page. */
async function hydrated(page: Page) {
  await expect(page.locator('.site')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
}

/**
 * The mobile menu as a visitor uses it: Menú opens it (then `whileOpen` runs), Escape closes it, and
 * opened again it leads to another page.
 */
async function openCloseAndFollowMenu(page: Page, whileOpen: () => Promise<void> = async () => {}) {
  const menu = page.getByRole('button', { name: 'Menú' });
  const nav = page.getByRole('navigation', { name: 'Principal' });
  await expect(nav.getByRole('link', { name: 'Calculadora' })).toBeHidden();
  await menu.click();
  await expect(nav.getByRole('link', { name: 'Calculadora' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Crear cuenta' })).toBeVisible();
  await whileOpen();
  await page.keyboard.press('Escape');
  await expect(nav.getByRole('link', { name: 'Calculadora' })).toBeHidden();
  await menu.click();
  await nav.getByRole('link', { name: 'Calculadora' }).click();
  await expect(page).toHaveURL(/\/calculadora\/$/);
}

async function expectNoAxeViolations(page: Page) {
  // Off-screen sections skip rendering (content-visibility); axe must see all of them to check contrast.
  await page.addStyleTag({
    content: '.site-section,.site-cta,.site-footer{content-visibility:visible!important}',
  });
  await expectSettledPageAxeClean(page, 'iframe.site-pdf');
}

for (const viewport of WIDTHS) {
  test.describe(`sitio público en ${viewport.name} (${viewport.width} px)`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    for (const publicPage of PAGES) {
      test(`${publicPage.path} muestra su contenido y pasa axe`, async ({ page, baseURL }) => {
        const requests = recordRequests(page);
        const errors = recordErrors(page);
        await page.goto(publicPage.path);
        await expect(page.getByRole('heading', { level: 1, name: publicPage.heading })).toBeVisible();
        for (const text of publicPage.texts) await expect(page.getByText(text).first()).toBeAttached();
        for (const [figure, words] of publicPage.claims ?? []) {
          const claim = page.locator('.site-claims li').filter({ hasText: figure });
          await expect(claim.locator('strong')).toHaveText(figure);
          await expect(claim).toContainText(words);
        }
        await hydrated(page);
        await expect(page).toHaveTitle(/Flujo/);
        await expectNoAxeViolations(page);

        await expectBackground(page, publicPage.dark ? 'dark' : 'light');
        expect(await horizontalOverflow(page), 'the page scrolls sideways').toBe(0);

        // Nothing from another origin, no dashboard or session code, no Blueprint all-icons chunk.
        // (The browser's own PDF viewer loads chrome:// resources for the embedded checklist; not the page's.)
        expect(requestsOutside(requests, new URL(baseURL!).origin)).toEqual([]);
        const scripts = requests.filter((r) => r.resourceType() === 'script').map((r) => r.url());
        expect(
          scripts.filter((url) => /dashboard|session|registro|ingresar|\/paths-|allPaths/.test(url)),
        ).toEqual([]);
        expect(errors).toEqual([]);
      });
    }
  });
}

// The footer links to an app route; it is not prerendered, so it loads the app bundle (router, session
// machine) by design, and hydration markers and chunk checks do not apply. The rest does.
test.describe('la ruta de la app enlazada desde el pie', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('/diagramas/ muestra su contenido y pasa axe', async ({ page, baseURL }) => {
    const requests = recordRequests(page);
    const errors = recordErrors(page);
    await page.goto('/inicio/');
    await page
      .getByRole('navigation', { name: 'Atención' })
      .getByRole('link', { name: 'Diagramas de flujo de trabajo' })
      .click();
    await expect(page).toHaveURL(/\/diagramas\/$/);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Diagramas de flujo de trabajo' }),
    ).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Ciclo de vida de la factura' })).toBeVisible();
    await expect(page).toHaveTitle(/Flujo/);
    await expectNoAxeViolations(page);
    await expectBackground(page, 'light');
    expect(requestsOutside(requests, new URL(baseURL!).origin)).toEqual([]);
    expect(errors).toEqual([]);
  });
});

// What axe cannot see on a freshly loaded page: the states a visitor brings about after hydration.
test.describe('estados después de cargar, en un teléfono', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test.describe('con el modo oscuro guardado', () => {
    test.beforeEach(async ({ page }) => {
      // The key theme.store.ts reads (src/stores/storage-keys.ts, DARK_MODE_KEY). Only in the page itself:
      // the init script also runs in frames, such as the browser's PDF viewer, which has no storage.
      await page.addInitScript(() => {
        if (window.top === window) localStorage.setItem('flujo.darkMode', 'true');
      });
    });

    for (const publicPage of PAGES.filter((candidate) => !candidate.dark)) {
      test(`${publicPage.path} en modo oscuro pasa axe`, async ({ page }) => {
        const errors = recordErrors(page);
        await page.goto(publicPage.path);
        await hydrated(page);
        await expect(page.locator('.site')).toHaveClass(/site--dark/);
        await expect(page.getByRole('button', { name: 'Modo oscuro' })).toHaveAttribute(
          'aria-pressed',
          'true',
        );
        await expectBackground(page, 'dark');
        await expectNoAxeViolations(page);
        expect(errors).toEqual([]);
      });
    }
  });

  test('el menú abierto pasa axe', async ({ page }) => {
    await page.goto('/inicio/');
    await hydrated(page);
    await page.getByRole('button', { name: 'Menú' }).click();
    const nav = page.getByRole('navigation', { name: 'Principal' });
    await expect(nav.getByRole('link', { name: 'Calculadora' })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('el formulario de demo pasa axe con sus errores y con el aviso de éxito', async ({ page }) => {
    await page.goto('/solicitar-demo/');
    await hydrated(page);
    const form = page.locator('form[aria-label="Solicitar demo"]');
    await expect(form).toContainText('Todos los campos son obligatorios.');
    await form.getByRole('button', { name: 'Solicitar demo' }).click();
    for (const label of ['Nombre', 'Apellido', 'Teléfono', 'Correo electrónico', 'Empresa']) {
      const input = form.getByLabel(label);
      await expect(input).toHaveAttribute('aria-required', 'true');
      await expect(input).toHaveAttribute('aria-invalid', 'true');
      // The message under the field is what a screen reader hears with it.
      await expect(input).toHaveAccessibleDescription('Este campo es obligatorio');
    }
    await expectNoAxeViolations(page);

    await fillDemoForm(page, form, { first: 'Lucía', last: 'Garza', company: 'Empaques del Bajío' });
    await form.getByRole('button', { name: 'Solicitar demo' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Solicitud enviada con éxito' })).toBeVisible();
    await expect(form.getByLabel('Nombre')).not.toHaveAttribute('aria-describedby');
    await expectNoAxeViolations(page);
  });

  test('la calculadora con un dato inválido pasa axe', async ({ page }) => {
    await page.goto('/calculadora/');
    await hydrated(page);
    const amount = page.getByLabel('Monto de la factura (MXN)');
    await amount.fill('');
    await expect(amount).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('.site-field__error').first()).toBeVisible();
    await expectNoAxeViolations(page);
  });
});

// Hydration comes late on purpose (decision 0007); until then, and with no script at all, the menu and
// the newsletter still work.
test.describe('sin JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test.describe('en un teléfono', () => {
    test.use({ viewport: { width: 375, height: 812 } });

    test('el menú se abre, se cierra con Escape y lleva a otra página', async ({ page }) => {
      await page.goto('/inicio/');
      await expect(page.locator('html')).not.toHaveAttribute('data-hydrated');
      await openCloseAndFollowMenu(page);
    });

    test.describe('sin el script de la página', () => {
      // NOTE: axe runs inside the page and waits on its own timers, which never fire with JavaScript off
      // (analyze() hangs). So the page's scripts are refused instead: the same no-script page, with axe.
      test.use({ javaScriptEnabled: true });

      test('el menú abierto pasa axe', async ({ page }) => {
        await page.route(/\.js$/, (route) => route.abort());
        await page.goto('/inicio/');
        await page.getByRole('button', { name: 'Menú' }).click();
        const nav = page.getByRole('navigation', { name: 'Principal' });
        await expect(nav.getByRole('link', { name: 'Calculadora' })).toBeVisible();
        // What axe checks is the native popover, open.
        expect(await nav.evaluate((element) => element.matches(':popover-open'))).toBe(true);
        await expectNoAxeViolations(page);
        await expect(page.locator('html')).not.toHaveAttribute('data-hydrated');
      });
    });
  });

  test.describe('en escritorio', () => {
    test.use({ viewport: { width: 1280, height: 900 } });

    test('la navegación se ve completa y sin botón de menú', async ({ page }) => {
      await page.goto('/proveedores/');
      const nav = page.getByRole('navigation', { name: 'Principal' });
      await expect(page.getByRole('button', { name: 'Menú' })).toBeHidden();
      for (const name of [
        'Inicio',
        'Proveedores',
        'Calculadora',
        'Solicitar Demo',
        'Ingresar',
        'Crear cuenta',
      ]) {
        await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
      }
      await expect(nav.getByRole('link', { name: 'Proveedores' })).toHaveAttribute('aria-current', 'page');
    });

    test('el boletín regresa a la página donde se envió', async ({ page }) => {
      await page.goto('/compradores/');
      await expect(page.locator('input[name="origen"]')).toHaveValue('/compradores/');
      await page.getByLabel('Correo para el boletín').fill('finanzas.sin.js@example.mx');
      await page.getByRole('button', { name: 'Suscribirme' }).click();
      await expect(page).toHaveURL(/\/compradores\/\?boletin=suscrito#boletin$/);
    });
  });
});

test.describe('en un teléfono', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('un menú abierto antes de hidratar sigue abierto cuando React lo toma', async ({ page }) => {
    // Holds the hydration code back until the menu is open.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/hydrate-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/inicio/');
    const menu = page.getByRole('button', { name: 'Menú' });
    const nav = page.getByRole('navigation', { name: 'Principal' });
    await menu.click();
    await expect(nav.getByRole('link', { name: 'Calculadora' })).toBeVisible();
    // A keyboard visitor has moved into the links.
    await page.keyboard.press('Tab');
    const focused = nav.getByRole('link', { name: 'Inicio' });
    await expect(focused).toBeFocused();
    await expect(page.locator('html')).not.toHaveAttribute('data-hydrated');
    const box = await nav.boundingBox();
    // The nav's box in every frame from here on, so a frame where it closes or moves shows up too.
    await nav.evaluate((element) => {
      const boxes: string[] = [];
      Object.assign(window, { navBoxes: boxes });
      const sample = () => {
        const { x, y, width, height } = element.getBoundingClientRect();
        boxes.push(JSON.stringify({ x, y, width, height }));
        requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    });
    release();
    await hydrated(page);
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(nav.getByRole('link', { name: 'Calculadora' })).toBeVisible();
    // Focus stays where the visitor left it and the menu does not move when React drops the popover.
    await expect(focused).toBeFocused();
    expect(await nav.boundingBox()).toEqual(box);
    const boxes = await page.evaluate(() => (window as unknown as { navBoxes: string[] }).navBoxes);
    expect([...new Set(boxes)].map((text) => JSON.parse(text))).toEqual([box]);
    await page.keyboard.press('Escape');
    await expect(nav.getByRole('link', { name: 'Calculadora' })).toBeHidden();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
  });

  test('el menú se abre y se cierra bajo 1024 px', async ({ page }) => {
    await page.goto('/inicio/');
    await hydrated(page);
    const menu = page.getByRole('button', { name: 'Menú' });
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await openCloseAndFollowMenu(page, () => expect(menu).toHaveAttribute('aria-expanded', 'true'));
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

interface DemoVisitor {
  first: string;
  last: string;
  company: string;
}

async function fillDemoForm(
  page: Page,
  scope = page.locator('form[aria-label="Solicitar demo"]'),
  visitor: DemoVisitor = { first: 'Rosa', last: 'Villalobos', company: 'Aceros del Norte' },
) {
  const email = `${visitor.first}.${visitor.last}@example.mx`
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
  await scope.getByLabel('Nombre').fill(visitor.first);
  await scope.getByLabel('Apellido').fill(visitor.last);
  await scope.getByLabel('Teléfono').fill('8112345678');
  await scope.getByLabel('Correo electrónico').fill(email);
  await scope.getByLabel('Empresa').fill(visitor.company);
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
  const form = await fillDemoForm(page, undefined, {
    first: 'Mauricio',
    last: 'Ibarra',
    company: 'Autopartes del Golfo',
  });
  const stored = page.waitForResponse((r) => r.url().includes('/api/accounts/request-demo/'));
  await form.getByRole('button', { name: 'Solicitar demo' }).click();
  const response = await stored;
  expect(response.status()).toBe(201);
  expect(new URL(response.url()).searchParams.get('source')).toBe('alianzas-corporativas');
  await expect(page.getByRole('alert').filter({ hasText: 'Solicitud enviada con éxito' })).toBeVisible();
  // The row itself, with the page it came from, as the operator reads it.
  expect(operator('demo-requests:list', '--limit', '20')).toMatch(
    /Mauricio Ibarra {2}Autopartes del Golfo {2}mauricio\.ibarra@example\.mx {2}8112345678 {2}\[alianzas-corporativas\]/,
  );
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
