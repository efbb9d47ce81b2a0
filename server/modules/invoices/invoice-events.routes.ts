import type { FastifyPluginAsync } from 'fastify';
import { type InvoiceEvent, InvoiceEventList } from '../../../src/domain/schemas/invoices';
import type { Db } from '../../db/database';
import type { RouteDoc } from '../../http/openapi';
import { currentUser } from '../auth/authenticate';
import { ACCESS_MESSAGES, InvoiceRequestError, invoiceCaller } from './invoice-access';
import { ACCESS_REFUSED, INVOICE_ID_PARAM, NOT_FOUND } from './invoice-docs';
import { listCompanyInvoiceEvents } from './invoice-events.repository';
import { invoiceIdParam } from './invoice-id';

/** The audit trail of an invoice, oldest first, for its emitter or its receiver only (anyone else: 404). */
export async function invoiceEvents(db: Db, invoiceId: number, companyId: number): Promise<InvoiceEvent[]> {
  const events = await listCompanyInvoiceEvents(db, invoiceId, companyId);
  if (events === null) throw new InvoiceRequestError(404, ACCESS_MESSAGES.invoiceNotFound);
  return events;
}

const EVENTS_DOC: RouteDoc = {
  summary: "An invoice's audit trail",
  description:
    'Historial de estados de la factura, del más antiguo al más reciente; solo para su emisor o su receptor.',
  params: { id: INVOICE_ID_PARAM },
  response: InvoiceEventList,
  responses: { 403: ACCESS_REFUSED, 404: NOT_FOUND },
};

export const invoiceEventsRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app;
  app.get(
    '/invoices/:id/events/',
    { preHandler: app.requireUser, config: { openapi: EVENTS_DOC } },
    async (request) => {
      const caller = invoiceCaller(currentUser(request), 'any');
      return invoiceEvents(db, invoiceIdParam(request.params), caller.companyId);
    },
  );
};
