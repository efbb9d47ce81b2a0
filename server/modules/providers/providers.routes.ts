import type { FastifyPluginAsync } from 'fastify';
import { InvoicePage, MessageResponse, RequestPaymentBody } from '../../../src/domain/schemas/invoices';
import { businessDate } from '../../http/business-date';
import type { RouteDoc } from '../../http/openapi';
import { currentUser } from '../auth/authenticate';
import { replyIdempotent } from '../idempotency/idempotent-reply';
import { invoiceCaller, invoiceCallerGuard, requestInvoiceCaller } from '../invoices/invoice-access';
import { ACCESS_REFUSED, INVOICE_REFUSALS } from '../invoices/invoice-docs';
import {
  type InvoiceListQueryString,
  invoiceListQuery,
  invoiceListQueryDecl,
  invoicePage,
  listInvoices,
} from '../invoices/invoice-list';
import { replyListAnswer } from '../invoices/list-answers';
import { dialogErrorHandler, dialogRefusal } from '../invoices/refusals';
import { allianceListExtras, requestAuthorization } from './providers.service';

const DOCS = {
  alliances: {
    summary: "The provider's issued invoices (pronto pago list)",
    description:
      'Facturas que el proveedor emitió, de la más reciente a la más antigua, con filtros; la primera página ' +
      'trae indicadores y has_factoring.',
    ...invoiceListQueryDecl(),
    response: InvoicePage,
    responses: { 403: ACCESS_REFUSED },
  },
  requestPayment: {
    summary: 'Ask the customer to authorize an invoice',
    description:
      'Solicita al corporativo que autorice la factura (Por Autorizar → Solicitado) y le avisa por correo.',
    body: RequestPaymentBody,
    response: MessageResponse,
    responses: INVOICE_REFUSALS,
    idempotent: true,
  },
} satisfies Record<string, RouteDoc>;

/**
 * Provider calls of the invoices service (mounted at /api/): the pronto-pago list and the authorization
 * request (the quote and the advance are the invoices module's: forward-payment.routes.ts). Every call needs a session, a company and an authorized SAT link;
 * an invoice of another company is a 404.
 */
export const providersRoutes: FastifyPluginAsync = async (app) => {
  const { db, mailer, appBaseUrl, clock: now } = app;
  app.setErrorHandler(dialogErrorHandler);

  app.get<{ Querystring: InvoiceListQueryString }>(
    '/providers/alliances/',
    { preHandler: [app.requireUser, invoiceCallerGuard('provider')], config: { openapi: DOCS.alliances } },
    async (request, reply) => {
      const caller = requestInvoiceCaller(request);
      const query = invoiceListQuery(request.query);
      const today = businessDate(now());
      return replyListAnswer(request, reply, { companyId: caller.companyId, today, query }, async () => {
        const result = await listInvoices(
          db,
          { companyId: caller.companyId, side: 'emitter', today },
          query,
          {
            balances: query.page === 1,
          },
        );
        const extras = query.page === 1 ? await allianceListExtras(db, caller, result) : null;
        return invoicePage(request, query, result, today, extras);
      });
    },
  );

  app.post<{ Body: RequestPaymentBody }>(
    '/providers/request-payment/',
    { preHandler: app.requireUser, config: { openapi: DOCS.requestPayment } },
    async (request, reply) => {
      const caller = invoiceCaller(currentUser(request), 'provider');
      const { id_request_factoring: invoiceId } = request.body;
      return replyIdempotent(
        request,
        reply,
        db,
        (trx) => requestAuthorization({ db, mailer, appBaseUrl }, trx, caller, invoiceId),
        dialogRefusal,
      );
    },
  );
};
