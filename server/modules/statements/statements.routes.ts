import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  StatementPage,
  StatementReportRequest,
  StatementReportResponse,
} from '../../../src/domain/schemas/statements';
import { MAX_REPORT_INVOICES } from '../../../src/domain/statements';
import { businessDate } from '../../http/business-date';
import { type RouteDoc, withRoles } from '../../http/openapi';
import { currentUser } from '../auth/authenticate';
import { invoiceCaller, invoiceCallerGuard, requestInvoiceCaller } from '../invoices/invoice-access';
import { ACCESS_REFUSED } from '../invoices/invoice-docs';
import {
  type InvoiceListQueryString,
  invoiceListQuery,
  invoiceListQueryDecl,
  invoicePage,
} from '../invoices/invoice-list';
import {
  listStatement,
  reportRows,
  type StatementRole,
  statementExtras,
  statementReport,
  statementScope,
} from './statements.service';

const NOT_IN_STATEMENT =
  'Alguna factura elegida no está en tu estado de cuenta (no existe, es de otra empresa o no movió dinero); ' +
  'no se dice cuál.';

function docs(role: StatementRole) {
  const who = role === 'provider' ? 'provider' : 'corporate';
  return {
    list: {
      summary: `The ${who}'s account statement`,
      description:
        role === 'provider'
          ? 'Facturas del proveedor que movieron dinero (En trámite, Pagada, Factoraje), de la más reciente a la ' +
            'más antigua, cada una con sus movimientos; la primera página trae indicadores (total, count, ' +
            'suppliers_customers, credit_line, credit_used, available_credit, spei_balance) y has_factoring.'
          : 'Facturas recibidas que Flujo adelantó (En trámite, Pagada), de la más reciente a la más antigua, ' +
            'cada una con sus movimientos (el adelanto y el pago a Flujo en su fecha de corte); la primera ' +
            'página trae indicadores (total, count, providers, cut_off_dates).',
      ...invoiceListQueryDecl({ status: false }),
      response: StatementPage,
      responses: { 403: ACCESS_REFUSED },
    },
    report: {
      summary: `XLSX report of selected invoices of the ${who}'s account statement`,
      description:
        `Reporte XLSX (base64 en file_data) de 1 a ${MAX_REPORT_INVOICES} facturas del estado de cuenta: hoja ` +
        '«Facturas» (una fila por factura) y hoja «Movimientos». Todo o nada.',
      body: StatementReportRequest,
      response: StatementReportResponse,
      responses: { 403: ACCESS_REFUSED, 404: NOT_IN_STATEMENT },
    },
  } satisfies Record<string, RouteDoc>;
}

// NOTE: 10,000 ids as JSON are about 80-110 KB; the app's 1 MB body limit leaves room.
const PATHS: Record<StatementRole, string> = {
  provider: '/providers/account/statement/',
  corporate: '/corporates/account/statement/',
};

/**
 * The account statement of both roles (mounted at /api/; decision 0037): GET a page of the caller's statement
 * with the alliances list's filters (search, period) and paging, POST {invoices_ids} for an XLSX report of
 * selected rows. Same access rules as every invoice call; the corporate path needs a corporate account.
 */
export const statementsRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock: now } = app;

  for (const role of ['provider', 'corporate'] as const) {
    // The provider statement takes any company (a corporate may issue invoices too); the corporate one corporates.
    const doc = role === 'corporate' ? withRoles(['corporate'], docs(role)) : docs(role);
    const scopeOf = (request: FastifyRequest) =>
      statementScope(invoiceCaller(currentUser(request), role), role);

    app.get<{ Querystring: InvoiceListQueryString }>(
      PATHS[role],
      { preHandler: [app.requireUser, invoiceCallerGuard(role)], config: { openapi: doc.list } },
      async (request) => {
        const scope = statementScope(requestInvoiceCaller(request), role);
        const query = invoiceListQuery(request.query);
        const today = businessDate(now());
        const { list, rows } = await listStatement(db, scope, query, today);
        const extras = query.page === 1 ? await statementExtras(db, scope, query, list, today) : null;
        return { ...invoicePage(request, query, list, today, extras), results: rows };
      },
    );

    app.post<{ Body: StatementReportRequest }>(
      PATHS[role],
      { preHandler: app.requireUser, config: { openapi: doc.report } },
      async (request, reply) => {
        const scope = scopeOf(request);
        const instant = now();
        const rows = await reportRows(db, scope, request.body.invoices_ids, businessDate(instant));
        reply.header('cache-control', 'no-store');
        return statementReport(rows, role, instant);
      },
    );
  }
};
