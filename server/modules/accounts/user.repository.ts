import type { Db } from '../../db/database';
import type { SessionFlagsRow, SessionUserRow } from '../auth/session-users';

export interface LoginCandidate {
  id: number;
  username: string;
  password_hash: string;
  is_active: boolean;
  /** Not empty for operators, whose login needs a second factor. */
  operator_roles: string[];
}

export interface ProfileRow {
  id: number;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  mobile_phone: string;
  receive_notification: boolean;
  password_hash: string;
  company_id: number | null;
  company_name: string | null;
  sat_status: number | null;
  disbursement_clabe: string | null;
  wallet_clabe: string | null;
  credit_payment_clabe: string | null;
}

/** Usernames are unique case-insensitively (index users_username_key on lower(username)). */
export function findUserByUsername(db: Db, username: string): Promise<LoginCandidate | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'password_hash', 'is_active', 'operator_roles'])
    .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
    .executeTakeFirst();
}

export function findUserByEmail(
  db: Db,
  email: string,
): Promise<
  { id: number; email: string; username: string; first_name: string; is_active: boolean } | undefined
> {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'username', 'first_name', 'is_active'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
}

export async function usernameOrEmailTaken(
  db: Db,
  username: string,
  email: string,
): Promise<{ username: boolean; email: boolean }> {
  const rows = await db
    .selectFrom('users')
    .select(['username', 'email'])
    .where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['username']), '=', username.toLowerCase()),
        eb(eb.fn('lower', ['email']), '=', email.toLowerCase()),
      ]),
    )
    .execute();
  return {
    username: rows.some((row) => row.username.toLowerCase() === username.toLowerCase()),
    email: rows.some((row) => row.email.toLowerCase() === email.toLowerCase()),
  };
}

/** E-mail addresses of the company's active users, in id order. */
export async function activeUserEmails(db: Db, companyId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select('email')
    .where('company_id', '=', companyId)
    .where('is_active', '=', true)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.email);
}

/** The company flags a session carries (a user without a company reads them as null). */
const SESSION_FLAG_COLUMNS = [
  'companies.is_corporate',
  'companies.has_factoring',
  'companies.corporate_can_pay_costs',
  'companies.sat_status',
  // Corporate access follows the onboarding machine (decision 0058) and the user's invitation to that side.
  'companies.onboarding_state',
  'users.corporate_access',
] as const;

export function sessionFlags(db: Db, userId: number): Promise<SessionFlagsRow | undefined> {
  return db
    .selectFrom('users')
    .leftJoin('companies', 'companies.id', 'users.company_id')
    .select(SESSION_FLAG_COLUMNS)
    .where('users.id', '=', userId)
    .executeTakeFirst();
}

/** Whether the user exists and is active. */
export async function isUserActive(db: Db, userId: number): Promise<boolean> {
  const user = await db.selectFrom('users').select('is_active').where('id', '=', userId).executeTakeFirst();
  return user?.is_active ?? false;
}

/** The user, the company flags and whether the refresh-token family (session) `sessionFamilyId` is alive. */
export function findSessionUser(
  db: Db,
  userId: number,
  sessionFamilyId: string,
): Promise<SessionUserRow | undefined> {
  return db
    .selectFrom('users')
    .leftJoin('companies', 'companies.id', 'users.company_id')
    .select([
      'users.id',
      'users.username',
      'users.email',
      'users.is_active',
      'users.company_id',
      'users.operator_roles',
      ...SESSION_FLAG_COLUMNS,
      // Access tokens die with their session: a revoked family (reset, password change elsewhere,
      // refresh-token reuse) stops them at once instead of when they expire.
      (eb) =>
        eb
          .exists(
            eb
              .selectFrom('refresh_tokens')
              .select('refresh_tokens.id')
              .where('refresh_tokens.family_id', '=', sessionFamilyId)
              .where('refresh_tokens.user_id', '=', userId)
              .where('refresh_tokens.revoked_at', 'is', null),
          )
          .as('session_alive'),
      // The login proved the second factor (operators, migration 008); every token of the family carries it.
      (eb) =>
        eb
          .exists(
            eb
              .selectFrom('refresh_tokens')
              .select('refresh_tokens.id')
              .where('refresh_tokens.family_id', '=', sessionFamilyId)
              .where('refresh_tokens.user_id', '=', userId)
              .where('refresh_tokens.revoked_at', 'is', null)
              .where('refresh_tokens.mfa_verified', '=', true),
          )
          .as('session_mfa_verified'),
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();
}

export function findProfile(db: Db, userId: number): Promise<ProfileRow | undefined> {
  return db
    .selectFrom('users')
    .leftJoin('companies', 'companies.id', 'users.company_id')
    .select([
      'users.id',
      'users.username',
      'users.email',
      'users.first_name',
      'users.last_name',
      'users.mobile_phone',
      'users.receive_notification',
      'users.password_hash',
      'users.company_id',
      'companies.name as company_name',
      'companies.sat_status',
      'companies.disbursement_clabe',
      'companies.wallet_clabe',
      'companies.credit_payment_clabe',
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();
}

export interface NewAccount {
  username: string;
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  mobilePhone: string;
  receiveNotification: boolean;
  companyName: string;
}

/** The company (no RFC until its SAT link) and its first user; call inside a transaction. */
export async function insertAccount(
  trx: Db,
  account: NewAccount,
): Promise<{ userId: number; companyId: number }> {
  const company = await trx
    .insertInto('companies')
    .values({ name: account.companyName, rfc: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const user = await trx
    .insertInto('users')
    .values({
      username: account.username,
      email: account.email,
      password_hash: account.passwordHash,
      first_name: account.firstName,
      last_name: account.lastName,
      mobile_phone: account.mobilePhone,
      receive_notification: account.receiveNotification,
      company_id: company.id,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { userId: user.id, companyId: company.id };
}

export async function updateUserProfile(
  db: Db,
  userId: number,
  values: { first_name: string; last_name: string; mobile_phone: string; receive_notification: boolean },
): Promise<void> {
  await db.updateTable('users').set(values).where('id', '=', userId).execute();
}

export async function renameCompany(db: Db, companyId: number, name: string): Promise<void> {
  await db.updateTable('companies').set({ name }).where('id', '=', companyId).execute();
}

export async function updatePasswordHash(db: Db, userId: number, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
}

/** A user without a company who holds operator roles (ops operator:create, decision 0050); its id. */
export async function insertOperatorUser(
  db: Db,
  user: {
    username: string;
    email: string;
    passwordHash: string;
    firstName: string;
    lastName: string;
    roles: readonly string[];
  },
): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      username: user.username,
      email: user.email,
      password_hash: user.passwordHash,
      first_name: user.firstName,
      last_name: user.lastName,
      operator_roles: [...user.roles],
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateOperatorRoles(db: Db, userId: number, roles: readonly string[]): Promise<void> {
  await db
    .updateTable('users')
    .set({ operator_roles: [...roles] })
    .where('id', '=', userId)
    .execute();
}
