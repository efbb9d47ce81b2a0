import { createHash, randomBytes } from 'node:crypto';
import { paths } from '../../../src/domain/paths';
import { MESSAGES as FIELD_MESSAGES } from '../../../src/domain/schemas/fields';
import type { PasswordReset, PasswordResetRequest } from '../../../src/domain/schemas/session';
import { type FieldErrors as FieldErrorMap, FORM_ERROR_KEY } from '../../../src/domain/schemas/validate';
import { inTransaction } from '../../db/transaction';
import { FieldErrors } from '../../http/errors';
import { revokeUserSessions } from '../auth/session.service';
import type { AccountsDeps } from './accounts-deps';
import { ACCOUNT_MESSAGES } from './messages';
import { hashPassword } from './password';
import { findResetToken, insertResetToken, spendUserResetTokens } from './password-reset.repository';
import { passwordProblems } from './password-rules';
import { findUserByEmail, updatePasswordHash } from './user.repository';

export const RESET_LINK_MINUTES = 60;

// The reset screen's wording (spec §5 "New password"), the same the PasswordReset struct uses.
const RESET_PASSWORD_MESSAGES = {
  tooShort: FIELD_MESSAGES.passwordTooShort,
  numeric: FIELD_MESSAGES.newPasswordNumeric,
};

/** An unknown e-mail is answered 400 {message} (not {detail}): the spec's client reads `message`. */
export class UnknownEmailError extends Error {
  readonly statusCode = 400;
  constructor() {
    super(ACCOUNT_MESSAGES.resetUnknownEmail);
  }
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

function resetMail(firstName: string, link: string): string {
  return [
    `Hola ${firstName}:`,
    '',
    'Recibimos una solicitud para restablecer la contraseña de tu cuenta de Flujo.',
    'Para elegir una contraseña nueva, abre este enlace:',
    '',
    link,
    '',
    `El enlace funciona una sola vez y vence en ${RESET_LINK_MINUTES} minutos.`,
    'Si no solicitaste el cambio, ignora este correo: tu contraseña sigue igual.',
    '',
    'Equipo Flujo',
  ].join('\n');
}

/**
 * A one-use link to the new-password screen for the user, live for `minutes`: the reset's own (60) or an
 * invitation's longer one (a corporate's first user, 72 h). resetPassword takes either, since each row keeps
 * its own expiry.
 */
export async function issueResetLink(
  deps: Pick<AccountsDeps, 'now' | 'appBaseUrl'>,
  db: AccountsDeps['db'],
  userId: number,
  minutes: number,
): Promise<string> {
  // 256 random bits in the link; only their SHA-256 is stored, so a database reader cannot reset passwords.
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(deps.now().getTime() + minutes * 60_000);
  await insertResetToken(db, { userId, tokenHash: sha256(token), expiresAt });
  return `${deps.appBaseUrl}${paths.newPassword}?token=${encodeURIComponent(token)}`;
}

/** POST /api/users/request-reset-password/ {email}. */
export async function requestPasswordReset(
  deps: AccountsDeps,
  form: PasswordResetRequest,
  address: string,
): Promise<{ message: string }> {
  const email = form.email.toLowerCase();
  await deps.publicWrites.take('resetRequest', { address, email });

  const user = await findUserByEmail(deps.db, email);
  if (!user?.is_active) throw new UnknownEmailError();

  const link = await issueResetLink(deps, deps.db, user.id, RESET_LINK_MINUTES);
  await deps.mailer.send({
    to: user.email,
    subject: 'Restablece tu contraseña de Flujo',
    text: resetMail(user.first_name, link),
  });
  return { message: ACCOUNT_MESSAGES.resetRequested };
}

const invalidLink = () =>
  new FieldErrors({
    old_password: [ACCOUNT_MESSAGES.resetLinkInvalid],
    token: [ACCOUNT_MESSAGES.resetLinkInvalid],
  });

/** Password-rule errors of a reset, listed under old_password (what the spec's client shows, §8) and new_password. */
function ruleErrors(problems: string[]): FieldErrors {
  return new FieldErrors({ old_password: problems, new_password: problems });
}

/**
 * The 400 of a reset its struct refused: no usable token is an invalid link; a typed password lists every rule
 * it breaks in Django's order (the personal data is known only once the link is, so similarity waits for it).
 */
export function passwordResetRefusal(errors: FieldErrorMap, body: unknown): FieldErrors {
  if (errors.token) return invalidLink();
  const typed =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>).new_password : null;
  // The password rules word the problem when they see one; otherwise the struct's own message (say, a NUL in it).
  const problems =
    typeof typed === 'string' && typed !== '' ? passwordProblems(typed, {}, RESET_PASSWORD_MESSAGES) : [];
  if (problems.length > 0) return ruleErrors(problems);
  return ruleErrors(errors.new_password ?? errors[FORM_ERROR_KEY] ?? [FIELD_MESSAGES.invalid]);
}

type ResetLink = { used_at: string | null; expires_at: string; is_active: boolean };

function isLive(row: ResetLink | undefined, now: Date): boolean {
  return row !== undefined && row.used_at === null && row.is_active && new Date(row.expires_at) > now;
}

/**
 * POST /api/users/reset-password/ {new_password, token} with a body its struct accepted: the link, then every
 * password rule with the user's personal data. Every error is listed under old_password, which is what the spec's
 * client shows (§8 "Reset failure"); password-rule errors also under new_password.
 */
export async function resetPassword(deps: AccountsDeps, form: PasswordReset): Promise<{ message: string }> {
  const tokenHash = sha256(form.token);
  const row = await findResetToken(deps.db, tokenHash);
  if (!row || !isLive(row, deps.now())) throw invalidLink();

  const problems = passwordProblems(
    form.new_password,
    { username: row.username, firstName: row.first_name, lastName: row.last_name, email: row.email },
    RESET_PASSWORD_MESSAGES,
  );
  if (problems.length > 0) throw ruleErrors(problems);

  const passwordHash = await hashPassword(form.new_password);
  const changed = await inTransaction(deps.db, async (trx) => {
    // Locked re-read: two requests with the same link cannot both succeed.
    const locked = await findResetToken(trx, tokenHash, true);
    if (!locked || !isLive(locked, deps.now())) return false;
    await updatePasswordHash(trx, locked.user_id, passwordHash);
    await spendUserResetTokens(trx, locked.user_id, deps.now());
    await revokeUserSessions({ db: trx, now: deps.now }, locked.user_id);
    return true;
  });
  if (!changed) throw invalidLink();
  return { message: ACCOUNT_MESSAGES.passwordReset };
}
