import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../src/domain/paths';
import { bearer } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { createOperatorSession } from '../support/operator';

// Issue 31: a reset or invitation link read from a log is a way into that account (decision 0060).
describe("the server's log never holds a password-reset or invitation token", () => {
  let ctx: ApiTestContext;
  const lines: string[] = [];

  beforeAll(async () => {
    ctx = await createApiApp({
      logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
    });
  });
  afterAll(() => ctx.close());

  /** The token of the link in the latest e-mail of the outbox. */
  async function latestToken(): Promise<string> {
    const mail = await ctx.database.db
      .selectFrom('mail_outbox')
      .select('body_text')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const token = new URL(/http\S+/.exec(mail.body_text)?.[0] ?? '').searchParams.get('token');
    if (!token) throw new Error(`no token in ${mail.body_text}`);
    return token;
  }

  /** Opens the link as the browser does: the new-password page with the token in its query. */
  const openLink = (token: string) =>
    ctx.app.inject({ method: 'GET', url: `${paths.newPassword}?token=${encodeURIComponent(token)}` });

  it('after a password reset and an operator invitation, each link opened', async () => {
    const reset = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/request-reset-password/',
      payload: { email: 'proveedor.demo@flujo.mx' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const resetToken = await latestToken();
    await openLink(resetToken);

    const analista = await createOperatorSession(ctx, { roles: ['analista'] });
    const invitation = await ctx.app.inject({
      method: 'POST',
      url: '/api/operator/corporates/',
      headers: bearer(analista.access),
      payload: {
        rfc: 'LRE200101AB1',
        name: 'Bitácora Limpia, S.A. de C.V.',
        admin: { name: 'Renata', last_name: 'Olvera', email: 'renata@bitacora-limpia.example.mx' },
      },
    });
    expect(invitation.statusCode, invitation.body).toBe(201);
    const invitationToken = await latestToken();
    await openLink(invitationToken);

    const log = lines.join('');
    expect(log).not.toContain(resetToken);
    expect(log).not.toContain(invitationToken);
    // Not by logging nothing: the lines that used to carry the tokens are there (the requests', the mailer's).
    expect(log).toContain(`${paths.newPassword}?token=[redacted]`);
    expect(log).toContain('mail kept in the outbox');
  });
});
