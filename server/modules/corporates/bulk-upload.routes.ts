import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import {
  BULK_UPLOAD_MESSAGES,
  MAX_TEMPLATE_ROWS,
  MAX_ZIP_ENTRIES,
  templateFileName,
  XLSX_MEDIA_TYPE,
  XLSX_MEDIA_TYPES,
  ZIP_MEDIA_TYPES,
} from '../../../src/domain/bulk-upload';
import { paymentDateNotAfterToday } from '../../../src/domain/payment-date';
import {
  TemplateUploadResult,
  ZipBulkUploadResponse,
  ZipUploadForm,
  ZipUploadRefusal,
} from '../../../src/domain/schemas/corporates';
import { validateForm } from '../../../src/domain/schemas/validate';
import { businessDate } from '../../http/business-date';
import { FieldErrors } from '../../http/errors';
import { type RouteDoc, withRoles } from '../../http/openapi';
import { structToJsonSchema } from '../../http/struct-schema';
import { looksLikeZip } from '../../uploads/safe-zip';
import { readUpload, requireFile, type UploadShape } from '../../uploads/upload-file';
import { currentUser } from '../auth/authenticate';
import { invoiceCaller } from '../invoices/invoice-access';
import { ACCESS_REFUSED } from '../invoices/invoice-docs';
import {
  buildTemplate,
  processZipUpload,
  readTemplateUpload,
  ZipEntriesRefused,
} from './bulk-upload.service';

export interface BulkUploadOptions {
  /** Largest accepted file (UPLOAD_MAX_MB), bytes. */
  maxBytes: number;
}

const MULTIPART = 'multipart/form-data';
const REFUSED_FILE = {
  413: 'El archivo excede el tamaño máximo (UPLOAD_MAX_MB, 20 MB por omisión).',
  415: 'No es un archivo del tipo esperado (tipo MIME, extensión o contenido), o el cuerpo no es multipart/form-data.',
};

function docs(maxBytes: number) {
  const megabytes = Math.round(maxBytes / (1024 * 1024));
  return {
    template: {
      summary: 'The XLSX template of the invoices the corporate may pre-authorize',
      description:
        `Libro de Excel con una fila por factura recibida que el ciclo de vida permite pre-autorizar (máximo ${MAX_TEMPLATE_ROWS.toLocaleString('en-US')}, ` +
        'emisión más reciente primero): folio fiscal, Serie-Folio, RFC y nombre del proveedor, fecha de emisión, moneda, ' +
        'monto y la columna «Fecha de pago» (validación: de la emisión a 150 días después). Encabezados en español, fila fija.',
      responseMediaType: XLSX_MEDIA_TYPE,
      responses: { 403: ACCESS_REFUSED },
    },
    excel: {
      summary: 'Upload the filled template: the rows to quote, or every row error',
      description:
        `Multipart con el campo file (.xlsx, máximo ${megabytes} MB). Se lee como datos (sin evaluar fórmulas); cada fila con ` +
        'fecha de pago se revisa: factura recibida, pre-autorizable, fecha válida, posterior a hoy y a 150 días o menos de la ' +
        'emisión. Con validation_errors no vacío, processed_invoices viene vacío. No cambia ninguna factura. Es también la carga ' +
        'de plantilla de la cotización (spec §7).',
      body: {
        type: 'object',
        required: ['file'],
        properties: {
          file: { type: 'string', format: 'binary', description: 'La plantilla llena (.xlsx).' },
        },
      },
      bodyMediaType: MULTIPART,
      response: TemplateUploadResult,
      responses: {
        400: 'Archivo vacío, dañado, con demasiadas filas o que no es la plantilla.',
        403: ACCESS_REFUSED,
        ...REFUSED_FILE,
      },
    },
    zip: {
      summary: 'Upload a ZIP of CFDI XML: the invoices to quote with one payment date',
      description:
        `Multipart con zip_file (.zip, máximo ${megabytes} MB y ${MAX_ZIP_ENTRIES.toLocaleString('en-US')} archivos) y payment_date ` +
        '(YYYY-MM-DD). Cada XML se lee con el importador de CFDI (timbrado, receptor = tu empresa, emisor con alianza activa); ' +
        'los que aún no están en Flujo se importan en una sola transacción. Un archivo con error → 400 que nombra cada archivo ' +
        'con su motivo y no se importa nada. No cambia el estado de ninguna factura.',
      body: {
        type: 'object',
        required: ['zip_file', 'payment_date'],
        properties: {
          zip_file: { type: 'string', format: 'binary', description: 'ZIP con los XML (CFDI 4.0).' },
          payment_date: {
            type: 'string',
            format: 'date',
            description: 'Fecha de pago de todas las facturas del ZIP, YYYY-MM-DD.',
          },
        },
      },
      bodyMediaType: MULTIPART,
      response: ZipBulkUploadResponse,
      responses: {
        400: {
          description:
            'Archivos con error ({detail, files: [{name, reason}]}), o un ZIP rechazado entero ({detail}), o la fecha ({payment_date: [mensaje]}).',
          schema: {
            oneOf: [
              structToJsonSchema(ZipUploadRefusal),
              { $ref: '#/components/schemas/Detail' },
              { $ref: '#/components/schemas/FieldErrors' },
            ],
          },
        },
        403: ACCESS_REFUSED,
        ...REFUSED_FILE,
      },
    },
  } satisfies Record<string, RouteDoc>;
}

/**
 * Bulk authorization by file (issue 14, mounted at /api/): the XLSX template, its upload, and a ZIP of CFDI XML.
 * Signed-in corporates with an authorized SAT link only (403 otherwise, 401 without a session). The multipart
 * parser lives in this plugin alone, so no other route accepts multipart bodies.
 */
export const bulkUploadRoutes: FastifyPluginAsync<BulkUploadOptions> = async (app, { maxBytes }) => {
  const { db, clock: now } = app;
  const DOCS = withRoles(['corporate'], docs(maxBytes));
  await app.register(multipart, {
    limits: { fileSize: maxBytes, files: 1, fields: 4, fieldSize: 1024, parts: 6, headerPairs: 20 },
  });
  const excelShape: UploadShape = { fileField: 'file', fieldNames: [], maxBytes };
  const zipShape: UploadShape = { fileField: 'zip_file', fieldNames: ['payment_date'], maxBytes };

  app.get(
    '/corporates/template/',
    { preHandler: app.requireUser, config: { openapi: DOCS.template } },
    async (request, reply) => {
      const caller = invoiceCaller(currentUser(request), 'corporate');
      const file = await buildTemplate(db, caller);
      return reply
        .header('content-type', XLSX_MEDIA_TYPE)
        .header('content-disposition', `attachment; filename="${templateFileName(businessDate(now()))}"`)
        .header('cache-control', 'no-store')
        .send(file);
    },
  );

  app.post(
    '/corporates/upload/excel/',
    { preHandler: app.requireUser, config: { openapi: DOCS.excel } },
    async (request) => {
      const caller = invoiceCaller(currentUser(request), 'corporate');
      const upload = await readUpload(request, excelShape);
      const file = requireFile(upload, excelShape, {
        mediaTypes: XLSX_MEDIA_TYPES,
        extension: 'xlsx',
        magic: looksLikeZip,
        wrongKind: BULK_UPLOAD_MESSAGES.notXlsx,
      });
      return readTemplateUpload(db, caller, file.data, businessDate(now()));
    },
  );

  app.post(
    '/corporates/upload/zip/',
    { preHandler: app.requireUser, config: { openapi: DOCS.zip } },
    async (request, reply) => {
      const caller = invoiceCaller(currentUser(request), 'corporate');
      const upload = await readUpload(request, zipShape);
      const file = requireFile(upload, zipShape, {
        mediaTypes: ZIP_MEDIA_TYPES,
        extension: 'zip',
        magic: looksLikeZip,
        wrongKind: BULK_UPLOAD_MESSAGES.notZip,
      });
      const form = validateForm(ZipUploadForm, upload.fields);
      if (!form.ok) throw new FieldErrors(form.errors);
      const today = businessDate(now());
      const paymentDate = form.value.payment_date;
      const notAfterToday = paymentDateNotAfterToday(paymentDate, today);
      if (notAfterToday) throw new FieldErrors({ payment_date: [notAfterToday] });
      try {
        return await processZipUpload(db, app.authenticity, caller, file.data, paymentDate, today);
      } catch (error) {
        if (error instanceof ZipEntriesRefused) return reply.status(400).send(error.body());
        throw error;
      }
    },
  );
};
