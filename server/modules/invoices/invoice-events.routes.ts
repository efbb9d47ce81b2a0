import type { FastifyPluginAsync } from 'fastify';
import type { InvoiceEvent } from '../../../src/domain/schemas/invoices';
import type { Db } from '../../db/database';
import { currentUser } from '../auth/authenticate';
import { ACCESS_MESSAGES, InvoiceRequestError, invoiceCaller } from './invoice-access';
import { invoiceIdParam } from './invoice-id';

/** The audit trail of an invoice, oldest first, for its emitter or its receiver only (anyone else: 404). */
export async function invoiceEvents(db: Db, invoiceId: number, companyId: number): Promise<InvoiceEvent[]> {
  const invoice = await db
    .selectFrom('invoices')
    .select('id')
    .where('id', '=', invoiceId)
    .where((eb) =>
      eb.or([eb('emitter_company_id', '=', companyId), eb('receiver_company_id', '=', companyId)]),
    )
    .executeTakeFirst();
  if (!invoice) throw new InvoiceRequestError(404, ACCESS_MESSAGES.invoiceNotFound);
  return db
    .selectFrom('invoice_events')
    .select(['event', 'from_status', 'to_status', 'actor', 'reason', 'at'])
    .where('invoice_id', '=', invoiceId)
    .orderBy('id')
    .execute();
}

export const invoiceEventsRoutes: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  app.get('/invoices/:id/events/', { preHandler: app.requireUser }, async (request) => {
    const caller = invoiceCaller(currentUser(request), 'any');
    return invoiceEvents(db, invoiceIdParam(request.params), caller.companyId);
  });
};
