import type { FastifyPluginAsync } from 'fastify';
import { ADVANCED_INVOICE_STATUSES, advancedInvoicesZipName } from '../../../src/domain/advanced-invoices';
import type { Db } from '../../db/database';
import { currentUser } from '../auth/authenticate';
import type { Clock } from '../auth/clock';
import { businessDate } from '../invoices/business-date';
import { invoiceCaller } from '../invoices/invoice-access';
import { invoicePage, listInvoices, parseInvoiceListQuery } from '../invoices/invoice-list';
import { dialogErrorHandler } from '../invoices/refusals';
import { allianceListExtras } from '../providers/providers.service';
import { advancedInvoicesZip, downloadableInvoices, parseDownloadBody } from './advanced-invoices.service';

export interface AdvancedInvoicesRoutesOptions {
  db: Db;
  now: Clock;
}

/**
 * 'Resumen de tus Facturas Adelantadas' (mounted at /api/): the provider's advanced invoices (PROCESS and PAID,
 * decision 0014) with the filters, paging and shape of providers/alliances/, and the ZIP of the selected ones'
 * CFDI XML and PDF summaries. Same access rules as every provider call (decision 0012).
 */
export const advancedInvoicesRoutes: FastifyPluginAsync<AdvancedInvoicesRoutesOptions> = async (
  app,
  options,
) => {
  const { db, now } = options;
  app.setErrorHandler(dialogErrorHandler);

  app.get('/providers/advanced-invoices/', { preHandler: app.requireUser }, async (request) => {
    const caller = invoiceCaller(currentUser(request), 'provider');
    const query = parseInvoiceListQuery(request.query);
    const today = businessDate(now());
    const result = await listInvoices(
      db,
      { companyId: caller.companyId, side: 'emitter', statuses: ADVANCED_INVOICE_STATUSES, today },
      query,
    );
    const extras = query.page === 1 ? await allianceListExtras(db, caller, result) : null;
    return invoicePage(request, query, result, today, extras);
  });

  app.post(
    '/providers/advanced-invoices/download/',
    { preHandler: app.requireUser },
    async (request, reply) => {
      const caller = invoiceCaller(currentUser(request), 'provider');
      const ids = parseDownloadBody(request.body);
      const rows = await downloadableInvoices(db, caller, ids);
      const instant = now();
      const zip = await advancedInvoicesZip(rows, instant);
      return reply
        .header('content-type', 'application/zip')
        .header(
          'content-disposition',
          `attachment; filename="${advancedInvoicesZipName(businessDate(instant))}"`,
        )
        .header('cache-control', 'no-store')
        .send(Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength));
    },
  );
};
