import type { FastifyPluginAsync } from 'fastify';
import { isIsoDate } from '../../../src/domain/calendar-date';
import { MESSAGES } from '../../../src/domain/schemas/fields';
import { PAGE_SIZE } from '../../../src/domain/schemas/invoices';
import {
  MAX_AUDIT_FILTER_LENGTH,
  OPERATOR_AUDIT_MESSAGES,
  OperatorActionPage,
} from '../../../src/domain/schemas/operator-audit';
import { FieldErrors } from '../../http/errors';
import { pageLinks } from '../../http/paging';
import { operatorRoute } from '../operator/operator-access';
import { listOperatorActions } from './operator-audit.repository';

type AuditQuery = Partial<Record<'operator' | 'action' | 'from' | 'to' | 'page', string | string[]>>;

const one = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;

/** The list's filters, or a 400 with Spanish messages per field. */
function parseAuditQuery(raw: AuditQuery) {
  const errors: Record<string, string[]> = {};
  const text = (field: 'operator' | 'action') => {
    const value = (one(raw[field]) ?? '').trim();
    if (value.length > MAX_AUDIT_FILTER_LENGTH || value.includes('\0'))
      errors[field] = [OPERATOR_AUDIT_MESSAGES.tooLong];
    return value === '' ? null : value;
  };
  const date = (field: 'from' | 'to') => {
    const value = (one(raw[field]) ?? '').trim();
    if (value === '') return null;
    if (!isIsoDate(value)) errors[field] = [OPERATOR_AUDIT_MESSAGES.invalidDate];
    return value;
  };
  const operator = text('operator');
  const action = text('action');
  const from = date('from');
  const to = date('to');
  if (from && to && !errors.from && !errors.to && to < from)
    errors.to = [OPERATOR_AUDIT_MESSAGES.rangeBackwards];
  const pageText = one(raw.page) ?? '1';
  const page = /^[1-9]\d{0,5}$/.test(pageText) ? Number(pageText) : null;
  if (page === null) errors.page = [MESSAGES.invalid];
  if (Object.keys(errors).length > 0) throw new FieldErrors(errors);
  return { operator, action, from, to, page: page ?? 1, pageSize: PAGE_SIZE };
}

/** GET /api/operator/audit/: what every operator did in the back office (docs/decisions/0050). */
export const operatorAuditRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Querystring: AuditQuery }>(
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
          page: { description: 'Página, desde 1.', schema: { type: 'integer', minimum: 1 } },
        },
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
      const query = parseAuditQuery(request.query);
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
