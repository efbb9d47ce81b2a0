import type { FastifyPluginAsync } from 'fastify';
import type { IdParams } from '../../../src/domain/schemas/fields';
import { type InvoiceEvent, InvoiceEventList } from '../../../src/domain/schemas/invoices';
import type { Db } from '../../db/database';
import type { RouteDoc } from '../../http/openapi';
import {
  ACCESS_MESSAGES,
  InvoiceRequestError,
  invoiceCallerGuard,
  requestInvoiceCaller,
} from './invoice-access';
import { ACCESS_REFUSED, INVOICE_PATH, NOT_FOUND } from './invoice-docs';
import { listCompanyInvoiceEvents } from './invoice-events.repository';

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
  ...INVOICE_PATH,
  response: InvoiceEventList,
  responses: { 403: ACCESS_REFUSED, 404: NOT_FOUND },
};

export const invoiceEventsRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app;
  app.get<{ Params: IdParams }>(
    '/invoices/:id/events/',
    { preHandler: [app.requireUser, invoiceCallerGuard('any')], config: { openapi: EVENTS_DOC } },
    async (request) => invoiceEvents(db, request.params.id, requestInvoiceCaller(request).companyId),
  );
};
