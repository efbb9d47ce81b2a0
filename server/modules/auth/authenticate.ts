import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { type OperatorRole, operatorRolesOf } from '../../../src/domain/operator-roles';
import { SatStatus, type SatStatusCode } from '../../../src/domain/sat-status';
import { corporateAccess } from '../../../src/machines/corporate-onboarding.machine';
import { MESSAGES, UnauthorizedError } from './http-errors';
import type { SessionCache } from './session-cache';
import type { SessionFlagsRow } from './session-users';
import type { TokenService } from './tokens';

/**
 * Who is calling, as the database has it now (flags and SAT status change server-side): read through the
 * session cache, which answers only what is current (decision 0072).
 */
export interface AuthenticatedUser {
  id: number;
  username: string;
  email: string;
  companyId: number | null;
  /** The corporate side is open to this user now: see corporateSideOf. */
  isCorporate: boolean;
  /** Why the company's corporate side is closed to this user (its onboarding state), or null. */
  corporateRefusal: string | null;
  hasFactoring: boolean;
  corporateCanPayCosts: boolean;
  satStatus: SatStatusCode;
  /** The refresh-token family (login) of the access token used; a password change keeps it. */
  sessionFamilyId: string;
  /** Back-office roles (issue 19); empty for providers and corporates. */
  operatorRoles: OperatorRole[];
  /** The session's login proved the second factor (TOTP); operator routes require it. */
  mfaVerified: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireUser`; null on routes that do not require it. */
    user: AuthenticatedUser | null;
  }
  interface FastifyInstance {
    /** preHandler: 401 {detail} unless `Authorization: Bearer <access token>` is valid for an active user. */
    requireUser: preHandlerAsyncHookHandler;
    /** This process's sessions (decision 0072); its stats are what tests and benchmarks read. */
    sessionCache: SessionCache;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Whether a user may use the corporate side, from its company's flags read this request: the company is a
 * corporate, the onboarding machine gives its state access (only activo), and the user was invited to that side
 * (a promoted provider's own users were not). `refusal` is the onboarding's Spanish reason when that is what
 * closes it. Login, refresh and every request read this one rule.
 */
export function corporateSideOf(
  row: Pick<SessionFlagsRow, 'is_corporate' | 'onboarding_state' | 'corporate_access'> | undefined,
): { isCorporate: boolean; refusal: string | null } {
  if (!row?.is_corporate || row.onboarding_state === null) return { isCorporate: false, refusal: null };
  const access = corporateAccess(row.onboarding_state);
  if (!access.ok) return { isCorporate: false, refusal: access.reason };
  return { isCorporate: row.corporate_access, refusal: null };
}

export async function loadAuthenticatedUser(
  sessions: Pick<SessionCache, 'find'>,
  userId: number,
  sessionFamilyId: string,
): Promise<AuthenticatedUser | null> {
  const row = await sessions.find(userId, sessionFamilyId);
  if (!row?.is_active || !row.session_alive) return null;
  const corporateSide = corporateSideOf(row);
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    companyId: row.company_id,
    isCorporate: corporateSide.isCorporate,
    corporateRefusal: corporateSide.refusal,
    hasFactoring: row.has_factoring ?? false,
    corporateCanPayCosts: row.corporate_can_pay_costs ?? false,
    // A user without a company has not linked SAT.
    satStatus: (row.sat_status ?? SatStatus.DONT_SENT) as SatStatusCode,
    sessionFamilyId,
    operatorRoles: operatorRolesOf(row.operator_roles),
    mfaVerified: row.session_mfa_verified === true,
  };
}

/**
 * Root-level authentication (called directly, not registered, so every plugin sees the decorators):
 * `app.requireUser` as a preHandler, `request.user` in the handler, or `currentUser(request)`.
 */
export function registerAuthentication(
  app: FastifyInstance,
  deps: { tokens: TokenService; sessions: Pick<SessionCache, 'find'> },
): void {
  app.decorateRequest('user', null);
  const requireUser: preHandlerAsyncHookHandler = async (request) => {
    const match = BEARER.exec(request.headers.authorization ?? '');
    const claims = match?.[1] ? await deps.tokens.verify(match[1], 'access') : null;
    const user = claims ? await loadAuthenticatedUser(deps.sessions, claims.userId, claims.familyId) : null;
    if (!user) throw new UnauthorizedError(MESSAGES.notAuthenticated);
    request.user = user;
  };
  app.decorate('requireUser', requireUser);
}

/** The caller on a route guarded by `app.requireUser`. */
export function currentUser(request: FastifyRequest): AuthenticatedUser {
  if (!request.user) throw new UnauthorizedError(MESSAGES.notAuthenticated);
  return request.user;
}
