import multipart from '@fastify/multipart';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { enums, optional } from 'superstruct';
import {
  BANK_STATEMENT_COLUMNS,
  BANK_STATEMENT_MAX_BYTES,
  BANK_STATEMENT_MAX_LINES,
  UNIDENTIFIED_APPROVAL_THRESHOLD,
} from '../../../src/domain/bank-statement';
import { formatMxn } from '../../../src/domain/money';
import { BANK_STATEMENT_ROLES, UNIDENTIFIED_ASSIGN_ROLES } from '../../../src/domain/operator-roles';
import {
  ApplyCreditBody,
  ApplyCreditResult,
  AssignUnidentifiedBody,
  BankStatementResult,
  BuyerCreditList,
  UnidentifiedPage,
  UnidentifiedPayment,
  UnidentifiedReasonBody,
} from '../../../src/domain/schemas/bank-statement';
import { DeskRefusal } from '../../../src/domain/schemas/control-desk';
import { IdParams, payload } from '../../../src/domain/schemas/fields';
import { businessDate } from '../../http/business-date';
import { FieldErrors } from '../../http/errors';
import type { RouteDoc } from '../../http/openapi';
import { structToJsonSchema } from '../../http/struct-schema';
import { readUpload, requireFile, type UploadShape } from '../../uploads/upload-file';
import type { RefusalMapper } from '../idempotency/idempotency.service';
import { replyIdempotent } from '../idempotency/idempotent-reply';
import { currentOperator, operatorRoute } from '../operator/operator-access';
import { CollectionError, reconcileBankStatement } from './bank-statement.service';
import {
  applyCredit,
  approveUnidentified,
  assignUnidentified,
  listCredits,
  listUnidentified,
  QUEUE_REFUSALS,
  rejectUnidentified,
  returnUnidentified,
} from './collection-queue.service';

// Cobranza in the back office (issue 34, decision 0067), mounted at /api/operator/: the bank's statement, the
// unidentified-payment queue and the buyers' saldo a favor.

const REFUSAL = {
  description: 'Rechazo con su motivo y, cuando hay varios, uno por línea en errors.',
  schema: structToJsonSchema(DeskRefusal),
};
const ID_PARAM = { description: 'Id numérico.', schema: { type: 'integer', minimum: 1 } } as const;
const QUEUED = {
  params: { id: ID_PARAM },
  paramsStruct: IdParams,
  paramsNotFound: QUEUE_REFUSALS.notFound,
} as const;
const THRESHOLD = formatMxn(UNIDENTIFIED_APPROVAL_THRESHOLD);

/** GET operator/collections/unidentified/?state=: the queue (pendiente and propuesta unless asked). */
export const UnidentifiedQuery = payload({
  state: optional(enums(['pendiente', 'propuesta', 'aplicada', 'devuelta'])),
});

const DOCS = {
  statement: {
    summary: "Reconcile the bank's statement of incoming SPEI",
    description:
      `Tesorería o Aprobador. Multipart con el campo file: CSV ${BANK_STATEMENT_COLUMNS.join(',')} (máximo ` +
      `${BANK_STATEMENT_MAX_BYTES / 1024 / 1024} MB y ${BANK_STATEMENT_MAX_LINES} líneas). Cada pago se busca por su ` +
      'referencia (el lote de vencimientos) y, si no nombra uno, por el RFC del ordenante y una factura con ese ' +
      'saldo exacto: exacta, parcial (a la factura de vencimiento más antiguo), sobrepago (el excedente queda como ' +
      'saldo a favor del corporativo) o no identificada (a la cola). Una clave de rastreo se aplica una sola vez: ' +
      'el mismo archivo otra vez no cambia nada y lo dice (repetidas). Todo el archivo en una transacción: una ' +
      'línea con error responde 400 con un mensaje por línea y no escribe nada.',
    body: {
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary', description: 'El CSV del banco.' } },
    },
    bodyMediaType: 'multipart/form-data',
    response: BankStatementResult,
    responses: {
      400: REFUSAL,
      403: 'El rol no es Tesorería ni Aprobador.',
      413: 'El archivo excede el tamaño máximo.',
      415: 'El cuerpo no es multipart/form-data o el archivo no es CSV.',
    },
    idempotent: true,
  },
  unidentified: {
    summary: 'The unidentified-payment queue',
    description: 'Pagos del banco que no se identificaron; por omisión los pendientes y propuestos.',
    query: { state: { description: 'pendiente, propuesta, aplicada o devuelta.' } },
    queryStruct: UnidentifiedQuery,
    response: UnidentifiedPage,
  },
  assign: {
    summary: 'Assign an unidentified payment to an invoice',
    description:
      `Tesorería o Aprobador. Hasta ${THRESHOLD} el pago se aplica a la factura (lo que exceda lo que debe queda ` +
      `como saldo a favor de su corporativo); arriba de ${THRESHOLD} queda propuesto y lo aprueba otro Aprobador.`,
    ...QUEUED,
    body: AssignUnidentifiedBody,
    response: UnidentifiedPayment,
    responses: {
      403: 'El rol no es Tesorería ni Aprobador.',
      404: `${QUEUE_REFUSALS.notFound} / ${QUEUE_REFUSALS.invoiceNotFound}`,
      409: `El pago no está pendiente, o ${QUEUE_REFUSALS.nothingOutstanding}`,
    },
    idempotent: true,
  },
  approve: {
    summary: 'Approve a proposed assignment (a different aprobador)',
    description:
      'Aprobador distinto de quien propuso (403 si es el mismo). El pago se aplica a la factura propuesta.',
    ...QUEUED,
    response: UnidentifiedPayment,
    responses: {
      403: 'El rol no es Aprobador, o es quien propuso la asignación.',
      404: QUEUE_REFUSALS.notFound,
      409: 'La asignación no está propuesta, o la factura ya no tiene saldo por cobrar.',
    },
    idempotent: true,
  },
  reject: {
    summary: 'Reject a proposed assignment',
    description: 'Aprobador, con motivo. El pago vuelve a pendiente.',
    ...QUEUED,
    body: UnidentifiedReasonBody,
    response: UnidentifiedPayment,
    responses: {
      403: QUEUE_REFUSALS.approverOnly,
      404: QUEUE_REFUSALS.notFound,
      409: 'La asignación no está propuesta.',
    },
  },
  return: {
    summary: 'Return an unidentified payment to its sender',
    description: 'Tesorería o Aprobador, con motivo: el pago no es para Flujo y se devuelve al ordenante.',
    ...QUEUED,
    body: UnidentifiedReasonBody,
    response: UnidentifiedPayment,
    responses: {
      403: 'El rol no es Tesorería ni Aprobador.',
      404: QUEUE_REFUSALS.notFound,
      409: 'El pago no está pendiente.',
    },
  },
  credits: {
    summary: "The buyers' saldo a favor",
    description: 'Cada corporativo con saldo a favor (excedentes de sus pagos), de mayor a menor.',
    response: BuyerCreditList,
  },
  applyCredit: {
    summary: "Apply part of a buyer's saldo a favor to one of its invoices",
    description:
      'Tesorería o Aprobador. El monto sale del saldo a favor del corporativo de la factura y se cobra en ella ' +
      '(se libera la parte del programa). A lo más el saldo a favor y lo que falta por cobrar (400 en amount).',
    body: ApplyCreditBody,
    response: ApplyCreditResult,
    responses: {
      403: 'El rol no es Tesorería ni Aprobador.',
      404: QUEUE_REFUSALS.invoiceNotFound,
      409: QUEUE_REFUSALS.nothingOutstanding,
    },
    idempotent: true,
  },
} satisfies Record<string, RouteDoc>;

const collectionRefusal: RefusalMapper = (error) => {
  if (error instanceof CollectionError)
    return {
      statusCode: error.statusCode,
      body:
        error.details.length > 0
          ? { detail: error.message, errors: error.details }
          : { detail: error.message },
    };
  return null;
};

async function collectionErrorHandler(
  error: FastifyError | Error,
  _request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error instanceof FieldErrors) throw error;
  const answer = collectionRefusal(error);
  if (!answer) throw error;
  return reply.status(answer.statusCode).send(answer.body);
}

const STATEMENT_SHAPE: UploadShape = {
  fileField: 'file',
  fieldNames: [],
  maxBytes: BANK_STATEMENT_MAX_BYTES,
};
// NOTE: browsers label a .csv as text/csv, application/vnd.ms-excel (Windows with Excel) or nothing at all.
const CSV_MEDIA_TYPES = [
  'text/csv',
  'application/csv',
  'text/plain',
  'application/vnd.ms-excel',
  'application/octet-stream',
  '',
];

export const collectionsRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock: now } = app;
  const today = () => businessDate(now());
  app.setErrorHandler(collectionErrorHandler);
  await app.register(multipart, {
    limits: {
      fileSize: BANK_STATEMENT_MAX_BYTES,
      files: 1,
      fields: 2,
      fieldSize: 1024,
      parts: 3,
      headerPairs: 20,
    },
  });

  app.post(
    '/collections/bank-statement/',
    operatorRoute(app, {
      roles: BANK_STATEMENT_ROLES,
      action: 'Cargar estado de cuenta del banco',
      doc: DOCS.statement,
    }),
    async (request, reply) => {
      const operator = currentOperator(request);
      const upload = await readUpload(request, STATEMENT_SHAPE);
      const file = requireFile(upload, STATEMENT_SHAPE, {
        mediaTypes: CSV_MEDIA_TYPES,
        extension: 'csv',
        magic: (data) => !data.includes(0),
        wrongKind: 'El estado de cuenta debe ser un CSV de texto.',
      });
      return replyIdempotent(
        request,
        reply,
        db,
        async (trx) => ({
          statusCode: 200,
          body: await reconcileBankStatement(trx, operator.id, file.data.toString('utf8'), today()),
        }),
        collectionRefusal,
      );
    },
  );

  app.get<{ Querystring: { state?: 'pendiente' | 'propuesta' | 'aplicada' | 'devuelta' } }>(
    '/collections/unidentified/',
    operatorRoute(app, { action: 'Ver pagos no identificados', doc: DOCS.unidentified }),
    async (request) => listUnidentified(db, request.query.state ?? null),
  );

  app.post<{ Params: IdParams; Body: AssignUnidentifiedBody }>(
    '/collections/unidentified/:id/assign/',
    operatorRoute(app, {
      roles: UNIDENTIFIED_ASSIGN_ROLES,
      action: 'Asignar pago no identificado',
      doc: DOCS.assign,
    }),
    async (request, reply) => {
      const operator = currentOperator(request);
      return replyIdempotent(
        request,
        reply,
        db,
        async (trx) => ({
          statusCode: 200,
          body: await assignUnidentified(trx, operator, request.params.id, request.body.invoice_id),
        }),
        collectionRefusal,
      );
    },
  );

  app.post<{ Params: IdParams }>(
    '/collections/unidentified/:id/approve/',
    operatorRoute(app, { roles: ['aprobador'], action: 'Aprobar asignación de pago', doc: DOCS.approve }),
    async (request, reply) => {
      const operator = currentOperator(request);
      return replyIdempotent(
        request,
        reply,
        db,
        async (trx) => ({
          statusCode: 200,
          body: await approveUnidentified(trx, operator, request.params.id),
        }),
        collectionRefusal,
      );
    },
  );

  app.post<{ Params: IdParams; Body: UnidentifiedReasonBody }>(
    '/collections/unidentified/:id/reject/',
    operatorRoute(app, { roles: ['aprobador'], action: 'Rechazar asignación de pago', doc: DOCS.reject }),
    async (request) => {
      const operator = currentOperator(request);
      return db
        .transaction()
        .execute((trx) => rejectUnidentified(trx, operator, request.params.id, request.body.reason));
    },
  );

  app.post<{ Params: IdParams; Body: UnidentifiedReasonBody }>(
    '/collections/unidentified/:id/return/',
    operatorRoute(app, {
      roles: UNIDENTIFIED_ASSIGN_ROLES,
      action: 'Devolver pago no identificado',
      doc: DOCS.return,
    }),
    async (request) => {
      const operator = currentOperator(request);
      return db
        .transaction()
        .execute((trx) => returnUnidentified(trx, operator, request.params.id, request.body.reason));
    },
  );

  app.get(
    '/collections/credits/',
    operatorRoute(app, { action: 'Ver saldos a favor', doc: DOCS.credits }),
    async () => listCredits(db),
  );

  app.post<{ Body: ApplyCreditBody }>(
    '/collections/credits/apply/',
    operatorRoute(app, {
      roles: UNIDENTIFIED_ASSIGN_ROLES,
      action: 'Aplicar saldo a favor',
      doc: DOCS.applyCredit,
    }),
    async (request, reply) => {
      const operator = currentOperator(request);
      return replyIdempotent(
        request,
        reply,
        db,
        async (trx) => ({ statusCode: 200, body: await applyCredit(trx, operator, request.body, today()) }),
        collectionRefusal,
      );
    },
  );
};
