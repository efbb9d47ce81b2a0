import type { FastifyPluginAsync } from 'fastify';
import { InvoiceStatus } from '../../../src/domain/invoice-status';
import { InvoicePage } from '../../../src/domain/schemas/invoices';
import {
  AuthorizeRejectResponse,
  AuthorizeRequestsBody,
  MAX_INVOICES_PER_REQUEST,
  RejectRequestsBody,
} from '../../../src/domain/schemas/quotations';
import type { RouteDoc } from '../../http/openapi';
import { currentUser } from '../auth/authenticate';
import { replyIdempotent } from '../idempotency/idempotent-reply';
import { businessDate } from '../invoices/business-date';
import { invoiceCaller } from '../invoices/invoice-access';
import { ACCESS_REFUSED, INVOICE_REFUSALS } from '../invoices/invoice-docs';
import {
  invoiceListQueryDoc,
  invoicePage,
  listInvoices,
  parseInvoiceListQuery,
} from '../invoices/invoice-list';
import { detailRefusal } from '../invoices/refusals';
import { authorizeRequests, rejectRequests, requestsListExtras } from './corporates.service';

/** An invoice of a batch: its numeric id or its folio fiscal (the struct's union). */
const INVOICE_REF = {
  invoice_id: {
    description: 'Id numérico de la factura o su folio fiscal (UUID).',
    anyOf: [
      { type: 'integer', minimum: 1 },
      { type: 'string', format: 'uuid' },
    ],
  },
};
const BATCH = `Lote de 1 a ${MAX_INVOICES_PER_REQUEST} facturas, todo o nada`;

const DOCS = {
  requests: {
    summary: "The providers' authorization requests",
    description: 'Facturas recibidas en estado Solicitado, con filtros; la primera página trae indicadores.',
    query: invoiceListQueryDoc({ status: false }),
    response: InvoicePage,
    responses: { 403: ACCESS_REFUSED },
  },
  authorize: {
    summary: 'Authorize requested invoices with a payment date',
    description: `${BATCH}: Solicitado → Autorizada con la fecha de pago de cada una (máximo 150 días).`,
    body: AuthorizeRequestsBody,
    bodyFields: INVOICE_REF,
    response: AuthorizeRejectResponse,
    responses: INVOICE_REFUSALS,
    idempotent: true,
  },
  reject: {
    summary: 'Reject requested invoices',
    description: `${BATCH}: Solicitado → Rechazada; el motivo (opcional) queda en el historial y se avisa al proveedor.`,
    body: RejectRequestsBody,
    bodyFields: INVOICE_REF,
    response: AuthorizeRejectResponse,
    responses: INVOICE_REFUSALS,
    idempotent: true,
  },
} satisfies Record<string, RouteDoc>;

/**
 * Corporate side of the pronto-pago lifecycle (mounted at /api/), API only for now: the providers'
 * authorization requests, and authorizing or rejecting them. A corporate account with an authorized SAT
 * link only; invoices the company did not receive are a 404.
 */
export const corporatesRoutes: FastifyPluginAsync = async (app) => {
  const { db, mailer, appBaseUrl, clock: now } = app;
  const deps = { db, mailer, appBaseUrl };

  app.get(
    '/corporates/manually-requests/',
    { preHandler: app.requireUser, config: { openapi: DOCS.requests } },
    async (request) => {
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
    },
  );

  app.post<{ Body: AuthorizeRequestsBody }>(
    '/corporates/manually-requests/authorize/',
    { preHandler: app.requireUser, config: { openapi: DOCS.authorize } },
    async (request, reply) => {
      const caller = invoiceCaller(currentUser(request), 'corporate');
      const items = request.body;
      return replyIdempotent(
        request,
        reply,
        db,
        (trx) => authorizeRequests(deps, trx, caller, items, businessDate(now())),
        detailRefusal,
      );
    },
  );

  app.post<{ Body: RejectRequestsBody }>(
    '/corporates/manually-requests/reject/',
    { preHandler: app.requireUser, config: { openapi: DOCS.reject } },
    async (request, reply) => {
      const caller = invoiceCaller(currentUser(request), 'corporate');
      const items = request.body;
      return replyIdempotent(
        request,
        reply,
        db,
        (trx) => rejectRequests(deps, trx, caller, items),
        detailRefusal,
      );
    },
  );
};
