import type { FastifyPluginAsync } from 'fastify';
import { COLLECTION_LOG_ROLES } from '../../../src/domain/delinquency';
import {
  AgingQuery,
  AgingReport,
  CollectionLog,
  CollectionLogBody,
  CollectionLogEntry,
} from '../../../src/domain/schemas/delinquency';
import { IdParams } from '../../../src/domain/schemas/fields';
import { businessDate } from '../../http/business-date';
import type { RouteDoc } from '../../http/openapi';
import type { RefusalMapper } from '../idempotency/idempotency.service';
import { replyIdempotent } from '../idempotency/idempotent-reply';
import { currentOperator, operatorRoute } from '../operator/operator-access';
import { agingReport } from './aging.service';
import {
  addCollectionLogEntry,
  COLLECTION_LOG_REFUSALS,
  CollectionLogError,
  collectionLogOf,
} from './collection-log';

const CORPORATE_ID = {
  params: { id: { description: 'Id del corporativo (comprador).' } },
  paramsStruct: IdParams,
  paramsNotFound: COLLECTION_LOG_REFUSALS.corporateNotFound,
} as const;

const DOCS = {
  aging: {
    summary: 'Aging of what buyers owe, from the collections',
    description:
      'Antigüedad de saldos al día `fecha` (hoy en Ciudad de México si no se indica): por factura adelantada, por ' +
      'comprador y por programa, lo que falta por cobrar (valor en MXN menos los cobros registrados hasta esa ' +
      'fecha) en los tramos Al corriente, 1–30, 31–60, 61–90 y Más de 90 días después del vencimiento, con los ' +
      'días de atraso y el interés moratorio a la fecha a la tasa del programa (se muestra, no se cobra). ' +
      'Filtros opcionales corporate_id y programme_id; las facturas van paginadas. Cualquier rol de operador.',
    query: {
      fecha: {
        description: 'Fecha de corte AAAA-MM-DD (hoy por omisión).',
        schema: { type: 'string', format: 'date' },
      },
      corporate_id: { description: 'Solo este comprador.', schema: { type: 'integer', minimum: 1 } },
      programme_id: {
        description: 'Solo este programa de crédito.',
        schema: { type: 'integer', minimum: 1 },
      },
      page: { description: 'Página de facturas (1 por omisión).', schema: { type: 'integer', minimum: 1 } },
      page_size: {
        description: 'Facturas por página (50 por omisión, máximo 500).',
        schema: { type: 'integer' },
      },
    },
    queryStruct: AgingQuery,
    response: AgingReport,
  },
  log: {
    summary: "A buyer's collection log",
    description:
      'Bitácora de cobranza del comprador: llamadas, correos y promesas de pago con su fecha, quién y cuándo, ' +
      'de la más reciente a la más antigua. Cualquier rol de operador.',
    ...CORPORATE_ID,
    response: CollectionLog,
    responses: { 404: COLLECTION_LOG_REFUSALS.corporateNotFound },
  },
  logEntry: {
    summary: "Record an action in a buyer's collection log",
    description:
      'Analista, Aprobador o Tesorería. action: llamada, correo o promesa_de_pago (esta con promised_on, la ' +
      'fecha prometida); note opcional. Queda con quién y cuándo; no se edita ni se borra. Con Idempotency-Key, ' +
      'un reintento tras una respuesta perdida devuelve la misma entrada sin registrarla dos veces.',
    ...CORPORATE_ID,
    body: CollectionLogBody,
    response: CollectionLogEntry,
    status: 201,
    responses: {
      400: 'Errores por campo (action, promised_on, note), en español.',
      403: 'El operador es solo Auditor.',
      404: COLLECTION_LOG_REFUSALS.corporateNotFound,
    },
    idempotent: true,
  },
} satisfies Record<string, RouteDoc>;

/** A missing buyer, stored with the key like any answer (so its retry is refused the same way). */
const logRefusal: RefusalMapper = (error) =>
  error instanceof CollectionLogError
    ? { statusCode: error.statusCode, body: { detail: error.message } }
    : null;

/** Delinquency's operator calls (issue 34, decision 0068), mounted inside /api/operator/. */
export const portfolioRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock: now } = app;

  app.get<{ Querystring: AgingQuery }>(
    '/aging/',
    operatorRoute(app, { action: 'Consultar antigüedad de saldos', doc: DOCS.aging }),
    async (request) => agingReport(db, request.query, businessDate(now())),
  );

  app.get<{ Params: IdParams }>(
    '/corporates/:id/collection-log/',
    operatorRoute(app, { action: 'Consultar bitácora de cobranza', doc: DOCS.log }),
    async (request) => ({ results: await collectionLogOf(db, request.params.id) }),
  );

  app.post<{ Params: IdParams; Body: CollectionLogBody }>(
    '/corporates/:id/collection-log/',
    operatorRoute(app, {
      roles: [...COLLECTION_LOG_ROLES],
      action: 'Registrar gestión de cobranza',
      doc: DOCS.logEntry,
    }),
    async (request, reply) => {
      const operator = currentOperator(request);
      const corporateId = request.params.id;
      // One entry per intent: 'Reintentar' after a lost answer sends the same Idempotency-Key (a replay).
      return replyIdempotent(
        request,
        reply,
        db,
        async (trx) => ({
          statusCode: 201,
          body: await addCollectionLogEntry(trx, operator.id, corporateId, request.body),
        }),
        logRefusal,
      );
    },
  );
};
