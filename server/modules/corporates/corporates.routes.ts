import type { FastifyPluginAsync } from 'fastify';
import type { IsoDate } from '../../../src/domain/calendar-date';
import { InvoiceStatus } from '../../../src/domain/invoice-status';
import {
  AcceptedQuotationResponse,
  CorporateQuotation,
  CorporateSummaryPage,
  MAX_QUOTATION_INVOICES,
  PreApprovedQuotationResponse,
  PreAuthorizationPage,
  QuotationLinesBody,
  QuotationOutcomeResponse,
  RejectQuotationBody,
} from '../../../src/domain/schemas/corporates';
import { CorporateSummaryQuery, InvoicePage } from '../../../src/domain/schemas/invoices';
import {
  AuthorizeRejectResponse,
  AuthorizeRequestsBody,
  MAX_INVOICES_PER_REQUEST,
  RejectRequestsBody,
} from '../../../src/domain/schemas/quotations';
import { PRE_AUTHORIZABLE_STATUSES } from '../../../src/machines/invoice-actions';
import type { Db } from '../../db/database';
import { businessDate } from '../../http/business-date';
import { type RouteDoc, withRoles } from '../../http/openapi';
import { currentUser } from '../auth/authenticate';
import type { CallOutcome } from '../idempotency/idempotency.service';
import { replyIdempotent } from '../idempotency/idempotent-reply';
import {
  type InvoiceCaller,
  invoiceCaller,
  invoiceCallerGuard,
  requestInvoiceCaller,
} from '../invoices/invoice-access';
import { ACCESS_REFUSED, INVOICE_REFUSALS } from '../invoices/invoice-docs';
import {
  type InvoiceListQueryString,
  invoiceListQuery,
  invoiceListQueryDecl,
  invoicePage,
  listInvoices,
} from '../invoices/invoice-list';
import { replyListAnswer } from '../invoices/list-answers';
import { detailRefusal } from '../invoices/refusals';
import {
  authorizeRequests,
  corporateSummaryExtras,
  rejectRequests,
  requestsListExtras,
} from './corporates.service';
import {
  acceptQuotation,
  payProviders,
  preApproveQuotation,
  quoteInvoices,
  rejectQuotation,
} from './quotations.service';

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
// Issue 31: a provider's price for its advance is not the buyer's business (invoice-list.ts asTheBuyerSeesIt).
const BUYER_TERMS =
  ' cost_consultancy y factoring_rate van vacíos (null) salvo que el corporativo pague el adelanto: son los términos de su proveedor.';
const QUOTATION_BATCH = `Lote de 1 a ${MAX_QUOTATION_INVOICES} facturas recibidas, todo o nada; un 400 nombra cada línea por su índice y campo ('3.payment_date')`;

const DOCS = withRoles(['corporate'], {
  requests: {
    summary: "The providers' authorization requests",
    description: `Facturas recibidas en estado Solicitado, con filtros; la primera página trae indicadores.${BUYER_TERMS}`,
    ...invoiceListQueryDecl({ status: false }),
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
  summary: {
    summary: 'The corporate summary of received invoices',
    description: `Facturas recibidas, de la emisión más reciente a la más antigua, con filtros de búsqueda, periodo y estado (sin En trámite ni Factoraje); la primera página trae los indicadores: facturas, clientes y monto total por moneda.${BUYER_TERMS}`,
    ...invoiceListQueryDecl(),
    queryStruct: CorporateSummaryQuery,
    response: CorporateSummaryPage,
    responses: { 403: ACCESS_REFUSED },
  },
  preAuthorization: {
    summary: 'Received invoices the corporate may still pre-authorize',
    description: `Facturas recibidas Por Autorizar, Solicitadas o Rechazadas, con búsqueda y paginación.${BUYER_TERMS}`,
    ...invoiceListQueryDecl({ status: false }),
    response: PreAuthorizationPage,
    responses: { 403: ACCESS_REFUSED },
  },
  quotes: {
    summary: 'Quote the early payment of received invoices',
    description: `${QUOTATION_BATCH}: la cotización de cada factura con la tasa de su alianza y los días de hoy a su fecha de pago (posterior a hoy, máximo 150 días desde la emisión), y los totales por moneda. No cambia nada.`,
    body: QuotationLinesBody,
    bodyFields: INVOICE_REF,
    response: CorporateQuotation,
    responses: {
      403: ACCESS_REFUSED,
      404: INVOICE_REFUSALS[404] as string,
      409: INVOICE_REFUSALS[409] as string,
    },
  },
  preApproved: {
    summary: 'Pre-approve quoted invoices; the provider absorbs the cost',
    description: `${QUOTATION_BATCH}: cada factura pasa a Autorizada con su fecha de pago; el proveedor paga el costo al adelantarla y recibe un correo.`,
    body: QuotationLinesBody,
    bodyFields: INVOICE_REF,
    response: PreApprovedQuotationResponse,
    responses: INVOICE_REFUSALS,
    idempotent: true,
  },
  accepted: {
    summary: 'Accept a quotation; the buyer absorbs the cost',
    description: `${QUOTATION_BATCH}: cada factura pasa a Autorizada con su fecha de pago y el costo a cargo del comprador (el proveedor ve costo cero); responde el resumen de la cotización.`,
    body: QuotationLinesBody,
    bodyFields: INVOICE_REF,
    response: AcceptedQuotationResponse,
    responses: INVOICE_REFUSALS,
    idempotent: true,
  },
  rejected: {
    summary: 'Reject a quotation',
    description: `${QUOTATION_BATCH}: cada factura Por Autorizar, Solicitada, o Autorizada con costo a cargo del comprador, pasa a Rechazada; se avisa a los proveedores.`,
    body: RejectQuotationBody,
    bodyFields: INVOICE_REF,
    response: QuotationOutcomeResponse,
    responses: INVOICE_REFUSALS,
    idempotent: true,
  },
  fullPayment: {
    summary: "Pay the suppliers ('Pagar a Proveedores'): the buyer funds the advance",
    description: `${QUOTATION_BATCH}: cada factura Autorizada con costo a cargo del comprador, con la fecha de pago aceptada, pasa a En trámite; el proveedor recibe el monto completo y un correo.`,
    body: QuotationLinesBody,
    bodyFields: INVOICE_REF,
    response: QuotationOutcomeResponse,
    responses: INVOICE_REFUSALS,
    idempotent: true,
  },
} satisfies Record<string, RouteDoc>);

/**
 * Corporate side of the pronto-pago lifecycle (mounted at /api/): the summary of received invoices, the
 * pre-authorization list and the quotation flow (decision 0028), the providers' authorization requests, and
 * authorizing or rejecting them. A corporate account with an authorized SAT
 * link only; invoices the company did not receive are a 404.
 */
export const corporatesRoutes: FastifyPluginAsync = async (app) => {
  const { db, mailer, appBaseUrl, clock: now } = app;
  const deps = { db, mailer, appBaseUrl };

  app.get<{ Querystring: InvoiceListQueryString }>(
    '/corporates/manually-requests/',
    { preHandler: [app.requireUser, invoiceCallerGuard('corporate')], config: { openapi: DOCS.requests } },
    async (request) => {
      const caller = requestInvoiceCaller(request);
      const query = invoiceListQuery(request.query);
      const today = businessDate(now());
      const result = await listInvoices(
        db,
        { companyId: caller.companyId, side: 'receiver', onlyStatus: InvoiceStatus.PENDING, today },
        query,
        { balances: query.page === 1 },
      );
      const extras = query.page === 1 ? await requestsListExtras(db, caller, result) : null;
      return invoicePage(request, query, result, today, extras);
    },
  );

  app.get<{ Querystring: InvoiceListQueryString }>(
    '/corporates/summary/',
    { preHandler: [app.requireUser, invoiceCallerGuard('corporate')], config: { openapi: DOCS.summary } },
    async (request, reply) => {
      const caller = requestInvoiceCaller(request);
      const query = invoiceListQuery(request.query);
      const today = businessDate(now());
      return replyListAnswer(request, reply, { companyId: caller.companyId, today, query }, async () => {
        const scope = { companyId: caller.companyId, side: 'receiver' as const, today };
        const result = await listInvoices(db, scope, query);
        const extras = query.page === 1 ? corporateSummaryExtras(result) : null;
        const page = invoicePage(request, query, result, today, null);
        return extras ? { ...page, indicators: extras } : page;
      });
    },
  );

  app.get<{ Querystring: InvoiceListQueryString }>(
    '/corporates/pre-authorization/',
    {
      preHandler: [app.requireUser, invoiceCallerGuard('corporate')],
      config: { openapi: DOCS.preAuthorization },
    },
    async (request, reply) => {
      const caller = requestInvoiceCaller(request);
      const query = invoiceListQuery(request.query);
      const today = businessDate(now());
      return replyListAnswer(request, reply, { companyId: caller.companyId, today, query }, async () => {
        const result = await listInvoices(
          db,
          { companyId: caller.companyId, side: 'receiver', statuses: PRE_AUTHORIZABLE_STATUSES, today },
          query,
        );
        return invoicePage(request, query, result, today, null);
      });
    },
  );

  app.post<{ Body: QuotationLinesBody }>(
    '/corporates/quotes/',
    { preHandler: app.requireUser, config: { openapi: DOCS.quotes } },
    async (request) => {
      const caller = invoiceCaller(currentUser(request), 'corporate');
      return quoteInvoices(db, caller, request.body, businessDate(now()));
    },
  );

  /**
   * A corporate batch call: the signed-in corporate's body (already checked against its struct), run in one
   * idempotent transaction, a refusal of the lifecycle answered as a 409 with its detail.
   */
  function batchCall<Body>(
    path: string,
    openapi: RouteDoc,
    run: (trx: Db, caller: InvoiceCaller, body: Body, today: IsoDate) => Promise<CallOutcome>,
  ) {
    app.post<{ Body: Body }>(
      path,
      { preHandler: app.requireUser, config: { openapi } },
      async (request, reply) => {
        const caller = invoiceCaller(currentUser(request), 'corporate');
        // Fastify's generic body type does not narrow to Body; the request-validation hook has already checked
        // it against the route's struct (server/http/request-validation.ts).
        const body = request.body as Body;
        return replyIdempotent(
          request,
          reply,
          db,
          (trx) => run(trx, caller, body, businessDate(now())),
          detailRefusal,
        );
      },
    );
  }

  batchCall<QuotationLinesBody>(
    '/corporates/quotes/pre-approved/',
    DOCS.preApproved,
    (trx, caller, body, today) => preApproveQuotation(deps, trx, caller, body, today),
  );
  batchCall<QuotationLinesBody>('/corporates/quotes/accepted/', DOCS.accepted, (trx, caller, body, today) =>
    acceptQuotation(deps, trx, caller, body, today),
  );
  batchCall<RejectQuotationBody>('/corporates/quotes/rejected/', DOCS.rejected, (trx, caller, body) =>
    rejectQuotation(deps, trx, caller, body),
  );
  // The spec's path, spelled so ('qoute').
  batchCall<QuotationLinesBody>(
    '/corporates/full-payment/qoute/',
    DOCS.fullPayment,
    (trx, caller, body, today) => payProviders(deps, trx, caller, body, today),
  );
  batchCall<AuthorizeRequestsBody>(
    '/corporates/manually-requests/authorize/',
    DOCS.authorize,
    (trx, caller, items, today) => authorizeRequests(deps, trx, caller, items, today),
  );
  batchCall<RejectRequestsBody>('/corporates/manually-requests/reject/', DOCS.reject, (trx, caller, items) =>
    rejectRequests(deps, trx, caller, items),
  );
};
