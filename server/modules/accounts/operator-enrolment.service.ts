import { randomBytes } from 'node:crypto';
import { OPERATOR_ROLE_LABELS, type OperatorRole } from '../../../src/domain/operator-roles';
import { paths } from '../../../src/domain/paths';
import { emailAddress, payload, username } from '../../../src/domain/schemas/fields';
import { validateForm } from '../../../src/domain/schemas/validate';
import type { Db } from '../../db/database';
import { inTransaction } from '../../db/transaction';
import type { Mailer } from '../../mail/mailer';
import type { Clock } from '../auth/clock';
import { revokeUserSessions } from '../auth/session.service';
import { newTotpSecret, otpauthUri } from '../auth/totp';
import { normalizeRecoveryCode } from './operator-login.service';
import { endPendingMfaChallenges, replaceRecoveryCodes, upsertOperatorTotp } from './operator-mfa.repository';
import { newRecoveryCodes, recoveryCodeHash, sealTotpSecret } from './operator-secrets';
import { hashPassword } from './password';
import { issueResetLink } from './password-reset.service';
import { insertOperatorUser, updateOperatorRoles, usernameOrEmailTaken } from './user.repository';

// Operators exist only through `npm run ops -- operator:create` (and the demo world): a user with operator
// roles, no usable password until the invitation link sets one, and a TOTP secret with ten recovery codes shown
// once (docs/decisions/0050-operators-identity.md).

/** The invitation link lives as long as a corporate's first user's. */
export const OPERATOR_INVITATION_HOURS = 72;

export class OperatorCreationError extends Error {}

export interface OperatorEnrolment {
  userId: number;
  /** Base32, for typing into an authenticator by hand. */
  secret: string;
  otpauthUri: string;
  recoveryCodes: string[];
}

/** Seals a TOTP secret and stores the recovery codes' hashes for a user (replacing earlier ones). */
export async function enrolOperatorTotp(
  db: Db,
  secretKey: Buffer,
  user: { id: number; username: string },
  secret: string = newTotpSecret(),
  recoveryCodes: string[] = newRecoveryCodes(),
): Promise<OperatorEnrolment> {
  await upsertOperatorTotp(db, user.id, sealTotpSecret(secret, secretKey, user.id));
  await storeRecoveryCodes(db, secretKey, user.id, recoveryCodes);
  return { userId: user.id, secret, otpauthUri: otpauthUri(secret, user.username), recoveryCodes };
}

/** Replaces a user's recovery codes with these, stored keyed (operator-secrets.ts), each good once. */
export async function storeRecoveryCodes(
  db: Db,
  secretKey: Buffer,
  userId: number,
  recoveryCodes: readonly string[],
): Promise<void> {
  await replaceRecoveryCodes(
    db,
    userId,
    recoveryCodes.map((code) => recoveryCodeHash(normalizeRecoveryCode(code), secretKey)),
  );
}

export interface CreateOperatorDeps {
  db: Db;
  secretKey: Buffer;
  mailer: Mailer;
  appBaseUrl: string;
  now: Clock;
}

const OperatorFields = payload({ username: username(), email: emailAddress() });

function invitationMail(
  name: string,
  roles: readonly OperatorRole[],
  link: string,
  loginUrl: string,
): string {
  return [
    `Hola ${name}:`,
    '',
    `Flujo te dio de alta como operador (${roles.map((role) => OPERATOR_ROLE_LABELS[role]).join(', ')}).`,
    'Para elegir tu contraseña, abre este enlace:',
    '',
    link,
    '',
    `El enlace funciona una sola vez y vence en ${OPERATOR_INVITATION_HOURS} horas.`,
    `Después ingresa en ${loginUrl} con tu usuario, tu contraseña y el código de tu aplicación de autenticación`,
    'que te entregó quien creó tu cuenta.',
    '',
    'Equipo Flujo',
  ].join('\n');
}

/**
 * A new operator: the user (unusable password), its TOTP enrolment and the e-mailed invitation to set a
 * password. Throws OperatorCreationError (Spanish) for a bad or taken username or e-mail, or no roles.
 */
export async function createOperator(
  deps: CreateOperatorDeps,
  input: {
    username: string;
    email: string;
    roles: readonly OperatorRole[];
    firstName?: string;
    lastName?: string;
  },
): Promise<OperatorEnrolment & { username: string; email: string }> {
  const checked = validateForm(OperatorFields, { username: input.username, email: input.email });
  if (!checked.ok) {
    const problems = Object.entries(checked.errors).map(
      ([field, messages]) => `${field}: ${messages.join(' ')}`,
    );
    throw new OperatorCreationError(problems.join('; '));
  }
  if (input.roles.length === 0) throw new OperatorCreationError('Un operador necesita al menos un rol.');
  const { username: name, email } = checked.value;
  const taken = await usernameOrEmailTaken(deps.db, name, email);
  if (taken.username) throw new OperatorCreationError(`Ya existe un usuario ${name}.`);
  if (taken.email) throw new OperatorCreationError(`Ya existe un usuario con el correo ${email}.`);

  // Nobody knows this password: the invitation link sets the real one.
  const unusable = await hashPassword(randomBytes(32).toString('base64url'));
  const created = await inTransaction(deps.db, async (trx) => {
    const userId = await insertOperatorUser(trx, {
      username: name,
      email: email.toLowerCase(),
      passwordHash: unusable,
      firstName: input.firstName ?? name,
      lastName: input.lastName ?? '',
      roles: input.roles,
    });
    const enrolment = await enrolOperatorTotp(trx, deps.secretKey, { id: userId, username: name });
    const link = await issueResetLink(deps, trx, userId, OPERATOR_INVITATION_HOURS * 60);
    return { enrolment, link };
  });
  await deps.mailer.send({
    to: email.toLowerCase(),
    subject: 'Tu acceso de operador a Flujo',
    text: invitationMail(
      input.firstName ?? name,
      input.roles,
      created.link,
      `${deps.appBaseUrl}${paths.operatorLogin}`,
    ),
  });
  return { ...created.enrolment, username: name, email: email.toLowerCase() };
}

/**
 * Re-enrols an operator who lost the authenticator or ran out of recovery codes, in one transaction: a new
 * sealed secret (the lock, its failures and the last step go with the old one), ten new recovery codes (the old
 * ones stop working), the challenges waiting for a code ended, and every session revoked, so a stolen phone's
 * session ends too. Returns the enrolment to hand over and how many refresh tokens were revoked.
 */
export async function resetOperatorMfa(
  deps: { db: Db; secretKey: Buffer; now: Clock },
  operator: { id: number; username: string },
): Promise<OperatorEnrolment & { sessionsRevoked: number }> {
  return inTransaction(deps.db, async (trx) => {
    const enrolment = await enrolOperatorTotp(trx, deps.secretKey, operator);
    await endPendingMfaChallenges(trx, operator.id, deps.now());
    const sessionsRevoked = await revokeUserSessions({ db: trx, now: deps.now }, operator.id);
    return { ...enrolment, sessionsRevoked };
  });
}

/**
 * Sets an operator's roles. Sessions stay: the operator guard reads the roles from the database on every
 * request (loadAuthenticatedUser), so the next call already answers to the new ones.
 */
export async function setOperatorRoles(
  db: Db,
  userId: number,
  roles: readonly OperatorRole[],
): Promise<void> {
  if (roles.length === 0) throw new OperatorCreationError('Un operador necesita al menos un rol.');
  await updateOperatorRoles(db, userId, roles);
}
