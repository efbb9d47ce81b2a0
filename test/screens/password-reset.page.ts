import { screen } from '@testing-library/react';
import { testApp } from '../model/harness/test-server';

export const USERNAME = 'proveedor.demo';

export const EMAIL = 'proveedor.demo@flujo.mx';

export const ENDPOINT = '/api/users/reset-password/';

export const LINK = /\/auth\/reiniciar-contrasena\/\?token=[^\s"'<>]+/;

export const db = () => testApp().database.db;

export const submitButton = () =>
  screen.getByRole('button', { name: /Guardar contraseña/ }) as HTMLButtonElement;

export const rule = (id: string) => document.querySelector(`[data-rule="${id}"]`) as HTMLElement;

/**
 * What the user clicks: the real server sends the reset e-mail (mail_outbox) and the test reads its link,
 * as the browser test does. The server keeps only a hash of the token, so the e-mail is the one source.
 */
export async function emailedResetLink(): Promise<{ link: string; token: string }> {
  await db().deleteFrom('throttle_hits').execute();
  const response = await testApp().app.inject({
    method: 'POST',
    url: '/api/users/request-reset-password/',
    payload: { email: EMAIL },
  });
  if (response.statusCode !== 200) throw new Error(`reset request failed: ${response.body}`);
  const mail = await db()
    .selectFrom('mail_outbox')
    .select('body_text')
    .where('recipient', '=', EMAIL)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const link = LINK.exec(mail.body_text)?.[0];
  if (!link) throw new Error(`no reset link in the e-mail: ${mail.body_text}`);
  const token = new URLSearchParams(link.split('?')[1]).get('token') ?? '';
  return { link, token };
}

export async function passwordHashOf(username: string): Promise<string> {
  const row = await db()
    .selectFrom('users')
    .select('password_hash')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return row.password_hash;
}
