import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { OnboardingState } from '../../../src/domain/corporate-file';
import { SatStatus } from '../../../src/domain/sat-status';
import type { Db } from '../../db/database';
import { containsPattern } from '../../db/like';

// The companies and users rows of a corporate onboarded by Flujo's operators (issue 19, decision 0051). They
// live here because modules/accounts/ owns both tables; modules/operator-corporates/ holds the rules.

/**
 * NOTE: Django's unusable password ('!' prefix, never a valid hash): no password verifies against it, so the
 * invited user can only get in through the invitation's link.
 */
export const UNUSABLE_PASSWORD_PREFIX = '!';

export function unusablePasswordHash(): string {
  return `${UNUSABLE_PASSWORD_PREFIX}${randomBytes(30).toString('base64url')}`;
}

export interface NewCorporateAdmin {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
}

/** The company of an RFC with its corporate flag and onboarding state, locked when asked. */
export function findCompanyForOnboarding(db: Db, rfc: string, options: { lock?: boolean } = {}) {
  let query = db
    .selectFrom('companies')
    .select(['id', 'rfc', 'name', 'is_corporate', 'onboarding_state'])
    .where('rfc', '=', rfc);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** A new corporate company in borrador (its SAT link not yet verified); call inside a transaction. */
export async function insertCorporateCompany(
  trx: Db,
  company: { rfc: string; name: string; at: Date; createdBy: number },
): Promise<number> {
  const row = await trx
    .insertInto('companies')
    .values({
      rfc: company.rfc,
      name: company.name,
      is_corporate: true,
      onboarding_state: 'borrador',
      onboarding_changed_at: company.at.toISOString(),
      onboarding_created_by: company.createdBy,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A provider becomes a corporate in borrador; its SAT link and invoices stay, and its existing users stay on the
 * provider side (corporate_access false): only a user invited to the corporate side gets it.
 */
export async function promoteToCorporate(
  trx: Db,
  companyId: number,
  change: { at: Date; createdBy: number },
): Promise<void> {
  await trx
    .updateTable('companies')
    .set({
      is_corporate: true,
      onboarding_state: 'borrador',
      onboarding_changed_at: change.at.toISOString(),
      onboarding_created_by: change.createdBy,
    })
    .where('id', '=', companyId)
    .execute();
  await trx
    .updateTable('users')
    .set({ corporate_access: false })
    .where('company_id', '=', companyId)
    .execute();
}

/** The corporate's first user with an unusable password (the invitation's link sets one). */
export async function insertInvitedUser(
  trx: Db,
  companyId: number,
  admin: NewCorporateAdmin,
): Promise<number> {
  const row = await trx
    .insertInto('users')
    .values({
      username: admin.username,
      email: admin.email,
      password_hash: unusablePasswordHash(),
      first_name: admin.firstName,
      last_name: admin.lastName,
      company_id: companyId,
      // Invited to the corporate side (the column's default, written out: promotion depends on it).
      corporate_access: true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Whether a user already has this username or e-mail (both unique, case-insensitively). */
export async function isUsernameOrEmailTaken(db: Db, username: string, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where((eb) =>
      eb.or([
        eb(sql`lower(username)`, '=', username.toLowerCase()),
        eb(sql`lower(email)`, '=', email.toLowerCase()),
      ]),
    )
    .executeTakeFirst();
  return row !== undefined;
}

/** The corporate's onboarding, locked FOR UPDATE when asked; undefined when the company is not a corporate. */
export function findCorporateOnboarding(db: Db, companyId: number, options: { lock?: boolean } = {}) {
  let query = db
    .selectFrom('companies')
    .select([
      'id',
      'rfc',
      'name',
      'sat_status',
      'onboarding_state',
      'onboarding_reason',
      'onboarding_created_by',
      'economic_group',
    ])
    .where('id', '=', companyId)
    .where('is_corporate', '=', true);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/**
 * Moves the corporate's onboarding. Activation also authorizes its SAT link when it was not (the operators
 * verified the RFC on the constancia de situación fiscal), so its users can work; a promoted provider's stays.
 */
export async function setOnboardingState(
  trx: Db,
  companyId: number,
  change: { state: OnboardingState; reason: string | null; at: Date; activatedBy?: number },
): Promise<void> {
  await trx
    .updateTable('companies')
    .set({
      onboarding_state: change.state,
      onboarding_reason: change.reason,
      onboarding_changed_at: change.at.toISOString(),
      ...(change.activatedBy !== undefined && { onboarding_activated_by: change.activatedBy }),
    })
    .where('id', '=', companyId)
    .execute();
  if (change.state === 'activo') {
    await trx
      .updateTable('companies')
      .set({ sat_status: SatStatus.AUTHORIZED, sat_status_changed_at: change.at.toISOString() })
      .where('id', '=', companyId)
      .where('sat_status', '<>', SatStatus.AUTHORIZED)
      .execute();
  }
}

export interface CorporateListFilter {
  search: string | null;
  state: OnboardingState | null;
  limit: number;
  offset: number;
}

/** The corporates, newest first, by RFC or name (search) and state; with the count of all that match. */
export async function listCorporates(db: Db, filter: CorporateListFilter) {
  let query = db.selectFrom('companies').where('is_corporate', '=', true);
  if (filter.search) {
    const pattern = containsPattern(filter.search);
    query = query.where((eb) => eb.or([eb('rfc', 'ilike', pattern), eb('name', 'ilike', pattern)]));
  }
  if (filter.state) query = query.where('onboarding_state', '=', filter.state);
  const [rows, total] = await Promise.all([
    query
      .select(['id', 'rfc', 'name', 'onboarding_state'])
      .orderBy('id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.count) };
}

/** The user name of a user (the operator who created a corporate), or null. */
export async function usernameOf(db: Db, userId: number | null): Promise<string | null> {
  if (userId === null) return null;
  const row = await db.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirst();
  return row?.username ?? null;
}

/** The users of a company (the corporate's admins), oldest first; has_password false while only invited. */
export async function companyUsers(db: Db, companyId: number) {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username', 'first_name', 'last_name', 'email', 'password_hash'])
    .where('company_id', '=', companyId)
    .orderBy('id')
    .execute();
  return rows.map(({ password_hash, ...user }) => ({
    ...user,
    has_password: !password_hash.startsWith(UNUSABLE_PASSWORD_PREFIX),
  }));
}
