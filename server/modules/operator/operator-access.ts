import type {
  FastifyInstance,
  FastifyRequest,
  preHandlerAsyncHookHandler,
  RouteShorthandOptions,
} from 'fastify';
import { type OperatorRole, operatorRolesText } from '../../../src/domain/operator-roles';
import type { RouteDoc } from '../../http/openapi';
import { currentUser } from '../auth/authenticate';

/** Spanish refusals of the back office (403). */
export const OPERATOR_MESSAGES = {
  notOperator: 'Esta sección es solo para operadores de Flujo con verificación en dos pasos.',
  roleRequired: (roles: readonly OperatorRole[]) =>
    `Tu rol no permite esta acción. Se requiere: ${operatorRolesText(roles)}.`,
} as const;

export class OperatorForbiddenError extends Error {
  readonly statusCode = 403;
}

/** The operator behind a request that passed the operator guard. */
export interface CurrentOperator {
  id: number;
  username: string;
  roles: OperatorRole[];
}

/** What an /api/operator/ route declares: who may call it, how the audit names it, and its OpenAPI entry. */
export interface OperatorRouteSpec {
  /**
   * The roles allowed. GET routes may leave it out (every operator role reads); a write route must name its
   * roles, or the plugin refuses to register it.
   */
  roles?: readonly OperatorRole[];
  /** Spanish, for the operator audit: 'Aprobar adelanto'. */
  action: string;
  doc: RouteDoc;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by operatorRoute(): the roles this /api/operator/ route serves (null = every operator role). */
    operatorRoles?: readonly OperatorRole[] | null;
    /** Set by operatorRoute(): the action's Spanish name in the operator audit. */
    operatorAction?: string;
  }
  interface FastifyRequest {
    /** Set by the operator guard on /api/operator/ routes. */
    operator: CurrentOperator | null;
  }
}

/**
 * The guard every /api/operator/ route runs after `app.requireUser`: the caller holds an operator role, signed
 * in with the second factor, and holds one of the route's roles. Everyone else gets 403, whatever the route.
 */
export const operatorGuard: preHandlerAsyncHookHandler = async (request) => {
  const user = currentUser(request);
  if (user.operatorRoles.length === 0 || !user.mfaVerified) {
    throw new OperatorForbiddenError(OPERATOR_MESSAGES.notOperator);
  }
  const allowed = request.routeOptions.config.operatorRoles ?? null;
  if (allowed !== null && !user.operatorRoles.some((role) => allowed.includes(role))) {
    throw new OperatorForbiddenError(OPERATOR_MESSAGES.roleRequired(allowed));
  }
  request.operator = { id: user.id, username: user.username, roles: user.operatorRoles };
};

/**
 * The route options of an /api/operator/ route: the session and operator guards (in this order, so a missing
 * session is a 401 and anyone else a 403), its roles, its audit name and its OpenAPI entry (x-roles
 * ['operator'] and x-operator-roles). Spread into the route's options.
 */
export function operatorRoute(
  app: FastifyInstance,
  spec: OperatorRouteSpec,
): Pick<RouteShorthandOptions, 'preHandler' | 'config'> {
  return {
    preHandler: [app.requireUser, operatorGuard],
    config: {
      operatorRoles: spec.roles ?? null,
      operatorAction: spec.action,
      openapi: { ...spec.doc, roles: ['operator'], operatorRoles: spec.roles ?? null },
    },
  };
}

/** The operator on a route guarded by operatorRoute(). */
export function currentOperator(request: FastifyRequest): CurrentOperator {
  if (!request.operator) throw new OperatorForbiddenError(OPERATOR_MESSAGES.notOperator);
  return request.operator;
}
