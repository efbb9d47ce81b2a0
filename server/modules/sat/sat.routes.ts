import type { FastifyPluginAsync } from 'fastify';
import { SAT_CLAIM_LIFETIME_DAYS } from '../../../src/domain/sat-claim';
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
      'revisión hasta que un operador decide. El envío no reserva el RFC: solo lo rechaza (400 en `rfc`, ' +
      `"${SAT_LINK_MESSAGES.rfcTaken}") si otra empresa ya lo tiene (vinculación autorizada, corporativo o ` +
      'facturas).',
    body: TaxLink,
    response: TaxLinkSent,
    responses: { 403: ACCESS_MESSAGES.noCompany, 409: 'La vinculación con el SAT ya está autorizada.' },
  },
  status: {
    summary: "The company's SAT link status",
    description:
      'Estado de la vinculación SAT de la empresa y su RFC (el que tiene o, mientras está en revisión, el que ' +
      'envió); la pantalla de espera lo consulta. Varias cuentas pueden enviar el mismo RFC: la primera que el ' +
      'SAT autoriza se queda con él y las demás pasan a Rechazada con `reason` ' +
      `("${SAT_LINK_MESSAGES.claimLost}"); una solicitud sin aprobar en ${SAT_CLAIM_LIFETIME_DAYS} días vence ` +
      `("${SAT_LINK_MESSAGES.claimLapsed}").`,
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
