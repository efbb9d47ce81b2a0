import type { FastifyPluginAsync } from 'fastify';
import { PAGE_SIZE } from '../../../src/domain/schemas/invoices';
import {
  OPERATOR_AUDIT_MESSAGES,
  OperatorActionPage,
  OperatorAuditQuery,
} from '../../../src/domain/schemas/operator-audit';
import { PAGE_PARAM, pageLinks } from '../../http/paging';
import { operatorRoute } from '../operator/operator-access';
import { listOperatorActions } from './operator-audit.repository';

/** GET /api/operator/audit/: what every operator did in the back office (docs/decisions/0050). */
export const operatorAuditRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Querystring: OperatorAuditQuery }>(
    '/audit/',
    operatorRoute(app, {
      action: 'Consultar la bitácora',
      doc: {
        summary: 'The operator audit',
        description:
          'Bitácora de operación: una fila por cada llamada de un operador a /api/operator/ (quién, qué acción, ' +
          'ruta, parámetros, respuesta y motivo), de la más reciente a la más antigua, en páginas de 25.',
        query: {
          operator: { description: 'Parte del usuario del operador.' },
          action: { description: 'Parte del nombre de la acción, por ejemplo «Aprobar».' },
          from: {
            description: 'Desde este día (AAAA-MM-DD, hora de la Ciudad de México), inclusive.',
            schema: { type: 'string', format: 'date' },
          },
          to: {
            description: 'Hasta este día (AAAA-MM-DD), inclusive.',
            schema: { type: 'string', format: 'date' },
          },
          page: PAGE_PARAM,
        },
        queryStruct: OperatorAuditQuery,
        response: OperatorActionPage,
        responses: {
          400: {
            description: `Filtros inválidos por campo, por ejemplo {from: ['${OPERATOR_AUDIT_MESSAGES.invalidDate}']}.`,
            schema: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
          },
        },
      },
    }),
    async (request) => {
      const query = { ...request.query, pageSize: PAGE_SIZE };
      const result = await listOperatorActions(app.db, {
        operator: query.operator,
        action: query.action,
        from: query.from,
        to: query.to,
        offset: (query.page - 1) * query.pageSize,
        limit: query.pageSize,
      });
      return {
        count: result.count,
        ...pageLinks(request, query, result.count),
        results: result.rows,
      } satisfies OperatorActionPage;
    },
  );
};
