import type { FastifyPluginAsync } from 'fastify';
import {
  ALLIANCE_MAX_DAYS_MAX,
  ALLIANCE_MAX_DAYS_MIN,
  ALLIANCE_MESSAGES,
  ALLIANCE_STATES,
  ANNUAL_RATE_MAX,
  ANNUAL_RATE_MIN,
} from '../../../src/domain/alliance-terms';
import { formatCurrency, MAX_MONEY_INPUT } from '../../../src/domain/money';
import { IdParams } from '../../../src/domain/schemas/fields';
import { PAGE_SIZE } from '../../../src/domain/schemas/invoices';
import {
  AllianceInput,
  AllianceListQuery,
  INBOX_KINDS,
  InboxPage,
  InboxQuery,
  OperatorAllianceDetail,
  OperatorAlliancePage,
} from '../../../src/domain/schemas/operator-alliances';
import type { RouteDoc } from '../../http/openapi';
import { PAGE_PARAM, pageLinks } from '../../http/paging';
import { structToJsonSchema } from '../../http/struct-schema';
import { currentOperator, OPERATOR_MESSAGES, operatorRoute } from '../operator/operator-access';
import { findInboxPage } from './inbox.repository';
import { allianceDetail, listAlliances, setAlliance } from './operator-alliances.service';

const READ_REFUSAL = { 403: OPERATOR_MESSAGES.notOperator };
const BAD_FILTERS = {
  400: { description: 'Filtros no válidos: mensajes en español por campo ({campo: [mensaje]}).' },
};

const DOCS = {
  list: {
    summary: 'List alliances (corporate × supplier) with their current price',
    description:
      'Alianzas más recientes primero, activas y pendientes (RFC aún no vinculado con el SAT). Tasa anual antes ' +
      'de IVA (base 360) y max_rate con IVA, la que leen las cotizaciones.',
    query: {
      corporate: { description: 'Id del corporativo.', schema: { type: 'integer', minimum: 1 } },
      status: {
        description: 'Estado de la alianza.',
        schema: { type: 'string', enum: [...ALLIANCE_STATES] },
      },
      page: PAGE_PARAM,
    },
    queryStruct: AllianceListQuery,
    response: OperatorAlliancePage,
    responses: { ...BAD_FILTERS, ...READ_REFUSAL },
  },
  detail: {
    summary: 'One alliance with its price history',
    description:
      'La alianza y cada precio que tuvo, el más reciente primero, con quién lo fijó y desde cuándo.',
    params: { id: { description: 'Id de la alianza.' } },
    paramsStruct: IdParams,
    paramsNotFound: ALLIANCE_MESSAGES.notFound,
    response: OperatorAllianceDetail,
    responses: READ_REFUSAL,
  },
  set: {
    summary: 'Create an alliance or change its price',
    description:
      'Fija la tasa anual antes de IVA (base 360), los días máximos hasta la fecha de pago y, opcionalmente, el ' +
      'monto máximo por factura. Crea la alianza (201) o cambia su precio (200): el historial guarda cada precio ' +
      'y el cambio aplica a las cotizaciones posteriores. Un RFC que aún no está en Flujo (o sin vinculación SAT ' +
      'autorizada) queda pendiente y se activa al autorizarse su vinculación; el proveedor recibe un correo.',
    body: AllianceInput,
    // The domain's own checks (alliance-terms.ts), which the struct converter cannot read.
    bodyFields: {
      corporate_id: { type: 'integer', minimum: 1, description: 'Id del corporativo.' },
      annual_rate: {
        anyOf: [
          { type: 'number', minimum: Number(ANNUAL_RATE_MIN), maximum: Number(ANNUAL_RATE_MAX) },
          { type: 'string', pattern: '^\\d{1,3}(\\.\\d{1,2})?$' },
        ],
        description: `Tasa anual antes de IVA, en %, base 360, entre ${ANNUAL_RATE_MIN} y ${ANNUAL_RATE_MAX}, hasta dos decimales.`,
      },
      max_days: {
        type: 'integer',
        minimum: ALLIANCE_MAX_DAYS_MIN,
        maximum: ALLIANCE_MAX_DAYS_MAX,
        description: 'Días máximos hasta la fecha de pago.',
      },
      max_amount: {
        ...structToJsonSchema(AllianceInput.schema.max_amount),
        description: `Monto máximo por factura en MXN (opcional), hasta ${formatCurrency(MAX_MONEY_INPUT)}.`,
      },
    },
    status: 201,
    response: OperatorAllianceDetail,
    responses: {
      200: { description: 'La alianza ya existía: se cambió su precio.' },
      403: `${OPERATOR_MESSAGES.notOperator} / ${OPERATOR_MESSAGES.roleRequired(['analista'])}`,
      409: 'Otra persona acaba de fijar esta alianza; vuelve a intentarlo.',
    },
  },
  inbox: {
    summary:
      'What providers and visitors sent (demo requests, referrals, factoring and alliance requests) and the allied providers on the 69-B list',
    description:
      'Una página de un tipo: demo (solicitudes de demo), referral (clientes referidos), factoring (altas en ' +
      'factoraje), alliance (solicitudes de alianza), lo más reciente primero, con su estado; o efos (proveedores ' +
      'con alianza que están en la lista 69-B del SAT, con su situación como estado).',
    query: {
      kind: {
        description: 'Qué listar.',
        schema: { type: 'string', enum: [...INBOX_KINDS] },
        required: true,
      },
      page: PAGE_PARAM,
    },
    queryStruct: InboxQuery,
    response: InboxPage,
    responses: { ...BAD_FILTERS, ...READ_REFUSAL },
  },
} satisfies Record<string, RouteDoc>;

/** The operator's alliances and inbox (issue 19, decision 0053); registered by operator.plugin.ts. */
export const operatorAlliancesRoutes: FastifyPluginAsync = async (app) => {
  const { db, mailer, clock: now, appBaseUrl } = app;

  app.get<{ Querystring: AllianceListQuery }>(
    '/alliances/',
    operatorRoute(app, { action: 'Consultar alianzas', doc: DOCS.list }),
    async (request) => {
      const { corporate, status, page } = request.query;
      const { count, results } = await listAlliances(
        db,
        { corporateId: corporate, state: status ?? undefined },
        page,
      );
      return { count, ...pageLinks(request, { page, pageSize: PAGE_SIZE }, count), results };
    },
  );

  app.get<{ Params: IdParams }>(
    '/alliances/:id/',
    operatorRoute(app, { action: 'Consultar una alianza', doc: DOCS.detail }),
    async (request) => allianceDetail(db, request.params.id),
  );

  app.post<{ Body: AllianceInput }>(
    '/alliances/',
    operatorRoute(app, { roles: ['analista'], action: 'Fijar el precio de una alianza', doc: DOCS.set }),
    async (request, reply) => {
      const operator = currentOperator(request);
      const { alliance, created } = await setAlliance(
        { db, mailer, now, appBaseUrl },
        operator.id,
        request.body,
      );
      return reply.status(created ? 201 : 200).send(alliance);
    },
  );

  app.get<{ Querystring: InboxQuery }>(
    '/inbox/',
    operatorRoute(app, { action: 'Consultar la bandeja', doc: DOCS.inbox }),
    async (request) => {
      const query = request.query;
      const { count, rows } = await findInboxPage(db, query.kind, {
        limit: PAGE_SIZE,
        offset: (query.page - 1) * PAGE_SIZE,
      });
      return {
        count,
        ...pageLinks(request, { page: query.page, pageSize: PAGE_SIZE }, count),
        results: rows,
      };
    },
  );
};
