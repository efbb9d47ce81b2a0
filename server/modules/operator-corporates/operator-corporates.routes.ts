import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { BULK_UPLOAD_MESSAGES } from '../../../src/domain/bulk-upload';
import {
  CLABE_DOCUMENT_KIND,
  CORPORATE_DOCUMENT_KINDS,
  CORPORATE_MESSAGES,
  MAX_CORPORATE_DOCUMENT_BYTES,
  ONBOARDING_STATES,
  PDF_MEDIA_TYPE,
} from '../../../src/domain/corporate-file';
import { EconomicGroupAnswer, EconomicGroupBody } from '../../../src/domain/schemas/exposure';
import type { IdParams } from '../../../src/domain/schemas/fields';
import { PAGE_SIZE } from '../../../src/domain/schemas/invoices';
import {
  CorporateCreated,
  CorporateDetail,
  CorporateDocumentParams,
  CorporateListQuery,
  CorporatePage,
  CorporateParams,
  CreateCorporateBody,
  DecisionRecorded,
  DocumentDecisionBody,
  MAX_CORPORATES_PAGE_SIZE,
  OnboardingStateAnswer,
  RejectCorporateBody,
  SuspendCorporateBody,
} from '../../../src/domain/schemas/operator-corporates';
import { businessDate } from '../../http/business-date';
import type { RouteDoc } from '../../http/openapi';
import { PAGE_PARAM, pageLinks } from '../../http/paging';
import { readUpload, type UploadShape } from '../../uploads/upload-file';
import { UploadRefusal } from '../../uploads/upload-refusal';
import { programmeBalances } from '../credit-programmes/programme-ledger.repository';
import { saveEconomicGroup } from '../exposure/exposure.service';
import { currentOperator, operatorRoute } from '../operator/operator-access';
import {
  activateCorporate,
  corporateDetail,
  corporatesPage,
  createCorporate,
  decideOnDocument,
  documentFile,
  type OperatorCorporatesDeps,
  PromotionUnconfirmed,
  reactivateCorporate,
  rejectCorporate,
  suspendCorporate,
  uploadDocument,
} from './operator-corporates.service';

const MULTIPART = 'multipart/form-data';
const CORPORATE_ID = {
  params: { id: { description: 'Id del corporativo (companies.id).' } },
  paramsStruct: CorporateParams,
  paramsNotFound: CORPORATE_MESSAGES.notFound,
} as const;
const DOCUMENT_ID = {
  params: { ...CORPORATE_ID.params, doc: { description: 'Id del documento del expediente.' } },
  paramsStruct: CorporateDocumentParams,
  paramsNotFound: { id: CORPORATE_MESSAGES.notFound, doc: CORPORATE_MESSAGES.documentNotFound },
} as const;
const NOT_FOUND = 'No existe ese corporativo (o ese documento en su expediente).';

const UPLOAD: UploadShape = {
  fileField: 'file',
  fieldNames: ['kind', 'clabe'],
  maxBytes: MAX_CORPORATE_DOCUMENT_BYTES,
};

const DOCS = {
  list: {
    summary: 'The corporates and their onboarding state',
    description:
      'Corporativos del más reciente al más antiguo (id, RFC, nombre, estado del alta); search busca en RFC y ' +
      'nombre, state filtra por estado. Página DRF de 25.',
    query: {
      search: { description: 'Texto a buscar en el RFC o el nombre.' },
      state: {
        description: 'Estado del alta.',
        schema: { type: 'string', enum: [...ONBOARDING_STATES] },
      },
      page: PAGE_PARAM,
      page_size: {
        description: `Corporativos por página (máximo ${MAX_CORPORATES_PAGE_SIZE}).`,
        schema: { type: 'integer', minimum: 1, maximum: MAX_CORPORATES_PAGE_SIZE, default: PAGE_SIZE },
      },
    },
    queryStruct: CorporateListQuery,
    response: CorporatePage,
  },
  detail: {
    summary: "A corporate's company, users, KYB file and programme",
    description:
      'El corporativo: datos, usuarios (has_password falso mientras solo está invitado), el documento vigente ' +
      'de cada tipo con estado, revisor, hash y tamaño (un aprobado vencido se muestra vencido), los tipos que ' +
      'faltan para activar, su programa de crédito (null si no tiene), quién lo dio de alta (created_by_id, ' +
      'created_by; null si es anterior) y el operador que consulta (viewer_id): otro aprobador lo activa.',
    ...CORPORATE_ID,
    response: CorporateDetail,
    responses: { 404: NOT_FOUND },
  },
  create: {
    summary: 'Onboard a corporate (or promote a provider) and invite its first user',
    description:
      'Crea el corporativo en borrador con su primer usuario (sin contraseña) y le envía por correo un enlace ' +
      'de 72 horas para elegirla (el de restablecer contraseña). Si el RFC es de un proveedor, lo convierte en ' +
      'corporativo solo con confirm_promotion: true (si no, 409 {confirm_promotion: [mensaje con el nombre del ' +
      'proveedor]}); conserva su vinculación SAT y sus facturas, y sus usuarios actuales siguen como proveedor ' +
      '(solo el invitado entra como corporativo). El corporativo no tiene acceso como tal hasta que un aprobador ' +
      'distinto de quien lo dio de alta lo activa. Rol: analista.',
    body: CreateCorporateBody,
    response: CorporateCreated,
    status: 201,
    responses: {
      400: 'Campos inválidos ({rfc|name|admin.name|admin.last_name|admin.email: [mensaje]}), o el correo ya tiene cuenta.',
      409:
        `${CORPORATE_MESSAGES.alreadyCorporate} / {confirm_promotion: ` +
        `[${CORPORATE_MESSAGES.confirmPromotion('Proveedora Ejemplo')}]}`,
    },
  },
  upload: {
    summary: 'Upload a document of the KYB file (PDF)',
    description:
      `Multipart con kind (uno de ${CORPORATE_DOCUMENT_KINDS.join(', ')}), file (PDF, máximo ` +
      `${MAX_CORPORATE_DOCUMENT_BYTES / (1024 * 1024)} MB; se revisa el contenido, no el nombre) y, para ` +
      `${CLABE_DOCUMENT_KIND}, clabe (18 dígitos, dígito verificador). Reemplaza al documento vigente de ese ` +
      'tipo (el anterior queda en el historial) y lo deja pendiente. Rol: analista.',
    ...CORPORATE_ID,
    body: {
      type: 'object',
      required: ['kind', 'file'],
      properties: {
        kind: { type: 'string', enum: [...CORPORATE_DOCUMENT_KINDS], description: 'Tipo de documento.' },
        file: { type: 'string', format: 'binary', description: 'El documento en PDF.' },
        clabe: { type: 'string', description: 'CLABE del estado de cuenta (solo para estado_cuenta).' },
      },
    },
    bodyMediaType: MULTIPART,
    response: OnboardingStateAnswer,
    status: 201,
    responses: {
      400: 'Tipo o CLABE inválidos ({kind|clabe: [mensaje]}), o falta el archivo o está vacío ({detail}).',
      404: NOT_FOUND,
      409: CORPORATE_MESSAGES.rejectedFinal,
      413: BULK_UPLOAD_MESSAGES.tooLarge(MAX_CORPORATE_DOCUMENT_BYTES),
      415: `${CORPORATE_MESSAGES.notPdf} (o el cuerpo no es multipart/form-data)`,
    },
  },
  file: {
    summary: 'The PDF of a document of the file',
    description: 'El PDF tal como se subió, para el visor (Content-Disposition inline).',
    ...DOCUMENT_ID,
    responseMediaType: PDF_MEDIA_TYPE,
    responses: { 404: NOT_FOUND },
  },
  decision: {
    summary: 'Approve, reject or expire a document of the file',
    description:
      'aprobado (expires_on opcional), rechazado (reason obligatorio) o vencido (expires_on obligatorio); ' +
      'registra al revisor y la hora. Rol: aprobador.',
    ...DOCUMENT_ID,
    body: DocumentDecisionBody,
    response: DecisionRecorded,
    responses: {
      400: 'Campos inválidos ({status|reason|expires_on: [mensaje]}).',
      404: NOT_FOUND,
      409: CORPORATE_MESSAGES.rejectedFinal,
    },
  },
  economicGroup: {
    summary: "Set the corporate's economic group",
    description:
      'Analista o Aprobador. El grupo económico al que pertenece el corporativo (nombre libre, hasta 120 ' +
      'caracteres; null o vacío lo quita): su exposición se suma con la del grupo y le aplican los topes del grupo.',
    ...CORPORATE_ID,
    body: EconomicGroupBody,
    response: EconomicGroupAnswer,
    responses: { 404: NOT_FOUND },
  },
  activate: {
    summary: 'Activate a corporate whose eight documents are approved',
    description:
      'Activa al corporativo (y autoriza su vinculación SAT si no lo estaba) solo cuando los ocho documentos ' +
      'están aprobados y vigentes; si no, 409 con la lista de los que faltan. Desde entonces, y solo en este ' +
      'estado, sus usuarios invitados tienen acceso como corporativo. Rol: aprobador, distinto del analista que ' +
      'lo dio de alta (403).',
    ...CORPORATE_ID,
    response: OnboardingStateAnswer,
    responses: {
      403: CORPORATE_MESSAGES.selfActivation,
      404: NOT_FOUND,
      409: `${CORPORATE_MESSAGES.notActivatable(['poderes'])} / ${CORPORATE_MESSAGES.alreadyActive}`,
    },
  },
  reject: {
    summary: 'Reject a corporate, with a reason',
    description:
      'Rechaza el alta (borrador o en revisión) con un motivo; su expediente ya no cambia. Rol: aprobador.',
    ...CORPORATE_ID,
    body: RejectCorporateBody,
    response: OnboardingStateAnswer,
    responses: { 404: NOT_FOUND, 409: CORPORATE_MESSAGES.alreadyActive },
  },
  suspend: {
    summary: 'Suspend an active corporate, with a reason',
    description:
      'Suspende a un corporativo activo con un motivo: pierde el acceso como corporativo de inmediato, también ' +
      'en las sesiones abiertas (desde su siguiente llamada). Su expediente se puede corregir. Rol: aprobador.',
    ...CORPORATE_ID,
    body: SuspendCorporateBody,
    response: OnboardingStateAnswer,
    responses: {
      400: `Falta el motivo ({reason: [${CORPORATE_MESSAGES.suspensionReasonRequired}]}).`,
      404: NOT_FOUND,
      409: CORPORATE_MESSAGES.notSuspendable,
    },
  },
  reactivate: {
    summary: 'Reactivate a suspended corporate',
    description:
      'Devuelve el acceso a un corporativo suspendido cuando los ocho documentos están aprobados y vigentes; si ' +
      'no, 409 con la lista de los que faltan. Rol: aprobador.',
    ...CORPORATE_ID,
    response: OnboardingStateAnswer,
    responses: {
      404: NOT_FOUND,
      409: `${CORPORATE_MESSAGES.notReactivatable} / ${CORPORATE_MESSAGES.notActivatable(['poderes'])}`,
    },
  },
} satisfies Record<string, RouteDoc>;

async function readDocumentUpload(request: FastifyRequest) {
  const upload = await readUpload(request, UPLOAD);
  const file = upload.file;
  if (!file) throw new UploadRefusal(400, BULK_UPLOAD_MESSAGES.fileMissing(UPLOAD.fileField));
  if (file.data.length === 0) throw new UploadRefusal(400, BULK_UPLOAD_MESSAGES.empty);
  return { kind: upload.fields.kind, clabe: upload.fields.clabe, file };
}

/** The corporate's programme figures for the detail (the ledger's one home computes them). */
async function programmeOf(db: OperatorCorporatesDeps['db'], corporateId: number) {
  const balances = await programmeBalances(db, corporateId);
  if (!balances) return null;
  return {
    state: balances.state,
    limit: balances.limit,
    reserved: balances.reserved,
    used: balances.used,
    available: balances.available,
    starts_on: balances.startsOn,
    ends_on: balances.endsOn,
  };
}

/**
 * The corporates' back office under /api/operator/ (issue 19, decision 0051): the list, the detail with the
 * KYB file, onboarding, uploads, decisions, activation and rejection. operatorRoute() checks the session, the
 * MFA and each route's roles; the operator plugin audits every call.
 */
export const operatorCorporatesRoutes: FastifyPluginAsync = async (app) => {
  const deps: OperatorCorporatesDeps = {
    db: app.db,
    mailer: app.mailer,
    now: app.clock,
    appBaseUrl: app.appBaseUrl,
    programmeOf,
  };
  const today = () => businessDate(deps.now());
  await app.register(multipart);

  app.get<{ Querystring: CorporateListQuery }>(
    '/corporates/',
    operatorRoute(app, { action: 'Consultar corporativos', doc: DOCS.list }),
    async (request) => {
      const { page_size: pageSize, ...filters } = request.query;
      const query = { ...filters, pageSize };
      const page = await corporatesPage(app.db, query);
      return { count: page.count, ...pageLinks(request, query, page.count), results: page.results };
    },
  );

  app.post<{ Body: CreateCorporateBody }>(
    '/corporates/',
    operatorRoute(app, { roles: ['analista'], action: 'Dar de alta un corporativo', doc: DOCS.create }),
    async (request, reply) => {
      try {
        return reply.status(201).send(await createCorporate(deps, request.body, currentOperator(request).id));
      } catch (error) {
        if (error instanceof PromotionUnconfirmed) return reply.status(409).send(error.body());
        throw error;
      }
    },
  );

  app.get<{ Params: IdParams }>(
    '/corporates/:id/',
    operatorRoute(app, { action: 'Consultar un corporativo', doc: DOCS.detail }),
    async (request) => corporateDetail(deps, request.params.id, currentOperator(request).id, today()),
  );

  app.post<{ Params: IdParams }>(
    '/corporates/:id/documents/',
    operatorRoute(app, {
      roles: ['analista'],
      action: 'Cargar un documento del expediente',
      doc: DOCS.upload,
    }),
    async (request, reply) => {
      const corporateId = request.params.id;
      const upload = await readDocumentUpload(request);
      const operator = currentOperator(request);
      return reply.status(201).send(await uploadDocument(deps, corporateId, upload, operator.id, today()));
    },
  );

  app.get<{ Params: CorporateDocumentParams }>(
    '/corporates/:id/documents/:doc/file/',
    operatorRoute(app, { action: 'Consultar un documento del expediente', doc: DOCS.file }),
    async (request, reply) => {
      const file = await documentFile(app.db, request.params.id, request.params.doc);
      // The name goes in the RFC 5987 form only: it is the uploader's, so never raw in a header.
      return reply
        .type(PDF_MEDIA_TYPE)
        .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(file.file_name)}`)
        .header('cache-control', 'private, no-store')
        .send(Buffer.from(file.content));
    },
  );

  app.post<{ Body: DocumentDecisionBody; Params: CorporateDocumentParams }>(
    '/corporates/:id/documents/:doc/decision/',
    operatorRoute(app, {
      roles: ['aprobador'],
      action: 'Decidir sobre un documento del expediente',
      doc: DOCS.decision,
    }),
    async (request) =>
      decideOnDocument(
        deps,
        request.params.id,
        request.params.doc,
        request.body,
        currentOperator(request).id,
        today(),
      ),
  );

  app.post<{ Body: EconomicGroupBody; Params: IdParams }>(
    '/corporates/:id/economic-group/',
    operatorRoute(app, {
      roles: ['analista', 'aprobador'],
      action: 'Asignar grupo económico a un corporativo',
      doc: DOCS.economicGroup,
    }),
    async (request, reply) => {
      const id = request.params.id;
      const group = request.body.economic_group;
      const outcome = await deps.db.transaction().execute((trx) => saveEconomicGroup(trx, id, group));
      return reply.status(outcome.statusCode).send(outcome.body);
    },
  );

  app.post<{ Params: IdParams }>(
    '/corporates/:id/activate/',
    operatorRoute(app, { roles: ['aprobador'], action: 'Activar un corporativo', doc: DOCS.activate }),
    async (request) => activateCorporate(deps, request.params.id, currentOperator(request).id, today()),
  );

  app.post<{ Body: SuspendCorporateBody; Params: IdParams }>(
    '/corporates/:id/suspend/',
    operatorRoute(app, { roles: ['aprobador'], action: 'Suspender un corporativo', doc: DOCS.suspend }),
    async (request) => suspendCorporate(deps, request.params.id, request.body.reason, today()),
  );

  app.post<{ Params: IdParams }>(
    '/corporates/:id/reactivate/',
    operatorRoute(app, { roles: ['aprobador'], action: 'Reactivar un corporativo', doc: DOCS.reactivate }),
    async (request) => reactivateCorporate(deps, request.params.id, today()),
  );

  app.post<{ Body: RejectCorporateBody; Params: IdParams }>(
    '/corporates/:id/reject/',
    operatorRoute(app, { roles: ['aprobador'], action: 'Rechazar un corporativo', doc: DOCS.reject }),
    async (request) => rejectCorporate(deps, request.params.id, request.body.reason, today()),
  );
};
