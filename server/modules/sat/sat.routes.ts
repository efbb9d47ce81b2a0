import type { FastifyPluginAsync } from 'fastify';
import { SatStatus } from '../../../src/domain/sat-status';
import { TaxLink } from '../../../src/domain/schemas/session';
import { currentUser } from '../auth/authenticate';
import { validBody } from '../invoices/request-body';
import { startSandboxPoller } from './sandbox-poller';
import { SAT_LINK_MESSAGES, type SatLinkDeps, satLinkStatus, submitTaxLink } from './sat-link.service';

export interface SatRoutesOptions extends SatLinkDeps {
  /** Development: approve SENT links after this many seconds and import new sandbox files; null = off. */
  autoApproveSeconds: number | null;
}

/**
 * The SAT link on the user service (mounted at /api/accounts/): POST /ciec/ {rfc, ciec}; GET /ciec/ answers
 * {sat_credentials_status, rfc}, which the waiting screen polls until the operator decides. Lives in its own
 * module so the accounts module stays about people and sessions.
 */
export const satRoutes: FastifyPluginAsync<SatRoutesOptions> = async (app, options) => {
  app.post('/ciec/', { preHandler: app.requireUser }, async (request) => {
    const user = currentUser(request);
    const link = validBody(TaxLink, request.body);
    await submitTaxLink(options, user.companyId, link);
    return { message: SAT_LINK_MESSAGES.sent, sat_credentials_status: SatStatus.SENT };
  });

  app.get('/ciec/', { preHandler: app.requireUser }, async (request) => {
    const user = currentUser(request);
    return satLinkStatus(options, user.companyId);
  });

  if (options.autoApproveSeconds !== null) {
    const stop = startSandboxPoller(options, options.autoApproveSeconds, app.log);
    app.addHook('onClose', async () => {
      await stop();
    });
  }
};
