import type { FastifyPluginAsync } from 'fastify';
import { SatStatus } from '../../../src/domain/sat-status';
import { SatLinkStatus, TaxLink, TaxLinkSent } from '../../../src/domain/schemas/session';
import type { RouteDoc } from '../../http/openapi';
import { currentUser } from '../auth/authenticate';
import { ACCESS_MESSAGES } from '../invoices/invoice-access';
import { SAT_LINK_MESSAGES, type SatLinkDeps, satLinkStatus, submitTaxLink } from './sat-link.service';

export interface SatRoutesOptions extends SatLinkDeps {
  /**
   * Development: approve SENT links after this many seconds and import new sandbox files; null = off.
   * The sat-sandbox job does it (buildApp with runJobs), once across processes.
   */
  autoApproveSeconds: number | null;
}

const DOCS = {
  submit: {
    summary: 'Send the SAT credentials (RFC and CIEC)',
    description:
      'Envía RFC y CIEC para vincular la empresa con el SAT; la CIEC se guarda cifrada y el estado pasa a En ' +
      'revisión hasta que un operador decide.',
    body: TaxLink,
    response: TaxLinkSent,
    responses: { 403: ACCESS_MESSAGES.noCompany, 409: 'La vinculación con el SAT ya está autorizada.' },
  },
  status: {
    summary: "The company's SAT link status",
    description: 'Estado de la vinculación SAT de la empresa y su RFC; la pantalla de espera lo consulta.',
    response: SatLinkStatus,
    responses: { 403: ACCESS_MESSAGES.noCompany },
  },
} satisfies Record<string, RouteDoc>;

/**
 * The SAT link on the user service (mounted at /api/accounts/): POST /ciec/ {rfc, ciec}; GET /ciec/ answers
 * {sat_credentials_status, rfc}, which the waiting screen polls until the operator decides. Lives in its own
 * module so the accounts module stays about people and sessions.
 */
export const satRoutes: FastifyPluginAsync<SatRoutesOptions> = async (app, options) => {
  app.post<{ Body: TaxLink }>(
    '/ciec/',
    { preHandler: app.requireUser, config: { openapi: DOCS.submit } },
    async (request) => {
      const user = currentUser(request);
      await submitTaxLink(options, user.companyId, request.body);
      return { message: SAT_LINK_MESSAGES.sent, sat_credentials_status: SatStatus.SENT };
    },
  );

  app.get('/ciec/', { preHandler: app.requireUser, config: { openapi: DOCS.status } }, async (request) => {
    const user = currentUser(request);
    return satLinkStatus(options, user.companyId);
  });
};
