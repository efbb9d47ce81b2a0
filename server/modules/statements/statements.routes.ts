import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  StatementPage,
  StatementReportRequest,
  StatementReportResponse,
} from '../../../src/domain/schemas/statements';
import { MAX_CUT_OFF_DATES, MAX_REPORT_INVOICES } from '../../../src/domain/statements';
import { businessDate } from '../../http/business-date';
import { type RouteDoc, withRoles } from '../../http/openapi';
import { type JsonSchema, structToJsonSchema } from '../../http/struct-schema';
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

const MONEY_MXN = 'Pesos (MXN) con dos decimales, como texto';

/** What each indicator of a statement's first page means (decision 0065), per role; Spanish, as the descriptions. */
const INDICATOR_MEANINGS: Record<StatementRole, Record<string, string>> = {
  provider: {
    total: `Suma del monto en pesos (amount_with_exchange_rate) de las facturas que cumplen los filtros. ${MONEY_MXN}.`,
    count: 'Número de facturas que cumplen los filtros.',
    suppliers_customers: 'Clientes distintos entre las facturas que cumplen los filtros.',
    credit_line: `Línea revolvente de factoraje otorgada a la empresa (0.00 si no tiene). ${MONEY_MXN}.`,
    credit_used: `Parte de la línea de factoraje en uso. ${MONEY_MXN}.`,
    available_credit: `Línea de factoraje disponible: credit_line menos credit_used, nunca negativa. ${MONEY_MXN}.`,
    used_credit_percentage:
      'Porcentaje de la línea de factoraje en uso: credit_used / credit_line × 100, con dos decimales; 0 sin línea.',
    spei_balance: `Saldo de la cuenta SPEI (monedero) de la empresa. ${MONEY_MXN}.`,
    payment_date:
      'Próxima fecha, desde hoy, en que el proveedor paga a Flujo: el vencimiento más cercano de una parcialidad ' +
      'sin pagar de sus facturas en factoraje que cumplen los filtros; null si no tiene ninguna.',
    total_by_date: `Suma de las parcialidades sin pagar que vencen en payment_date (0.00 si no hay). ${MONEY_MXN}.`,
    has_cost_center:
      'Si el estado de cuenta se puede desglosar por centro de costos. Flujo no registra centros de costos ' +
      '(ni el CFDI ni la empresa los traen): siempre false.',
  },
  corporate: {
    total: `Suma del monto en pesos (amount_with_exchange_rate) de las facturas que cumplen los filtros. ${MONEY_MXN}.`,
    count: 'Número de facturas que cumplen los filtros.',
    providers: 'Proveedores distintos entre las facturas que cumplen los filtros.',
    suppliers_customers:
      'Lo mismo que providers (el nombre que usan las demás listas): proveedores distintos.',
    cut_off_dates:
      `Las próximas ${MAX_CUT_OFF_DATES} fechas de pago distintas (desde hoy) de las facturas que cumplen los ` +
      'filtros, de la más cercana a la más lejana.',
    payment_date:
      'Próxima fecha de corte: la primera de cut_off_dates, el día en que el corporativo paga a Flujo las ' +
      'facturas adelantadas que vencen; null si no hay ninguna desde hoy.',
    total_by_date:
      'Lo que el corporativo paga a Flujo en payment_date: suma del monto en pesos de las facturas que cumplen ' +
      `los filtros y vencen ese día (0.00 si no hay). ${MONEY_MXN}.`,
    spei_balance: `Saldo de la cuenta SPEI (monedero) del corporativo. ${MONEY_MXN}.`,
    has_cost_center:
      'Si el estado de cuenta se puede desglosar por centro de costos. Flujo no registra centros de costos ' +
      '(ni el CFDI ni la empresa los traen): siempre false.',
    credit_line: `Límite de su programa de crédito; solo si tiene uno. ${MONEY_MXN}.`,
    credit_used: `Lo reservado y lo usado del programa, hasta que el corporativo paga; solo con programa. ${MONEY_MXN}.`,
    available_credit: `Lo disponible del programa de crédito; solo con programa. ${MONEY_MXN}.`,
    used_credit_percentage:
      'Porcentaje del programa en uso: credit_used / credit_line × 100, con dos decimales; solo con programa.',
  },
};

/** The statement page's schema with the meaning of each indicator the role's first page carries. */
function statementPageSchema(role: StatementRole): JsonSchema {
  const schema = structToJsonSchema(StatementPage);
  const properties = schema.properties as Record<string, JsonSchema>;
  const indicators = properties.indicators as JsonSchema;
  const fields = indicators.properties as Record<string, JsonSchema>;
  const meanings = INDICATOR_MEANINGS[role];
  indicators.properties = Object.fromEntries(
    Object.keys(meanings).map((field) => [field, { ...fields[field], description: meanings[field] }]),
  );
  indicators.description = 'Solo en la primera página.';
  return schema;
}

function docs(role: StatementRole) {
  const who = role === 'provider' ? 'provider' : 'corporate';
  return {
    list: {
      summary: `The ${who}'s account statement`,
      description:
        role === 'provider'
          ? 'Facturas del proveedor que movieron dinero (En trámite, Pagada, Factoraje), de la más reciente a la ' +
            'más antigua, cada una con sus movimientos; la primera página trae los indicadores (su significado, en ' +
            'el esquema de la respuesta) y has_factoring.'
          : 'Facturas recibidas que Flujo adelantó (En trámite, Pagada), de la más reciente a la más antigua, ' +
            'cada una con sus movimientos (el adelanto y el pago a Flujo en su fecha de corte); la primera ' +
            'página trae los indicadores (su significado, en el esquema de la respuesta).',
      ...invoiceListQueryDecl({ status: false }),
      response: statementPageSchema(role),
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
