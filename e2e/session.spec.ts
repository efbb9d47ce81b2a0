import { expect, type Page } from '@playwright/test';
import {
  DEMO_PASSWORD,
  horizontalOverflow,
  logIn,
  passwordLinkFor,
  recordRequests,
  requestsOutside,
  signUp,
  test,
} from './support';

async function logOutFromDashboard(page: Page) {
  await page.getByRole('button', { name: 'Mi cuenta' }).click();
  await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/inicio\/$/);
  expect(await page.evaluate(() => localStorage.length)).toBe(0);
}

test('the demo provider logs in, lands on Pronto Pago and logs out', async ({ page }) => {
  await logIn(page, 'proveedor.demo', DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard\/pronto-pago\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Pronto Pago' })).toBeVisible();
  await logOutFromDashboard(page);
});

test('the demo corporate logs in and lands on its payable accounts', async ({ page }) => {
  await logIn(page, 'corporativo.demo', DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard\/resumen-de-facturas\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Resumen de facturas' })).toBeVisible();
  await logOutFromDashboard(page);
});

test.describe('en un teléfono', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the login page fits the screen: form, then the benefits carousel, no sideways scroll', async ({
    page,
  }) => {
    await page.goto('/auth/ingresar/');
    const login = page.getByRole('button', { name: 'Ingresar' });
    await expect(login).toBeEnabled({ timeout: 15_000 });
    expect(await horizontalOverflow(page), 'the page scrolls sideways').toBe(0);
    const box = await login.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
  });
});

test('wrong credentials show the server message and keep the user out', async ({ page }) => {
  await logIn(page, 'proveedor.demo', 'no-es-la-clave');
  await expect(page.getByRole('alert')).toHaveText('Error en contraseña o usuario');
  await page.goto('/dashboard/');
  await expect(page).toHaveURL(/\/inicio\/$/);
});

test('a new provider signs up, resets the password, edits the profile, changes the password and logs out', async ({
  page,
  baseURL,
}) => {
  const id = Date.now().toString(36);
  const user = {
    username: `ana.${id}`,
    email: `ana.${id}@ejemplo.mx`,
    password: `Cobranza-${id}-Uno`,
    company: 'Refacciones Quintero',
  };

  // The sign-up page, ALTCHA widget included, loads and sends nothing to another host.
  const requests = recordRequests(page);
  await signUp(page, user);
  await expect(page.getByRole('status')).toContainText('Tu cuenta se creó correctamente');
  const paths = requests.map((request) => new URL(request.url()).pathname);
  expect(paths).toContain('/api/accounts/captcha/challenge/');
  expect(paths).toContain('/api/accounts/register/');
  expect(requestsOutside(requests, new URL(baseURL!).origin)).toEqual([]);

  await page.getByRole('link', { name: 'Olvidé mi contraseña' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Restablecer contraseña' })).toBeVisible();
  await page.getByLabel('Correo electrónico').fill(user.email);
  await page.getByRole('button', { name: /Enviar/ }).click();
  await expect(page.getByText('Te enviamos un correo con las instrucciones')).toBeVisible();

  const newPassword = `Factura-${id}-Dos`;
  await page.goto(await passwordLinkFor(user.email));
  await expect(page.getByRole('heading', { level: 1, name: 'Cambiar clave' })).toBeVisible();
  await page.getByLabel('Nueva contraseña').fill(newPassword);
  await page.getByRole('button', { name: /Guardar|Cambiar/ }).click();
  // Spec §4: the message shows, then the login screen after 4 s.
  await expect(page).toHaveURL(/\/auth\/ingresar\/$/, { timeout: 20_000 });

  await logIn(page, user.username, newPassword);
  // A new provider has no SAT link yet: every dashboard screen leads to the credentials form (spec §2).
  await expect(page).toHaveURL(/\/dashboard\/sat-credentials\/$/);

  await page.getByRole('button', { name: 'Mi cuenta' }).click();
  await page.getByRole('menuitem', { name: 'Perfil' }).click();
  await expect(page).toHaveURL(/\/editar-perfil\/$/);
  await page.getByLabel('Nombre').fill('Ana Sofía');
  await page.getByRole('button', { name: /Guardar/ }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Tu perfil se actualizó correctamente' }),
  ).toBeVisible();
  // The change is on the server, not only in the form: a reload reads it back.
  await page.reload();
  await expect(page).toHaveURL(/\/editar-perfil\/$/);
  await expect(page.getByLabel('Nombre')).toHaveValue('Ana Sofía');

  await page.goto('/cambiar-clave/');
  const finalPassword = `Proveedor-${id}-Tres`;
  await page.getByLabel('Contraseña actual').fill(newPassword);
  await page.getByLabel('Nueva contraseña').fill(finalPassword);
  await page.getByLabel('Confirmar contraseña').fill(finalPassword);
  await page.getByRole('button', { name: /Cambiar|Guardar/ }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Tu contraseña se actualizó correctamente' }),
  ).toBeVisible();

  // Public layout: logged in it shows Dashboard and Cerrar Sesión.
  await page.getByRole('button', { name: 'Cerrar Sesión' }).click();
  await expect(page).toHaveURL(/\/inicio\/$/);
  expect(await page.evaluate(() => localStorage.length)).toBe(0);
  await expect(page.getByRole('link', { name: 'Ingresar' })).toBeVisible();

  await logIn(page, user.username, finalPassword);
  await expect(page).toHaveURL(/\/dashboard\/sat-credentials\/$/);
});
