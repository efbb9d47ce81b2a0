import type { FastifyPluginAsync } from 'fastify';
import {
  ADVANCED_INVOICE_STATUSES,
  advancedInvoicesZipName,
  MAX_DOWNLOAD_INVOICES,
} from '../../../src/domain/advanced-invoices';
import { InvoicePage } from '../../../src/domain/schemas/invoices';
import { businessDate } from '../../http/business-date';
import type { RouteDoc } from '../../http/openapi';
import { currentUser } from '../auth/authenticate';
import { invoiceCaller, invoiceCallerGuard, requestInvoiceCaller } from '../invoices/invoice-access';
import { ACCESS_REFUSED, NOT_FOUND } from '../invoices/invoice-docs';
import {
  type InvoiceListQueryString,
  invoiceListQuery,
  invoiceListQueryDecl,
  invoicePage,
  listInvoices,
} from '../invoices/invoice-list';
import { dialogErrorHandler } from '../invoices/refusals';
import { allianceListExtras } from '../providers/providers.service';
import { advancedInvoicesZip, downloadableInvoices, parseDownloadBody } from './advanced-invoices.service';

const DOCS = {
  list: {
    summary: "The provider's advanced invoices",
    description:
      'Facturas adelantadas del proveedor (En trámite y Pagada), con los filtros y la paginación de alliances.',
    ...invoiceListQueryDecl(),
    response: InvoicePage,
    responses: { 403: ACCESS_REFUSED },
  },
  download: {
    summary: 'ZIP of the CFDI XML and a PDF summary of selected advanced invoices',
    description:
      'ZIP con el XML (CFDI) y un PDF de resumen de cada factura adelantada elegida; todo o nada: ninguna ' +
      'factura ajena ni sin adelantar.',
    body: {
      type: 'object',
      required: ['invoice_ids'],
      properties: {
        invoice_ids: {
          type: 'array',
          items: { type: 'integer', minimum: 1 },
          minItems: 1,
          maxItems: MAX_DOWNLOAD_INVOICES,
          description: 'Ids de las facturas; los repetidos cuentan una vez.',
        },
      },
    },
    responseMediaType: 'application/zip',
    responses: {
      403: ACCESS_REFUSED,
      404: NOT_FOUND,
      409: 'Una de las facturas elegidas no está adelantada (En trámite o Pagada).',
    },
  },
} satisfies Record<string, RouteDoc>;

/**
 * 'Resumen de tus Facturas Adelantadas' (mounted at /api/): the provider's advanced invoices (PROCESS and PAID,
 * decision 0014) with the filters, paging and shape of providers/alliances/, and the ZIP of the selected ones'
 * CFDI XML and PDF summaries. Same access rules as every provider call (decision 0012).
 */
export const advancedInvoicesRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock: now } = app;
  app.setErrorHandler(dialogErrorHandler);

  app.get<{ Querystring: InvoiceListQueryString }>(
    '/providers/advanced-invoices/',
    { preHandler: [app.requireUser, invoiceCallerGuard('provider')], config: { openapi: DOCS.list } },
    async (request) => {
      const caller = requestInvoiceCaller(request);
      const query = invoiceListQuery(request.query);
      const today = businessDate(now());
      const result = await listInvoices(
        db,
        { companyId: caller.companyId, side: 'emitter', statuses: ADVANCED_INVOICE_STATUSES, today },
        query,
        { balances: query.page === 1 },
      );
      const extras = query.page === 1 ? await allianceListExtras(db, caller, result) : null;
      return invoicePage(request, query, result, today, extras);
    },
  );

  app.post(
    '/providers/advanced-invoices/download/',
    { preHandler: app.requireUser, config: { openapi: DOCS.download } },
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
