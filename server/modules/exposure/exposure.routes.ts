import type { FastifyPluginAsync } from 'fastify';
import { CapList, CapView, ExposureAnswer, ProposeCapBody } from '../../../src/domain/schemas/exposure';
import { IdParams } from '../../../src/domain/schemas/fields';
import { businessDate } from '../../http/business-date';
import type { RouteDoc } from '../../http/openapi';
import { replyIdempotent } from '../idempotency/idempotent-reply';
import { detailRefusal } from '../invoices/refusals';
import { currentOperator, operatorRoute } from '../operator/operator-access';
import {
  approveCap,
  CAP_REFUSALS,
  exposureReport,
  listCaps,
  proposeCap,
  rejectCap,
} from './exposure.service';

const CAP_ID = {
  params: { id: { description: 'Id del tope de concentración.' } },
  paramsStruct: IdParams,
  paramsNotFound: CAP_REFUSALS.notFound,
} as const;

const DOCS = {
  exposure: {
    summary: "Flujo's exposure by buyer, economic group and supplier",
    description:
      'Saldo insoluto (adelantos dispersados: valor en MXN menos cobros) y reservado (libro de programas) por ' +
      'comprador, grupo económico y proveedor, con su participación en la exposición total y el tope vigente ' +
      '(utilización y margen); utilización de cada programa; escalera de vencimientos (vencido, 7, 30, 60, 90 ' +
      'días y más). Cualquier rol de operador.',
    response: ExposureAnswer,
  },
  caps: {
    summary: 'Concentration caps proposed and in force',
    description: 'Topes de concentración propuestos y vigentes, con quién los propuso y aprobó.',
    response: CapList,
  },
  propose: {
    summary: 'Propose a concentration cap (buyer, group or supplier)',
    description:
      'Analista o Aprobador. Un tope por comprador (company_id), grupo económico (group) o proveedor (company_id): ' +
      'monto en MXN (kind amount) o porcentaje de la exposición total de Flujo (kind percent, hasta 100). Entra ' +
      'en vigor solo cuando lo aprueba otro Aprobador; reemplaza al vigente del mismo sujeto.',
    body: ProposeCapBody,
    response: CapView,
    status: 201,
    responses: {
      403: 'El operador no tiene el rol Analista o Aprobador.',
      404: CAP_REFUSALS.companyNotFound,
      409: `${CAP_REFUSALS.alreadyPending} / ${CAP_REFUSALS.groupUnknown} / ${CAP_REFUSALS.notCorporate}`,
    },
  },
  approve: {
    summary: 'Approve a proposed cap (four eyes)',
    description:
      'Aprobador distinto de quien propuso. El tope entra en vigor y reemplaza al vigente del mismo sujeto; las ' +
      'reservas ya hechas siguen y la mesa las detiene con la verificación «Concentración» mientras lo rebasen.',
    ...CAP_ID,
    response: CapView,
    responses: {
      403: `El operador no es Aprobador, o es quien propuso el tope: ${CAP_REFUSALS.selfApproval}`,
      404: CAP_REFUSALS.notFound,
      409: CAP_REFUSALS.notNow,
    },
    idempotent: true,
  },
  reject: {
    summary: 'Reject a proposed cap',
    description: 'Aprobador. El tope propuesto queda rechazado y nunca limita nada.',
    ...CAP_ID,
    response: CapView,
    responses: { 403: 'El operador no es Aprobador.', 404: CAP_REFUSALS.notFound, 409: CAP_REFUSALS.notNow },
  },
} satisfies Record<string, RouteDoc>;

/** Exposure and concentration caps, mounted inside /api/operator/ (decision 0069). */
export const exposureRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock: now } = app;
  const today = () => businessDate(now());

  app.get(
    '/exposure/',
    operatorRoute(app, { action: 'Consultar exposición y concentración', doc: DOCS.exposure }),
    async () => exposureReport(db, today()),
  );

  app.get(
    '/exposure/caps/',
    operatorRoute(app, { action: 'Consultar topes de concentración', doc: DOCS.caps }),
    async (request) => {
      const operator = currentOperator(request);
      return { results: await listCaps(db), viewer: { id: operator.id, roles: operator.roles } };
    },
  );

  app.post<{ Body: ProposeCapBody }>(
    '/exposure/caps/',
    operatorRoute(app, {
      roles: ['analista', 'aprobador'],
      action: 'Proponer tope de concentración',
      doc: DOCS.propose,
    }),
    async (request, reply) => {
      const operator = currentOperator(request);
      const outcome = await db
        .transaction()
        .execute((trx) => proposeCap(trx, { id: operator.id, roles: operator.roles }, request.body));
      return reply.status(outcome.statusCode).send(outcome.body);
    },
  );

  app.post<{ Params: IdParams }>(
    '/exposure/caps/:id/approve/',
    operatorRoute(app, { roles: ['aprobador'], action: 'Aprobar tope de concentración', doc: DOCS.approve }),
    async (request, reply) => {
      const operator = currentOperator(request);
      const id = request.params.id;
      return replyIdempotent(
        request,
        reply,
        db,
        (trx) => approveCap(trx, { id: operator.id, roles: operator.roles }, id),
        detailRefusal,
      );
    },
  );

  app.post<{ Params: IdParams }>(
    '/exposure/caps/:id/reject/',
    operatorRoute(app, { roles: ['aprobador'], action: 'Rechazar tope de concentración', doc: DOCS.reject }),
    async (request, reply) => {
      const operator = currentOperator(request);
      const id = request.params.id;
      const outcome = await db
        .transaction()
        .execute((trx) => rejectCap(trx, { id: operator.id, roles: operator.roles }, id));
      return reply.status(outcome.statusCode).send(outcome.body);
    },
  );
};
