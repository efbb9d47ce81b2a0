import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { PROVIDER_REQUEST_MESSAGES } from '../../../src/domain/provider-requests';
import { RECEIVABLE_STATUSES } from '../../../src/domain/receivables';
import {
  InvoicePage,
  KNOW_YOUR_BUSINESS_TYPES,
  KnowYourBusinessPage,
  KnowYourBusinessQuery,
} from '../../../src/domain/schemas/invoices';
import { AllianceRequest, PlainMessageResponse, Referral } from '../../../src/domain/schemas/session';
import { businessDate } from '../../http/business-date';
import { type RouteDoc, withRoles } from '../../http/openapi';
import { pageLinks } from '../../http/paging';
import { structToJsonSchema } from '../../http/struct-schema';
import { type AuthenticatedUser, currentUser } from '../auth/authenticate';
import { type PublicWriteLimiter, publicWriteLimitDoc } from '../auth/public-write-limits';
import { type InvoiceCaller, InvoiceRequestError, invoiceCaller } from '../invoices/invoice-access';
import {
  type InvoiceListQueryString,
  invoiceListQuery,
  invoiceListQueryDecl,
  invoicePage,
  listInvoices,
  matchIndicators,
} from '../invoices/invoice-list';
import { dialogErrorHandler } from '../invoices/refusals';
import { knowYourBusinessRows } from './know-your-business.service';
import { referCustomer, requestAlliance } from './provider-requests.service';

const PROVIDER_ONLY =
  'Sin empresa, sin vinculación SAT autorizada, o cuenta corporativa (estas secciones son del proveedor).';

const DOCS = withRoles(['provider'], {
  receivables: {
    summary: "The provider's outstanding receivables",
    description:
      'Facturas emitidas que aún no se cobran: todas salvo Pagada (adelantada o en factoraje) y Cancelada. ' +
      'Búsqueda y periodo como en Pronto Pago; la primera página trae total, count y suppliers_customers.',
    ...invoiceListQueryDecl({ status: false }),
    response: InvoicePage,
    responses: { 403: PROVIDER_ONLY },
  },
  knowYourBusiness: {
    summary: "Know your business: the company's issued and received CFDI and its monthly indicators",
    description:
      'type=income_invoices: CFDI que la empresa emitió; expense_invoices: CFDI que recibió (páginas de facturas ' +
      'con total, count y suppliers_customers). resume_indicators: una fila por mes (YYYY-MM, el más reciente ' +
      'primero) con ingresos y egresos en MXN y USD, capital neto por moneda y lo cancelado (decisión 0038).',
    query: {
      type: {
        description: 'Qué consultar.',
        schema: { type: 'string', enum: [...KNOW_YOUR_BUSINESS_TYPES] },
        required: true,
      },
      ...invoiceListQueryDecl({ status: false }).query,
    },
    queryStruct: KnowYourBusinessQuery,
    response: { anyOf: [structToJsonSchema(InvoicePage), structToJsonSchema(KnowYourBusinessPage)] },
    responses: { 403: PROVIDER_ONLY },
  },
  referCustomer: {
    summary: 'Refer a customer to Flujo',
    description:
      'El proveedor recomienda Flujo a un cliente: se guarda y se avisa por correo al equipo de operaciones.',
    body: Referral,
    status: 201,
    response: PlainMessageResponse,
    responses: { 403: PROVIDER_ONLY, 429: publicWriteLimitDoc('referral') },
  },
  requestAlliance: {
    summary: 'Ask Flujo for an alliance with one of the provider’s clients',
    description:
      'Se guarda y se avisa a operaciones (201). Si ya hay una solicitud abierta con ese RFC, responde 200 con ' +
      'un mensaje y no guarda otra.',
    body: AllianceRequest,
    status: 201,
    response: PlainMessageResponse,
    responses: {
      200: { description: 'Ya había una solicitud abierta con ese cliente; no se guardó otra.' },
      403: PROVIDER_ONLY,
    },
  },
} satisfies Record<string, RouteDoc>);

export interface ProviderSectionsOptions {
  /** Flujo's operations desk (OPERATOR_EMAIL). */
  operatorEmail: string;
  /** Referrals are throttled like the public forms: each one e-mails the operations desk. */
  publicWrites: PublicWriteLimiter;
}

/**
 * These sections are the provider dashboard's only: a corporate account is refused (403) even though it may
 * issue invoices, since no corporate screen reads them (decision 0038).
 */
function providerCaller(user: AuthenticatedUser): InvoiceCaller {
  const caller = invoiceCaller(user, 'provider');
  if (caller.isCorporate) throw new InvoiceRequestError(403, PROVIDER_REQUEST_MESSAGES.providerOnly);
  return caller;
}

/** The same check before the body is read, so a corporate's form is a 403, not field errors. */
async function providerOnly(request: FastifyRequest): Promise<void> {
  providerCaller(currentUser(request));
}

/**
 * The provider sections besides Pronto Pago (issue 15, decision 0038): receivables, know your business,
 * customer referrals and alliance requests. Mounted at /api/ beside providers.routes.ts.
 */
export const providerSectionsRoutes: FastifyPluginAsync<ProviderSectionsOptions> = async (
  app,
  { operatorEmail, publicWrites },
) => {
  const { db, mailer, clock: now } = app;
  app.setErrorHandler(dialogErrorHandler);

  app.get<{ Querystring: InvoiceListQueryString }>(
    '/providers/accounts-receivable/',
    { preHandler: [app.requireUser, providerOnly], config: { openapi: DOCS.receivables } },
    async (request) => {
      const caller = providerCaller(currentUser(request));
      const query = invoiceListQuery(request.query);
      const today = businessDate(now());
      const scope = {
        companyId: caller.companyId,
        side: 'emitter' as const,
        statuses: RECEIVABLE_STATUSES,
        today,
      };
      const result = await listInvoices(db, scope, query);
      return invoicePage(request, query, result, today, {
        indicators: matchIndicators(result),
        has_factoring: caller.hasFactoring,
      });
    },
  );

  app.get<{ Querystring: KnowYourBusinessQuery }>(
    '/providers/know-your-business/',
    { preHandler: [app.requireUser, providerOnly], config: { openapi: DOCS.knowYourBusiness } },
    async (request) => {
      const caller = providerCaller(currentUser(request));
      const { type } = request.query;
      const query = invoiceListQuery(request.query);
      if (type === 'resume_indicators') {
        const rows = await knowYourBusinessRows(db, caller.companyId);
        const offset = (query.page - 1) * query.pageSize;
        return {
          count: rows.length,
          ...pageLinks(request, query, rows.length),
          results: rows.slice(offset, offset + query.pageSize),
        } satisfies KnowYourBusinessPage;
      }
      const today = businessDate(now());
      const side = type === 'income_invoices' ? 'emitter' : 'receiver';
      const result = await listInvoices(db, { companyId: caller.companyId, side, today }, query);
      return invoicePage(request, query, result, today, {
        indicators: matchIndicators(result),
        has_factoring: caller.hasFactoring,
      });
    },
  );

  app.post<{ Body: Referral }>(
    '/providers/refer-customer/',
    { preHandler: [app.requireUser, providerOnly], config: { openapi: DOCS.referCustomer } },
    async (request, reply) => {
      const caller = providerCaller(currentUser(request));
      await publicWrites.take('referral', { address: request.ip, company: caller.companyId });
      const answer = await referCustomer({ db, mailer, operatorEmail }, caller, request.body);
      return reply.status(201).send(answer);
    },
  );

  app.post<{ Body: AllianceRequest }>(
    '/providers/alliances/',
    { preHandler: [app.requireUser, providerOnly], config: { openapi: DOCS.requestAlliance } },
    async (request, reply) => {
      const caller = providerCaller(currentUser(request));
      const { message, created } = await requestAlliance({ db, mailer, operatorEmail }, caller, request.body);
      return reply.status(created ? 201 : 200).send({ message });
    },
  );
};
