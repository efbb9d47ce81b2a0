import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { portfolioRoutes } from '../modules/collections/collections.routes';
import { controlDeskRoutes } from '../modules/control-desk/control-desk.routes';
import { collectionsRoutes } from '../modules/credit-programmes/bank-statement.routes';
import { creditProgrammesRoutes } from '../modules/credit-programmes/credit-programmes.routes';
import { exposureRoutes } from '../modules/exposure/exposure.routes';
import { operatorMaturitiesRoutes } from '../modules/maturities/maturities.routes';
import { operatorGuard } from '../modules/operator/operator-access';
import { insertOperatorAction } from '../modules/operator/operator-actions.repository';
import { operatorAlliancesRoutes } from '../modules/operator-alliances/operator-alliances.routes';
import { operatorAuditRoutes } from '../modules/operator-audit/operator-audit.routes';
import { operatorCorporatesRoutes } from '../modules/operator-corporates/operator-corporates.routes';

/** NOTE: a reason longer than this is cut in the audit row (the body's own limits apply to the call). */
const MAX_AUDIT_REASON = 500;

function reasonOf(request: FastifyRequest): string | null {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const reason = (body as Record<string, unknown>).reason;
  return typeof reason === 'string' && reason.trim() !== '' ? reason.trim().slice(0, MAX_AUDIT_REASON) : null;
}

/**
 * The financier's back office, mounted at /api/operator (issue 19). Every route here is declared with
 * operatorRoute() (session + operator guard, roles, audit name); one that is not is refused at registration, so
 * no back-office call can be left open. Every call an operator makes is written to the operator audit with
 * its answer's status, whatever the answer.
 */
export const operatorPlugin: FastifyPluginAsync = async (app) => {
  app.decorateRequest('operator', null);
  app.addHook('onRoute', (route) => {
    const guarded = [route.preHandler ?? []].flat().includes(operatorGuard);
    if (!guarded)
      throw new Error(`${route.method} ${route.url}: an /api/operator/ route must use operatorRoute()`);
    const methods = [route.method].flat();
    const writes = methods.some((method) => method !== 'GET' && method !== 'HEAD');
    if (writes && !route.config?.operatorRoles?.length) {
      throw new Error(`${route.method} ${route.url}: a write route must name its operator roles`);
    }
  });
  // onSend, not onResponse: the row is written before the answer leaves, so whoever got an answer can find it.
  app.addHook('onSend', async (request, reply, payload) => {
    const operator = request.operator;
    if (!operator) return payload;
    try {
      await insertOperatorAction(app.db, {
        operatorUserId: operator.id,
        operatorUsername: operator.username,
        action: request.routeOptions.config.operatorAction ?? request.routeOptions.url ?? request.url,
        method: request.method,
        route: request.routeOptions.url ?? request.url,
        // What the operator sent, not the numbers the route's struct read from it.
        params: (request.sentParams ?? request.params ?? {}) as Record<string, unknown>,
        statusCode: reply.statusCode,
        reason: reasonOf(request),
      });
    } catch (error) {
      // The action is done (or refused) whatever the audit does; a lost row must be loud in the log, never silent.
      request.log.error({ err: error }, 'operator audit row not written');
    }
    return payload;
  });

  // routes: (one line per back-office module, in the order of the issue)
  await app.register(operatorCorporatesRoutes);
  await app.register(creditProgrammesRoutes);
  await app.register(operatorAlliancesRoutes);
  await app.register(controlDeskRoutes);
  await app.register(collectionsRoutes);
  await app.register(operatorAuditRoutes);
  await app.register(operatorMaturitiesRoutes);
  await app.register(exposureRoutes);
  await app.register(portfolioRoutes);
};
