import type { FastifyPluginAsync } from 'fastify';
import { ApproveForwardPaymentBody, RequestPaymentBody } from '../../../src/domain/schemas/invoices';
import { currentUser } from '../auth/authenticate';
import type { Clock } from '../auth/clock';
import { replyIdempotent } from '../idempotency/idempotent-reply';
import { businessDate } from '../invoices/business-date';
import { invoiceCaller } from '../invoices/invoice-access';
import { invoiceIdParam } from '../invoices/invoice-id';
import { invoicePage, listInvoices, parseInvoiceListQuery } from '../invoices/invoice-list';
import { dialogErrorHandler, dialogRefusal } from '../invoices/refusals';
import { validBody } from '../invoices/request-body';
import {
  allianceListExtras,
  approveForwardPayment,
  forwardPaymentQuote,
  type ProvidersDeps,
  requestAuthorization,
} from './providers.service';

export interface ProvidersRoutesOptions extends ProvidersDeps {
  now: Clock;
}

/**
 * Provider calls of the invoices service (mounted at /api/): the pronto-pago list, the authorization
 * request, the quote and the advance. Every call needs a session, a company and an authorized SAT link;
 * an invoice of another company is a 404.
 */
export const providersRoutes: FastifyPluginAsync<ProvidersRoutesOptions> = async (app, options) => {
  const { db, now } = options;
  app.setErrorHandler(dialogErrorHandler);

  app.get('/providers/alliances/', { preHandler: app.requireUser }, async (request) => {
    const caller = invoiceCaller(currentUser(request), 'provider');
    const query = parseInvoiceListQuery(request.query);
    const today = businessDate(now());
    const result = await listInvoices(db, { companyId: caller.companyId, side: 'emitter', today }, query);
    const extras = query.page === 1 ? await allianceListExtras(db, caller, result) : null;
    return invoicePage(request, query, result, today, extras);
  });

  app.post('/providers/request-payment/', { preHandler: app.requireUser }, async (request, reply) => {
    const caller = invoiceCaller(currentUser(request), 'provider');
    const { id_request_factoring: invoiceId } = validBody(RequestPaymentBody, request.body);
    return replyIdempotent(
      request,
      reply,
      db,
      (trx) => requestAuthorization(options, trx, caller, invoiceId),
      dialogRefusal,
    );
  });

  app.get('/providers/forward-payment/:id/', { preHandler: app.requireUser }, async (request) => {
    const caller = invoiceCaller(currentUser(request), 'provider');
    return forwardPaymentQuote(db, caller, invoiceIdParam(request.params), businessDate(now()));
  });

  app.post('/providers/forward-payment/', { preHandler: app.requireUser }, async (request, reply) => {
    const caller = invoiceCaller(currentUser(request), 'provider');
    const { id_execute_factoring: invoiceId } = validBody(ApproveForwardPaymentBody, request.body);
    return replyIdempotent(
      request,
      reply,
      db,
      (trx) => approveForwardPayment(trx, caller, invoiceId, businessDate(now())),
      dialogRefusal,
    );
  });
};
