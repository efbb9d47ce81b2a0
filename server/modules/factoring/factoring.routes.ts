import type { FastifyPluginAsync } from 'fastify';
import {
  FactoringQuote,
  FactoringRecord,
  FactoringRequest,
  FactoringTransferResponse,
} from '../../../src/domain/schemas/factoring';
import { IdParams } from '../../../src/domain/schemas/fields';
import { InvoicePage, MessageResponse } from '../../../src/domain/schemas/invoices';
import { businessDate } from '../../http/business-date';
import type { ParameterDoc, RouteDoc } from '../../http/openapi';
import { currentUser } from '../auth/authenticate';
import { replyIdempotent } from '../idempotency/idempotent-reply';
import { invoiceCaller, invoiceCallerGuard, requestInvoiceCaller } from '../invoices/invoice-access';
import { ACCESS_REFUSED, INVOICE_PATH, KEY_REUSED, NOT_FOUND } from '../invoices/invoice-docs';
import {
  type InvoiceListQueryString,
  invoiceListQuery,
  invoiceListQueryDecl,
  invoicePage,
  listInvoices,
} from '../invoices/invoice-list';
import { dialogErrorHandler, dialogRefusal } from '../invoices/refusals';
import {
  FACTORING_MESSAGES,
  factoringListExtras,
  factoringQuoteFor,
  factoringRecordOf,
  requestFactoringEnable,
  transferToFactoring,
  withRecordIds,
} from './factoring.service';

// What the refusals mean, for the OpenAPI entries (docs/decisions/0036).
const NOT_ENABLED = `${ACCESS_REFUSED} O la cuenta no tiene una línea de factoraje activa (has_factoring).`;
const NOT_FACTORABLE =
  'La factura no puede enviarse a factoraje ahora (su estado: Pagada, En trámite, Factoraje o Cancelada), ' +
  'o no tiene importe.';
const TRANSFER_REFUSED =
  `${NOT_FACTORABLE} También: la cotización cambió (tasa o montos distintos de los vigentes) o la línea ` +
  'no alcanza (el mensaje nombra lo disponible y lo necesario).';
const RECORD_ID_PARAM: ParameterDoc = {
  description: 'Id numérico de la solicitud de factoraje (factoring_request_id).',
  schema: { type: 'integer', minimum: 1 },
};

const DOCS = {
  enable: {
    summary: 'Ask for a factoring line',
    description:
      'Solicita el alta en factoraje: la primera vez registra la solicitud (FACTORING_NOT_ENABLED, info); ' +
      'mientras está pendiente no registra otra (FACTORING_REQUEST_PENDING, info); con línea activa responde ' +
      'FACTORING_ALREADY_ENABLED (info).',
    response: MessageResponse,
    responses: { 403: ACCESS_REFUSED },
  },
  quote: {
    summary: 'Quote the factoring of an invoice',
    description:
      'Cotización de factoraje de una factura propia a la tasa vigente de la línea: de 1 a 4 pagos mensuales ' +
      '(30 a 120 días), comisión de asesoría con IVA y monto a transferir, en MXN.',
    ...INVOICE_PATH,
    response: FactoringQuote,
    responses: { 403: NOT_ENABLED, 404: NOT_FOUND, 409: NOT_FACTORABLE },
  },
  transfer: {
    summary: 'Transfer an invoice to factoring',
    description:
      'Transfiere la factura a factoraje (estado Factoraje) con las cifras de la cotización, recalculadas en ' +
      'el servidor; aparta su importe en MXN de la línea y crea el calendario de pagos.',
    body: FactoringRequest,
    response: FactoringTransferResponse,
    responses: { 403: NOT_ENABLED, 404: NOT_FOUND, 409: TRANSFER_REFUSED, 422: KEY_REUSED },
    idempotent: true,
  },
  record: {
    summary: 'A factoring record with its schedule',
    description: 'Solicitud de factoraje con su calendario de pagos; solo para el proveedor que la hizo.',
    params: { id: RECORD_ID_PARAM },
    paramsStruct: IdParams,
    paramsNotFound: FACTORING_MESSAGES.recordNotFound,
    response: FactoringRecord,
    responses: { 403: ACCESS_REFUSED, 404: 'La solicitud de factoraje no existe o no es de tu empresa.' },
  },
  list: {
    summary: "The provider's factoring list",
    description:
      'Facturas que el proveedor emitió, con los filtros de la lista de pronto pago; cada fila trae ' +
      'factoring_request_id si está en factoraje. La primera página trae indicadores (con la línea: ' +
      'credit_line, credit_used, available_credit) y has_factoring.',
    ...invoiceListQueryDecl(),
    response: InvoicePage,
    responses: { 403: ACCESS_REFUSED },
  },
} satisfies Record<string, RouteDoc>;

/**
 * Factoring calls of the invoices service (mounted at /api/), issue 15. Like the pronto-pago calls: a session,
 * a company and an authorized SAT link; another company's invoice or record is a 404; refusals carry
 * message and message_type for the client's dialog.
 */
export const factoringRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock: now } = app;
  app.setErrorHandler(dialogErrorHandler);

  app.post(
    '/factoring-enable/',
    { preHandler: app.requireUser, config: { openapi: DOCS.enable } },
    async (request) => requestFactoringEnable(db, invoiceCaller(currentUser(request), 'provider')),
  );

  app.get<{ Params: IdParams }>(
    '/factoring-calculations/:id/',
    { preHandler: [app.requireUser, invoiceCallerGuard('provider')], config: { openapi: DOCS.quote } },
    async (request) =>
      factoringQuoteFor(db, requestInvoiceCaller(request), request.params.id, businessDate(now())),
  );

  app.post<{ Body: FactoringRequest }>(
    '/factoring/',
    { preHandler: app.requireUser, config: { openapi: DOCS.transfer } },
    async (request, reply) => {
      const caller = invoiceCaller(currentUser(request), 'provider');
      const body = request.body;
      return replyIdempotent(
        request,
        reply,
        db,
        (trx) => transferToFactoring(trx, caller, body, businessDate(now())),
        dialogRefusal,
      );
    },
  );

  app.get<{ Params: IdParams }>(
    '/factoring-request/:id/',
    { preHandler: [app.requireUser, invoiceCallerGuard('provider')], config: { openapi: DOCS.record } },
    async (request) => factoringRecordOf(db, requestInvoiceCaller(request), request.params.id),
  );

  app.get<{ Querystring: InvoiceListQueryString }>(
    '/providers/factoring/',
    { preHandler: [app.requireUser, invoiceCallerGuard('provider')], config: { openapi: DOCS.list } },
    async (request) => {
      const caller = requestInvoiceCaller(request);
      const query = invoiceListQuery(request.query);
      const today = businessDate(now());
      const result = await listInvoices(db, { companyId: caller.companyId, side: 'emitter', today }, query);
      const extras = query.page === 1 ? await factoringListExtras(db, caller, result) : null;
      return withRecordIds(db, invoicePage(request, query, result, today, extras));
    },
  );
};
