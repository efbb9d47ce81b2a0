import multipart from '@fastify/multipart';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { DESK_STATES } from '../../../src/domain/control-desk';
import {
  Batch,
  BatchPage,
  ConfirmationResult,
  CreateBatchBody,
  DeskApproveBody,
  DeskItem,
  DeskPage,
  DeskQuery,
  DeskRefusal,
  DeskRejectBody,
} from '../../../src/domain/schemas/control-desk';
import { IdParams, PageQuery } from '../../../src/domain/schemas/fields';
import { PAGE_SIZE } from '../../../src/domain/schemas/invoices';
import { RESULT_FILE_MAX_BYTES } from '../../../src/domain/spei';
import { businessDate } from '../../http/business-date';
import { FieldErrors } from '../../http/errors';
import type { RouteDoc } from '../../http/openapi';
import { PAGE_PARAM, pageLinks } from '../../http/paging';
import { structToJsonSchema } from '../../http/struct-schema';
import { readUpload, requireFile, type UploadShape } from '../../uploads/upload-file';
import type { RefusalMapper } from '../idempotency/idempotency.service';
import { replyIdempotent } from '../idempotency/idempotent-reply';
import { currentOperator, operatorRoute } from '../operator/operator-access';
import { recheckAtSat } from '../sat/cfdi-proof.service';
import {
  approveDeskItem,
  batchLayout,
  confirmBatch,
  createBatch,
  DeskError,
  getBatch,
  getDeskItem,
  listBatchPage,
  listDesk,
  rejectDeskItem,
  sendPaidNotices,
} from './control-desk.service';

// The control desk and SPEI batches of the back office (decision 0054), mounted at /api/operator/.

const REFUSAL = {
  description: 'Rechazo con su motivo y, cuando hay varios, uno por línea en errors.',
  schema: structToJsonSchema(DeskRefusal),
};
const ID_PARAM = { description: 'Id numérico.', schema: { type: 'integer', minimum: 1 } } as const;
const PAGE_QUERY = { page: PAGE_PARAM } as const;
const DESK_ITEM = {
  params: { id: ID_PARAM },
  paramsStruct: IdParams,
  paramsNotFound: 'La factura no está en la mesa de control.',
} as const;
const BATCH = {
  params: { id: ID_PARAM },
  paramsStruct: IdParams,
  paramsNotFound: 'Lote no encontrado.',
} as const;

const DOCS = {
  desk: {
    summary: 'The control desk: every advance in process with its checks',
    description:
      'Cada adelanto En trámite (y lo que la mesa decidió) con sus verificaciones: vinculación SAT, CFDI vigente, ' +
      'alianza activa, programa de crédito con reserva, CLABE del proveedor, folio fiscal único y límites de la ' +
      'alianza, cada una con su motivo. amount es el monto de la factura en MXN (convertido al tipo de cambio del ' +
      'CFDI si está en otra moneda); amount_with_exchange_rate_usd su monto en dólares si la factura es en USD ' +
      "(null si no) y exchange_rate ese tipo de cambio ('-' si es en pesos), como en las listas de facturas; " +
      'payout lo que recibe el proveedor ' +
      '(MXN, el monto menos los costos del adelanto, como lo llevaría la orden SPEI si se creara el lote hoy; null ' +
      'si no hay cotización ni alianza). Del más antiguo al más reciente; filtro por estado.',
    query: {
      state: {
        description: `Estado en la mesa: ${DESK_STATES.join(', ')}.`,
        schema: { type: 'string', enum: [...DESK_STATES] },
      },
      ...PAGE_QUERY,
    },
    queryStruct: DeskQuery,
    response: DeskPage,
  },
  deskItem: {
    summary: 'One advance on the control desk with its checks',
    description: 'Un adelanto de la mesa de control con sus verificaciones.',
    ...DESK_ITEM,
    response: DeskItem,
  },
  approve: {
    summary: 'Approve an advance (aprobador)',
    description:
      'El aprobador aprueba el adelanto para dispersarlo. Se rechaza (409) mientras alguna verificación no pase, ' +
      'con el motivo de cada una en errors.',
    ...DESK_ITEM,
    body: DeskApproveBody,
    response: DeskItem,
    responses: { 409: REFUSAL },
    idempotent: true,
  },
  reject: {
    summary: 'Reject an advance with a reason (aprobador)',
    description:
      'El aprobador rechaza el adelanto con un motivo: la factura vuelve a Autorizada (ciclo de vida, ' +
      'invoice.deskReject), se cancela su reserva en el programa y se avisa al proveedor por correo con el motivo.',
    ...DESK_ITEM,
    body: DeskRejectBody,
    response: DeskItem,
    responses: { 409: REFUSAL },
  },
  batches: {
    summary: 'SPEI batches, newest first',
    description: 'Lotes SPEI con el número de órdenes pendientes, liquidadas y devueltas y su total.',
    query: PAGE_QUERY,
    queryStruct: PageQuery,
    response: BatchPage,
  },
  createBatch: {
    summary: 'Batch approved advances into SPEI orders (tesorería)',
    description:
      'Crea un lote con una orden SPEI por adelanto aprobado: clave de rastreo (generada, única), referencia ' +
      'numérica, nombre, CLABE y RFC del beneficiario, monto (lo que recibe el proveedor) y concepto. Todo o nada.',
    body: CreateBatchBody,
    response: Batch,
    status: 201,
    responses: { 404: REFUSAL, 409: REFUSAL },
    idempotent: true,
  },
  batch: {
    summary: 'One SPEI batch with its orders',
    description: 'Un lote SPEI con sus órdenes y el estado de cada una.',
    ...BATCH,
    response: Batch,
  },
  layout: {
    summary: "The batch's layout CSV for the bank's portal",
    description:
      'CSV (UTF-8, CRLF) con encabezado clave_rastreo, referencia_numerica, institucion_contraparte, ' +
      'tipo_cuenta_beneficiario, cuenta_beneficiario, nombre_beneficiario, rfc_curp_beneficiario, monto, concepto_pago.',
    ...BATCH,
    responseMediaType: 'text/csv',
  },
  confirmation: {
    summary: "Upload the bank's result file for a batch (a second tesorería or an aprobador)",
    description:
      'Dos personas (decisión 0059): quien creó el lote no confirma su resultado (403); lo carga otra persona de ' +
      'tesorería o un aprobador, y cada orden guarda quién la confirmó (confirmed_by). ' +
      'Multipart con el campo file: CSV clave_rastreo,estado,motivo (estado liquidada o devuelta; una devuelta ' +
      `lleva motivo; máximo ${RESULT_FILE_MAX_BYTES / 1024} KB). Una línea con error rechaza todo el archivo (400, ` +
      'un mensaje por línea) y no cambia nada. Liquidada: la factura pasa a Pagada, se registra el desembolso, la ' +
      'reserva se usa y se avisa al proveedor. Devuelta: el adelanto regresa a la mesa con el motivo del banco y la ' +
      'reserva se conserva. Una clave se confirma una sola vez: un archivo repetido no cambia nada.',
    ...BATCH,
    body: {
      type: 'object',
      required: ['file'],
      properties: {
        file: { type: 'string', format: 'binary', description: 'El CSV de resultados del banco.' },
      },
    },
    bodyMediaType: 'multipart/form-data',
    response: ConfirmationResult,
    responses: {
      400: REFUSAL,
      403: 'El rol no es Aprobador ni Tesorería, o quien llama creó el lote.',
      404: 'Lote no encontrado.',
      409: REFUSAL,
      413: 'El archivo excede el tamaño máximo.',
      415: 'El cuerpo no es multipart/form-data o el archivo no es CSV.',
    },
    idempotent: true,
  },
} satisfies Record<string, RouteDoc>;

/** The desk's refusals as {detail, errors}; the lifecycle's and the programme's as {detail}. */
const deskRefusal: RefusalMapper = (error) => {
  if (error instanceof DeskError) {
    return {
      statusCode: error.statusCode,
      body:
        error.details.length > 0
          ? { detail: error.message, errors: error.details }
          : { detail: error.message },
    };
  }
  const statusCode = (error as { statusCode?: unknown } | null)?.statusCode;
  if (
    error instanceof Error &&
    !(error instanceof FieldErrors) &&
    (statusCode === 404 || statusCode === 409)
  ) {
    return { statusCode, body: { detail: error.message } };
  }
  return null;
};

async function deskErrorHandler(error: FastifyError | Error, _request: FastifyRequest, reply: FastifyReply) {
  const answer = deskRefusal(error);
  if (!answer) throw error;
  return reply.status(answer.statusCode).send(answer.body);
}

const RESULT_SHAPE: UploadShape = { fileField: 'file', fieldNames: [], maxBytes: RESULT_FILE_MAX_BYTES };
// NOTE: browsers label a .csv as text/csv, application/vnd.ms-excel (Windows with Excel) or nothing at all; the
// extension and the content (text, then the parse) decide.
const CSV_MEDIA_TYPES = [
  'text/csv',
  'application/csv',
  'text/plain',
  'application/vnd.ms-excel',
  'application/octet-stream',
  '',
];

export const controlDeskRoutes: FastifyPluginAsync = async (app) => {
  const { db, mailer, clock: now } = app;
  app.setErrorHandler(deskErrorHandler);
  await app.register(multipart, {
    limits: {
      fileSize: RESULT_FILE_MAX_BYTES,
      files: 1,
      fields: 2,
      fieldSize: 1024,
      parts: 3,
      headerPairs: 20,
    },
  });

  app.get<{ Querystring: DeskQuery }>(
    '/desk/',
    operatorRoute(app, { action: 'Consultar la mesa de control', doc: DOCS.desk }),
    async (request) => {
      const query = { ...request.query, pageSize: PAGE_SIZE };
      const result = await listDesk(db, query, businessDate(now()));
      return { count: result.count, ...pageLinks(request, query, result.count), results: result.results };
    },
  );

  app.get<{ Params: IdParams }>(
    '/desk/:id/',
    operatorRoute(app, { action: 'Consultar un adelanto de la mesa', doc: DOCS.deskItem }),
    async (request) => {
      const id = request.params.id;
      return getDeskItem(db, id, businessDate(now()));
    },
  );

  app.post<{ Body: DeskApproveBody; Params: IdParams }>(
    '/desk/:id/approve/',
    operatorRoute(app, { roles: ['aprobador'], action: 'Aprobar adelanto', doc: DOCS.approve }),
    async (request, reply) => {
      const id = request.params.id;
      const operator = currentOperator(request);
      // SAT is asked again before the decision (outside the transaction); its answer is what the check reads.
      await recheckAtSat(db, app.authenticity, [id]);
      return replyIdempotent(
        request,
        reply,
        db,
        async (trx) => ({
          statusCode: 200,
          body: await approveDeskItem(trx, id, operator, { today: businessDate(now()) }),
        }),
        deskRefusal,
      );
    },
  );

  app.post<{ Body: DeskRejectBody; Params: IdParams }>(
    '/desk/:id/reject/',
    operatorRoute(app, { roles: ['aprobador'], action: 'Rechazar adelanto', doc: DOCS.reject }),
    async (request) => {
      const id = request.params.id;
      return rejectDeskItem(db, id, currentOperator(request), {
        reason: request.body.reason,
        today: businessDate(now()),
        mailer,
      });
    },
  );

  app.get<{ Querystring: PageQuery }>(
    '/disbursements/',
    operatorRoute(app, { action: 'Consultar lotes SPEI', doc: DOCS.batches }),
    async (request) => {
      const query = { page: request.query.page, pageSize: PAGE_SIZE };
      const result = await listBatchPage(db, query);
      return { count: result.count, ...pageLinks(request, query, result.count), results: result.results };
    },
  );

  app.post<{ Body: CreateBatchBody }>(
    '/disbursements/',
    operatorRoute(app, { roles: ['tesoreria'], action: 'Crear lote SPEI', doc: DOCS.createBatch }),
    async (request, reply) => {
      const operator = currentOperator(request);
      // And again right before the money leaves: the batch takes only CFDI SAT confirms vigente now.
      await recheckAtSat(db, app.authenticity, request.body.invoice_ids);
      return replyIdempotent(
        request,
        reply,
        db,
        async (trx) => ({
          statusCode: 201,
          body: await createBatch(trx, request.body.invoice_ids, operator, { today: businessDate(now()) }),
        }),
        deskRefusal,
      );
    },
  );

  app.get<{ Params: IdParams }>(
    '/disbursements/:id/',
    operatorRoute(app, { action: 'Consultar lote SPEI', doc: DOCS.batch }),
    async (request) => getBatch(db, request.params.id),
  );

  app.get<{ Params: IdParams }>(
    '/disbursements/:id/layout.csv',
    operatorRoute(app, { action: 'Descargar layout SPEI', doc: DOCS.layout }),
    async (request, reply) => {
      const id = request.params.id;
      const csv = await batchLayout(db, id);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="lote-spei-${id}.csv"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );

  app.post<{ Params: IdParams }>(
    '/disbursements/:id/confirmation/',
    operatorRoute(app, {
      roles: ['aprobador', 'tesoreria'],
      action: 'Cargar resultado del banco',
      doc: DOCS.confirmation,
    }),
    async (request, reply) => {
      const id = request.params.id;
      const operator = currentOperator(request);
      const upload = await readUpload(request, RESULT_SHAPE);
      const file = requireFile(upload, RESULT_SHAPE, {
        mediaTypes: CSV_MEDIA_TYPES,
        extension: 'csv',
        magic: (data) => !data.includes(0),
        wrongKind: 'El archivo de resultados debe ser un CSV de texto.',
      });
      return replyIdempotent(
        request,
        reply,
        db,
        async (trx) => {
          const settled = await confirmBatch(trx, id, file.data.toString('utf8'), operator);
          return {
            statusCode: 200,
            body: settled.result,
            afterCommit: () => sendPaidNotices(mailer, settled.notices),
          };
        },
        deskRefusal,
      );
    },
  );
};
