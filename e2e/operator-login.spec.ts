import { expect } from '@playwright/test';
import { totpCode } from '../server/modules/auth/totp';
import { OPERATOR_LOGIN_MESSAGES } from '../src/domain/schemas/operator-session';
import { ACCESS_TOKEN_KEY } from '../src/stores/storage-keys';
import {
  createOperatorAccount,
  DEMO_PASSWORD,
  expectNoAxeViolations,
  logIn,
  passwordLinkFor,
  test,
} from './support';

// Operators' identity (decision 0050) in the real browser: an operator made by `ops operator:create` sets a
// password from the invitation, signs in with the password and the code of the printed enrolment, finds the
// back office with their name and roles, reads the Bitácora and signs out to the operators' door.

const PASSWORD = 'Girasol-Norte-77';

test('an operator created by ops operator:create sets a password, signs in with TOTP and uses the back office', async ({
  page,
}) => {
  const username = `operadora.${Date.now().toString(36)}`;
  const email = `${username}@flujo.mx`;
  const secret = createOperatorAccount(username, email, 'analista,aprobador');

  await page.goto(await passwordLinkFor(email));
  await page.getByLabel('Nueva contraseña').fill(PASSWORD);
  await page.getByRole('button', { name: /Guardar|Cambiar/ }).click();
  await expect(page).toHaveURL(/\/auth\/ingresar\/$/, { timeout: 20_000 });

  // Step 1, by keyboard.
  await page.goto('/operacion/ingresar/');
  await expect(page.getByRole('heading', { level: 1, name: 'Ingreso de operadores' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel('Usuario', { exact: true }).fill(username);
  await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Contraseña', { exact: true }).press('Enter');

  // Step 2: a wrong code first, then the code the authenticator would show.
  const code = page.getByLabel('Código de verificación', { exact: true });
  await expect(code).toBeVisible({ timeout: 20_000 });
  await expectNoAxeViolations(page);
  await code.fill('000000');
  await code.press('Enter');
  await expect(page.getByRole('alert')).toContainText('El código no es correcto', { timeout: 20_000 });
  await code.fill(totpCode(secret, new Date()));
  await code.press('Enter');

  await expect(page).toHaveURL(/\/operacion\/mesa\/$/, { timeout: 20_000 });
  const bar = page.locator('.operator-shell__bar');
  await expect(bar).toContainText('Regina Olvera');
  await expect(bar).toContainText('Analista, Aprobador');
  // A section's document paints a frame of its page first (decision 0033); the live page replaces it.
  await page.goto('/operacion/bitacora/');
  await expect(page.getByRole('heading', { level: 1, name: 'Bitácora' })).toHaveCount(1, { timeout: 20_000 });
  await expect(page.locator('#flujo-frame')).toHaveCount(0);
  await expect(bar).toContainText('Analista, Aprobador');

  // The Bitácora lists the operator's own calls, filtered in the URL.
  await page.getByRole('link', { name: 'Bitácora' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Bitácora' })).toBeVisible();
  await page.getByLabel('Operador').fill(username);
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await expect(page).toHaveURL(new RegExp(`operator=${username.replace('.', '\\.')}`));
  await expect(page.getByRole('cell', { name: 'Consultar la bitácora' }).first()).toBeVisible({
    timeout: 20_000,
  });
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/operacion\/ingresar\/$/, { timeout: 20_000 });
  expect(await page.evaluate((key) => localStorage.getItem(key), ACCESS_TOKEN_KEY)).toBeNull();
  // The back office is closed again, its frame gone with it.
  await page.goto('/operacion/bitacora/');
  await expect(page).toHaveURL(/\/operacion\/ingresar\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Ingreso de operadores' })).toBeVisible();
  await expect(page.locator('#flujo-frame')).toHaveCount(0);
});

test("an operator at the providers' login is told where operators sign in", async ({ page }) => {
  await logIn(page, 'operador.demo', DEMO_PASSWORD);
  await expect(page.getByRole('alert')).toContainText(OPERATOR_LOGIN_MESSAGES.wrongDoor);
  await expect(page).toHaveURL(/\/auth\/ingresar\/$/);
  // And the back office stays closed: no operator session was kept.
  await page.goto('/operacion/bitacora/');
  await expect(page).toHaveURL(/\/operacion\/ingresar\/$/);
});
