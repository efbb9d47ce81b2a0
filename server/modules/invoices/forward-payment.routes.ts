import type { FastifyPluginAsync } from 'fastify';
import type { IdParams } from '../../../src/domain/schemas/fields';
import {
  ApproveForwardPaymentBody,
  ForwardPaymentQuote,
  MessageResponse,
} from '../../../src/domain/schemas/invoices';
import { businessDate } from '../../http/business-date';
import type { RouteDoc } from '../../http/openapi';
import { currentUser } from '../auth/authenticate';
import { replyIdempotent } from '../idempotency/idempotent-reply';
import { approveForwardPayment, forwardPaymentQuote } from './forward-payment.service';
import { invoiceCaller, invoiceCallerGuard, requestInvoiceCaller } from './invoice-access';
import { ACCESS_REFUSED, INVOICE_PATH, INVOICE_REFUSALS, NOT_FOUND, NOT_NOW } from './invoice-docs';
import { dialogErrorHandler, dialogRefusal } from './refusals';

const DOCS = {
  quote: {
    summary: 'Quote the early payment of an authorized invoice',
    description: 'Cotización del adelanto de una factura autorizada: tasa, días, costos y monto a recibir.',
    ...INVOICE_PATH,
    response: ForwardPaymentQuote,
    responses: { 403: ACCESS_REFUSED, 404: NOT_FOUND, 409: NOT_NOW },
  },
  advance: {
    summary: 'Approve the early payment (advance) of an invoice',
    description:
      'Confirma el adelanto con la cotización recalculada en el servidor (Autorizada → En trámite).',
    body: ApproveForwardPaymentBody,
    response: MessageResponse,
    responses: INVOICE_REFUSALS,
    idempotent: true,
  },
} satisfies Record<string, RouteDoc>;

/**
 * The provider's 'Adelantar pago' (mounted at /api/ with the provider's calls): the quote of an authorized invoice
 * and the advance, in the invoices module where the advance lives. A session, a company and an authorized SAT
 * link are needed; an invoice of another company is a 404.
 */
export const forwardPaymentRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock: now } = app;
  app.setErrorHandler(dialogErrorHandler);

  app.get<{ Params: IdParams }>(
    '/providers/forward-payment/:id/',
    { preHandler: [app.requireUser, invoiceCallerGuard('provider')], config: { openapi: DOCS.quote } },
    async (request) =>
      forwardPaymentQuote(db, requestInvoiceCaller(request), request.params.id, businessDate(now())),
  );

  app.post<{ Body: ApproveForwardPaymentBody }>(
    '/providers/forward-payment/',
    { preHandler: app.requireUser, config: { openapi: DOCS.advance } },
    async (request, reply) => {
      const caller = invoiceCaller(currentUser(request), 'provider');
      const { id_execute_factoring: invoiceId } = request.body;
      return replyIdempotent(
        request,
        reply,
        db,
        (trx) => approveForwardPayment(trx, caller, invoiceId, businessDate(now())),
        dialogRefusal,
      );
    },
  );
};
