import type { FastifyPluginAsync } from 'fastify';
import { XLSX_MEDIA_TYPE } from '../../../src/domain/bulk-upload';
import {
  isStatementMonth,
  MONTHLY_STATEMENT_DEADLINE_DAY,
  MONTHLY_STATEMENT_MESSAGES,
  monthLabel,
  monthlyStatementFileName,
} from '../../../src/domain/monthly-statements';
import { MonthlyStatementList } from '../../../src/domain/schemas/monthly-statements';
import type { StatementRole } from '../../../src/domain/statements';
import { type RouteDoc, withRoles } from '../../http/openapi';
import { currentUser } from '../auth/authenticate';
import { invoiceCaller } from '../invoices/invoice-access';
import { ACCESS_REFUSED } from '../invoices/invoice-docs';
import { findMonthlyStatementFile, listMonthlyStatements } from './monthly-statements.repository';

const PATHS: Record<StatementRole, string> = {
  provider: '/providers/account/statement/monthly/',
  corporate: '/corporates/account/statement/monthly/',
};

const FILE_PATTERN = /^(\d{4}-\d{2})\.(pdf|xlsx)$/;

const MEDIA_TYPES = { pdf: 'application/pdf', xlsx: XLSX_MEDIA_TYPE } as const;

function docs(role: StatementRole) {
  const who = role === 'provider' ? 'supplier' : 'buyer';
  const as = role === 'provider' ? 'como proveedor' : 'como comprador';
  return {
    list: {
      summary: `The ${who}'s monthly statements (months available)`,
      description:
        `Estados de cuenta mensuales de la empresa ${as}, del mes más reciente al más antiguo: cada mes con su ` +
        'saldo inicial y final (MXN, calculados de los movimientos) y los formatos que se descargan. Flujo los ' +
        `genera el día 1 de cada mes (a más tardar el día ${MONTHLY_STATEMENT_DEADLINE_DAY}) para el mes ` +
        'anterior (LIVA art. 1-C).',
      response: MonthlyStatementList,
      responses: { 403: ACCESS_REFUSED },
    },
    file: {
      summary: `One monthly statement of the ${who} as PDF or XLSX`,
      description:
        'El estado de cuenta del mes en PDF o XLSX (hojas «Resumen» y «Movimientos»): movimientos, saldos y el ' +
        'CFDI de las comisiones de Flujo (o «CFDI pendiente»). Solo de la propia empresa. AAAA-MM.xlsx responde ' +
        `${XLSX_MEDIA_TYPE}.`,
      params: {
        file: {
          description: 'Mes y formato: AAAA-MM.pdf o AAAA-MM.xlsx, p. ej. 2026-11.pdf.',
          schema: { type: 'string', pattern: FILE_PATTERN.source },
        },
      },
      responseMediaType: 'application/pdf',
      responses: {
        403: ACCESS_REFUSED,
        404: MONTHLY_STATEMENT_MESSAGES.notFound,
      },
    },
  } satisfies Record<string, RouteDoc>;
}

/**
 * The monthly statements (issue 34, decision 0071; mounted at /api/): the list of the caller's months and each
 * month's PDF or XLSX, the caller's company only (another company's month is a 404, as a missing one).
 */
export const monthlyStatementsRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app;
  for (const role of ['provider', 'corporate'] as const) {
    const doc = role === 'corporate' ? withRoles(['corporate'], docs(role)) : docs(role);

    app.get(PATHS[role], { preHandler: app.requireUser, config: { openapi: doc.list } }, async (request) => {
      const caller = invoiceCaller(currentUser(request), role);
      const rows = await listMonthlyStatements(db, caller.companyId, role);
      return {
        results: rows.map((row) => ({
          month: row.month,
          label: monthLabel(row.month),
          opening: row.opening,
          closing: row.closing,
          movements: row.movements,
          generated_at: new Date(row.generated_at).toISOString(),
          formats: ['pdf', 'xlsx'],
        })),
      } satisfies MonthlyStatementList;
    });

    app.get<{ Params: { file: string } }>(
      `${PATHS[role]}:file`,
      { preHandler: app.requireUser, config: { openapi: doc.file } },
      async (request, reply) => {
        const caller = invoiceCaller(currentUser(request), role);
        const match = FILE_PATTERN.exec(request.params.file);
        const month = match?.[1];
        const format = match?.[2] as 'pdf' | 'xlsx' | undefined;
        const content =
          month && format && isStatementMonth(month)
            ? await findMonthlyStatementFile(db, caller.companyId, role, month, format)
            : null;
        if (!month || !format || !content) {
          return reply.status(404).send({ detail: MONTHLY_STATEMENT_MESSAGES.notFound });
        }
        return reply
          .type(MEDIA_TYPES[format])
          .header('cache-control', 'private, no-store')
          .header('content-disposition', `attachment; filename="${monthlyStatementFileName(month, format)}"`)
          .send(Buffer.from(content));
      },
    );
  }
};
