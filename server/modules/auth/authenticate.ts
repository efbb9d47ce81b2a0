import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { type OperatorRole, operatorRolesOf } from '../../../src/domain/operator-roles';
import { SatStatus, type SatStatusCode } from '../../../src/domain/sat-status';
import type { Db } from '../../db/database';
import { findSessionUser } from '../accounts/user.repository';
import { MESSAGES, UnauthorizedError } from './http-errors';
import type { TokenService } from './tokens';

/** Who is calling, read fresh from the database on every request (flags and SAT status change server-side). */
export interface AuthenticatedUser {
  id: number;
  username: string;
  email: string;
  companyId: number | null;
  isCorporate: boolean;
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
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export async function loadAuthenticatedUser(
  db: Db,
  userId: number,
  sessionFamilyId: string,
): Promise<AuthenticatedUser | null> {
  const row = await findSessionUser(db, userId, sessionFamilyId);
  if (!row?.is_active || !row.session_alive) return null;
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    companyId: row.company_id,
    isCorporate: row.is_corporate ?? false,
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
export function registerAuthentication(app: FastifyInstance, deps: { db: Db; tokens: TokenService }): void {
  app.decorateRequest('user', null);
  const requireUser: preHandlerAsyncHookHandler = async (request) => {
    const match = BEARER.exec(request.headers.authorization ?? '');
    const claims = match?.[1] ? await deps.tokens.verify(match[1], 'access') : null;
    const user = claims ? await loadAuthenticatedUser(deps.db, claims.userId, claims.familyId) : null;
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
