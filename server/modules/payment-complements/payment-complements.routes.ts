import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { PAYMENT_COMPLEMENT_MESSAGES } from '../../../src/domain/payment-complements';
import {
  PaymentComplementRefusal,
  PaymentComplementUploadResult,
} from '../../../src/domain/schemas/payment-complements';
import { MAX_XML_BYTES } from '../../cfdi/safe-xml';
import type { RouteDoc } from '../../http/openapi';
import { structToJsonSchema } from '../../http/struct-schema';
import { readUpload, requireFile, type UploadShape } from '../../uploads/upload-file';
import { currentUser } from '../auth/authenticate';
import { invoiceCaller } from '../invoices/invoice-access';
import { ACCESS_REFUSED } from '../invoices/invoice-docs';
import { importPaymentComplement } from './payment-complements.service';

const XML_MEDIA_TYPES = ['application/xml', 'text/xml'] as const;
const UPLOAD_PATH = '/providers/payment-complements/';

// Any signed-in company with an authorized SAT link: the REP's issuer must be the caller's company.
const DOCS = {
  upload: {
    summary: "Upload a payment CFDI (REP, type P) for the supplier's collected invoices",
    description:
      'Multipart con el campo file: el XML de un CFDI 4.0 tipo P con el complemento Pagos 2.0 que la empresa ' +
      'emitió (máximo 2 MB). Se prueba como una factura: sello y certificado, lista 69-B y estado en el SAT. El ' +
      'emisor debe ser la empresa que sube el archivo y el receptor un corporativo; cada DoctoRelacionado debe ser ' +
      'una factura que esa empresa emitió a ese corporativo, y queda vinculada. El mismo archivo otra vez → ' +
      'status unchanged, sin cambios. Un rechazo → 400 {detail, reasons} con un motivo por revisión o documento, ' +
      'y no se escribe nada.',
    body: {
      type: 'object',
      required: ['file'],
      properties: {
        file: { type: 'string', format: 'binary', description: 'El XML del REP (CFDI 4.0 tipo P).' },
      },
    },
    bodyMediaType: 'multipart/form-data',
    response: PaymentComplementUploadResult,
    responses: {
      400: {
        description: `${PAYMENT_COMPLEMENT_MESSAGES.refused} Un motivo por revisión o documento relacionado.`,
        schema: structToJsonSchema(PaymentComplementRefusal),
      },
      403: ACCESS_REFUSED,
      413: 'El archivo excede el tamaño máximo de 2 MB.',
      415: PAYMENT_COMPLEMENT_MESSAGES.notXml,
    },
  },
} satisfies Record<string, RouteDoc>;

/**
 * A supplier's REP upload (issue 34, decision 0070; mounted at /api/). Its own multipart scope, as the bulk
 * uploads have theirs: no other route accepts multipart bodies through this registration.
 */
export const paymentComplementsRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app;
  await app.register(multipart, {
    limits: { fileSize: MAX_XML_BYTES, files: 1, fields: 2, fieldSize: 1024, parts: 3, headerPairs: 20 },
  });
  const shape: UploadShape = { fileField: 'file', fieldNames: [], maxBytes: MAX_XML_BYTES };

  app.post(
    UPLOAD_PATH,
    { preHandler: app.requireUser, config: { openapi: DOCS.upload } },
    async (request, reply) => {
      const caller = invoiceCaller(currentUser(request), 'provider');
      const upload = await readUpload(request, shape);
      const file = requireFile(upload, shape, {
        mediaTypes: XML_MEDIA_TYPES,
        extension: 'xml',
        // The parser refuses whatever is not a CFDI with its own reason; here only what is plainly no XML.
        magic: looksLikeXml,
        wrongKind: PAYMENT_COMPLEMENT_MESSAGES.notXml,
      });
      const imported = await importPaymentComplement(
        db,
        { name: file.fileName, content: new Uint8Array(file.data) },
        { authenticity: app.authenticity, uploaderCompanyId: caller.companyId, actorLabel: caller.username },
      );
      if (!imported.ok)
        return reply
          .status(400)
          .send({ detail: PAYMENT_COMPLEMENT_MESSAGES.refused, reasons: imported.reasons });
      return imported.result;
    },
  );
};

const BOM = [0xef, 0xbb, 0xbf];

function looksLikeXml(data: Uint8Array): boolean {
  let index = BOM.every((byte, at) => data[at] === byte) ? BOM.length : 0;
  while (index < data.length && [0x20, 0x09, 0x0a, 0x0d].includes(data[index] as number)) index += 1;
  return data[index] === 0x3c; // '<'
}
