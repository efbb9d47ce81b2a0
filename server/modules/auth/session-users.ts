import type { SqlBool } from 'kysely';
import type { OnboardingState } from '../../../src/domain/corporate-file';
import type { Db } from '../../db/database';

export interface SessionFlagsRow {
  is_corporate: boolean | null;
  has_factoring: boolean | null;
  corporate_can_pay_costs: boolean | null;
  sat_status: number | null;
  onboarding_state: OnboardingState | null;
  corporate_access: boolean;
}

/** What authentication reads of a session's user: the user, the company flags and whether the session lives. */
export interface SessionUserRow extends SessionFlagsRow {
  id: number;
  username: string;
  email: string;
  is_active: boolean;
  company_id: number | null;
  operator_roles: string[];
  /** The refresh-token family is not revoked. */
  session_alive: SqlBool;
  /** The family's login proved the second factor. */
  session_mfa_verified: SqlBool;
}

/**
 * The users that sessions belong to, as authentication needs them. Their rows are the accounts module's
 * (`users`, `companies`), so accounts hands these readers in (accounts-deps.factory.ts) and auth imports
 * nothing of it.
 */
export interface SessionUsers {
  /** The user, its company's flags and whether the refresh-token family `sessionFamilyId` is alive. */
  find(db: Db, userId: number, sessionFamilyId: string): Promise<SessionUserRow | undefined>;
  /** Whether the user exists and is active. */
  isActive(db: Db, userId: number): Promise<boolean>;
}
