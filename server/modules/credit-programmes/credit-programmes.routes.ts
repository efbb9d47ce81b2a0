import type { FastifyPluginAsync } from 'fastify';
import { INVOICE_NOT_FOUND } from '../../../src/domain/invoice-label';
import { COLLECTION_ROLES } from '../../../src/domain/operator-roles';
import {
  CollectionResponse,
  MAX_PROGRAMMES_PAGE_SIZE,
  PROGRAMMES_PAGE_SIZE,
  ProgrammeDetail,
  ProgrammeListQuery,
  ProgrammePage,
  ProgrammeReasonBody,
  ProgrammeSummary,
  ProposeProgrammeBody,
  RecordCollectionBody,
} from '../../../src/domain/schemas/credit-programmes';
import { IdParams } from '../../../src/domain/schemas/fields';
import { businessDate } from '../../http/business-date';
import type { RouteDoc } from '../../http/openapi';
import { PAGE_PARAM, pageLinks } from '../../http/paging';
import { replyIdempotent } from '../idempotency/idempotent-reply';
import { detailRefusal } from '../invoices/refusals';
import { currentOperator, operatorRoute } from '../operator/operator-access';
import { recordCollection } from './collections.service';
import { countProgrammes, listProgrammes } from './credit-programmes.repository';
import {
  approveProgramme,
  changeProgrammeState,
  PROGRAMME_REFUSALS,
  programmeDetail,
  programmeSummaries,
  proposeProgramme,
} from './credit-programmes.service';

const PROGRAMME_ID = {
  params: { id: { description: 'Id del programa de crédito.' } },
  paramsStruct: IdParams,
  paramsNotFound: PROGRAMME_REFUSALS.notFound,
} as const;
const REFUSED = {
  403: 'El operador no tiene el rol que pide la acción, o es quien propuso el límite que intenta aprobar.',
  404: PROGRAMME_REFUSALS.notFound,
  409: 'El estado del programa no permite la acción, hay otra propuesta pendiente, o el límite es menor que lo reservado y usado.',
};

const DOCS = {
  list: {
    summary: "Every corporate's credit programme",
    description:
      'Programas de crédito por corporativo con límite, reservado, usado, disponible, utilización, estado (vencido ' +
      'si ya pasó su fecha de fin) y la propuesta de límite pendiente. Cualquier rol de operador.',
    query: {
      page: PAGE_PARAM,
      page_size: {
        description: `Tamaño de página (${PROGRAMMES_PAGE_SIZE} por omisión, máximo ${MAX_PROGRAMMES_PAGE_SIZE}).`,
        schema: { type: 'integer', minimum: 1, maximum: MAX_PROGRAMMES_PAGE_SIZE },
      },
    },
    queryStruct: ProgrammeListQuery,
    response: ProgrammePage,
  },
  propose: {
    summary: 'Propose a limit (new, raise or renewal) for a corporate',
    description:
      'Analista o Aprobador. Crea el programa del corporativo en borrador si no tiene y registra la propuesta, que ' +
      'entra en vigor solo cuando la aprueba otro Aprobador. Solo para un corporativo activo (409 si su alta ' +
      'está en borrador, en revisión, rechazada o suspendida).',
    body: ProposeProgrammeBody,
    response: ProgrammeSummary,
    status: 201,
    responses: {
      ...REFUSED,
      404: 'Corporativo no encontrado.',
      409: `${REFUSED[409]} / ${PROGRAMME_REFUSALS.corporateNotActive('Rechazado')}`,
    },
  },
  detail: {
    summary: 'A credit programme with its ledger and proposals',
    description:
      'Límite, reservado, usado, disponible, movimientos del libro, propuestas y cambios de estado.',
    ...PROGRAMME_ID,
    response: ProgrammeDetail,
  },
  approve: {
    summary: "Approve a programme's pending limit (four eyes)",
    description:
      'Aprobador distinto de quien propuso. Aplica la propuesta pendiente; la primera aprobación activa el programa.',
    ...PROGRAMME_ID,
    response: ProgrammeSummary,
    responses: REFUSED,
    idempotent: true,
  },
  freeze: {
    summary: 'Freeze an active programme',
    description: 'Aprobador, con motivo. Activo → Congelado: no acepta adelantos nuevos.',
    ...PROGRAMME_ID,
    body: ProgrammeReasonBody,
    response: ProgrammeSummary,
    responses: REFUSED,
  },
  unfreeze: {
    summary: 'Unfreeze a frozen programme',
    description: 'Aprobador, con motivo. Congelado → Activo.',
    ...PROGRAMME_ID,
    body: ProgrammeReasonBody,
    response: ProgrammeSummary,
    responses: REFUSED,
  },
  collection: {
    summary: "Record a corporate's payment of an advanced invoice",
    description:
      'Tesorería. Libera del programa la parte pagada (nunca más de lo que la factura usa). Una clave de rastreo ' +
      'ya registrada con la misma factura y monto responde el primer registro sin cambiar nada. La fecha va del ' +
      'desembolso del adelanto a hoy (400 en fecha); el monto es a lo más lo que falta por cobrar: el monto en MXN ' +
      'de la factura menos los pagos anteriores (400 en amount). Un pago mayor se registra solo con sobrepago: ' +
      'true, y la parte excedente queda en overpaid (sobrepago sin exceso: 400 en sobrepago).',
    body: RecordCollectionBody,
    response: CollectionResponse,
    status: 201,
    responses: {
      400: 'Errores por campo (fecha, amount, sobrepago, clave_rastreo…), en español.',
      403: 'El operador no tiene el rol Tesorería.',
      404: INVOICE_NOT_FOUND,
      409: 'La factura no tiene un adelanto pagado, o la clave de rastreo ya se registró con otro pago.',
    },
    idempotent: true,
  },
} satisfies Record<string, RouteDoc>;

/** The operators' credit-programme calls, mounted inside /api/operator/ (decision 0052). */
export const creditProgrammesRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock: now } = app;
  const today = () => businessDate(now());

  app.get<{ Querystring: ProgrammeListQuery }>(
    '/programmes/',
    operatorRoute(app, { action: 'Consultar programas de crédito', doc: DOCS.list }),
    async (request) => {
      const query = { page: request.query.page, pageSize: request.query.page_size };
      const operator = currentOperator(request);
      const [count, rows] = await Promise.all([
        countProgrammes(db),
        listProgrammes(db, { offset: (query.page - 1) * query.pageSize, limit: query.pageSize }),
      ]);
      return {
        count,
        ...pageLinks(request, query, count),
        results: await programmeSummaries(db, rows, today()),
        viewer: { id: operator.id, roles: operator.roles },
      };
    },
  );

  app.post<{ Body: ProposeProgrammeBody }>(
    '/programmes/',
    operatorRoute(app, {
      roles: ['analista', 'aprobador'],
      action: 'Proponer límite de programa',
      doc: DOCS.propose,
    }),
    async (request, reply) => {
      const operator = currentOperator(request);
      const outcome = await db
        .transaction()
        .execute((trx) =>
          proposeProgramme(trx, { id: operator.id, roles: operator.roles }, request.body, today()),
        );
      return reply.status(outcome.statusCode).send(outcome.body);
    },
  );

  app.get<{ Params: IdParams }>(
    '/programmes/:id/',
    operatorRoute(app, { action: 'Consultar un programa de crédito', doc: DOCS.detail }),
    async (request) => programmeDetail(db, request.params.id, today()),
  );

  app.post<{ Params: IdParams }>(
    '/programmes/:id/approve/',
    operatorRoute(app, { roles: ['aprobador'], action: 'Aprobar límite de programa', doc: DOCS.approve }),
    async (request, reply) => {
      const operator = currentOperator(request);
      const programmeId = request.params.id;
      return replyIdempotent(
        request,
        reply,
        db,
        (trx) => approveProgramme(trx, { id: operator.id, roles: operator.roles }, programmeId, today()),
        detailRefusal,
      );
    },
  );

  for (const [path, type, label, doc] of [
    ['freeze', 'programme.freeze', 'Congelar programa', DOCS.freeze],
    ['unfreeze', 'programme.unfreeze', 'Descongelar programa', DOCS.unfreeze],
  ] as const) {
    app.post<{ Body: ProgrammeReasonBody; Params: IdParams }>(
      `/programmes/:id/${path}/`,
      operatorRoute(app, { roles: ['aprobador'], action: label, doc }),
      async (request, reply) => {
        const operator = currentOperator(request);
        const programmeId = request.params.id;
        const outcome = await db
          .transaction()
          .execute((trx) =>
            changeProgrammeState(
              trx,
              { id: operator.id, roles: operator.roles },
              programmeId,
              { type, reason: request.body.reason },
              today(),
            ),
          );
        return reply.status(outcome.statusCode).send(outcome.body);
      },
    );
  }

  app.post<{ Body: RecordCollectionBody }>(
    '/collections/',
    operatorRoute(app, {
      roles: COLLECTION_ROLES,
      action: 'Registrar cobro al corporativo',
      doc: DOCS.collection,
    }),
    async (request, reply) => {
      const operator = currentOperator(request);
      return replyIdempotent(
        request,
        reply,
        db,
        (trx) => recordCollection(trx, { id: operator.id, roles: operator.roles }, request.body, today()),
        detailRefusal,
      );
    },
  );
};
