import type { FastifyPluginAsync } from 'fastify';
import { InvoiceStatus } from '../../../src/domain/invoice-status';
import { currentUser } from '../auth/authenticate';
import type { Clock } from '../auth/clock';
import { replyIdempotent } from '../idempotency/idempotent-reply';
import { businessDate } from '../invoices/business-date';
import { invoiceCaller } from '../invoices/invoice-access';
import { invoicePage, listInvoices, parseInvoiceListQuery } from '../invoices/invoice-list';
import { detailRefusal } from '../invoices/refusals';
import { validBody } from '../invoices/request-body';
import {
  AuthorizeRequestsBody,
  assertBatchSize,
  authorizeRequests,
  type CorporatesDeps,
  RejectRequestsBody,
  rejectRequests,
  requestsListExtras,
} from './corporates.service';

export interface CorporatesRoutesOptions extends CorporatesDeps {
  now: Clock;
}

/**
 * Corporate side of the pronto-pago lifecycle (mounted at /api/), API only for now: the providers'
 * authorization requests, and authorizing or rejecting them. A corporate account with an authorized SAT
 * link only; invoices the company did not receive are a 404.
 */
export const corporatesRoutes: FastifyPluginAsync<CorporatesRoutesOptions> = async (app, options) => {
  const { db, now } = options;

  app.get('/corporates/manually-requests/', { preHandler: app.requireUser }, async (request) => {
    const caller = invoiceCaller(currentUser(request), 'corporate');
    const query = parseInvoiceListQuery(request.query, { status: false });
    const today = businessDate(now());
    const result = await listInvoices(
      db,
      { companyId: caller.companyId, side: 'receiver', onlyStatus: InvoiceStatus.PENDING, today },
      query,
    );
    const extras = query.page === 1 ? await requestsListExtras(db, caller, result) : null;
    return invoicePage(request, query, result, today, extras);
  });

  app.post(
    '/corporates/manually-requests/authorize/',
    { preHandler: app.requireUser },
    async (request, reply) => {
      const caller = invoiceCaller(currentUser(request), 'corporate');
      const items = validBody(AuthorizeRequestsBody, request.body);
      assertBatchSize(items);
      return replyIdempotent(
        request,
        reply,
        db,
        (trx) => authorizeRequests(options, trx, caller, items, businessDate(now())),
        detailRefusal,
      );
    },
  );

  app.post(
    '/corporates/manually-requests/reject/',
    { preHandler: app.requireUser },
    async (request, reply) => {
      const caller = invoiceCaller(currentUser(request), 'corporate');
      const items = validBody(RejectRequestsBody, request.body);
      assertBatchSize(items);
      return replyIdempotent(
        request,
        reply,
        db,
        (trx) => rejectRequests(options, trx, caller, items),
        detailRefusal,
      );
    },
  );
};
