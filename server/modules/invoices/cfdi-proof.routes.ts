import type { FastifyPluginAsync } from 'fastify';
import { satAnswerSummary } from '../../../src/domain/cfdi-proof';
import { CfdiProof } from '../../../src/domain/schemas/cfdi-proof';
import type { IdParams } from '../../../src/domain/schemas/fields';
import { cfdiProofLabel } from '../../../src/machines/cfdi-proof.machine';
import type { Db } from '../../db/database';
import type { RouteDoc } from '../../http/openapi';
import {
  ACCESS_MESSAGES,
  InvoiceRequestError,
  invoiceCallerGuard,
  requestInvoiceCaller,
} from './invoice-access';
import { ACCESS_REFUSED, INVOICE_PATH, NOT_FOUND } from './invoice-docs';
import { repStatusOf } from './rep-status';

/** Why Flujo trusts an invoice's CFDI, for its emitter or its receiver only (anyone else: 404). */
export async function invoiceProof(db: Db, invoiceId: number, companyId: number): Promise<CfdiProof> {
  const invoice = await db
    .selectFrom('invoices')
    .select(['proof_state', 'cfdi_proof'])
    .where('id', '=', invoiceId)
    .where((eb) =>
      eb.or([eb('emitter_company_id', '=', companyId), eb('receiver_company_id', '=', companyId)]),
    )
    .executeTakeFirst();
  if (!invoice) throw new InvoiceRequestError(404, ACCESS_MESSAGES.invoiceNotFound);
  const checks = await db
    .selectFrom('cfdi_sat_checks')
    .select(['asked_at', 'answered', 'estado', 'es_cancelable', 'estatus_cancelacion', 'validacion_efos'])
    .where('invoice_id', '=', invoiceId)
    .orderBy('id')
    .execute();
  const seal = invoice.cfdi_proof;
  const paymentComplement = await repStatusOf(db, invoiceId);
  return {
    state: invoice.proof_state,
    state_label: cfdiProofLabel(invoice.proof_state),
    seal: seal && {
      certificate_number: seal.certificateNumber,
      holder_rfc: seal.holderRfc,
      holder_name: seal.holderName,
      issuer: seal.issuer,
      valid_from: seal.validFrom,
      valid_until: seal.validUntil,
      sat_seal_verified: seal.satSealVerified,
    },
    sat_answers: checks.map((check) => {
      const answer = { ...check, asked_at: new Date(check.asked_at).toISOString() };
      return { ...answer, summary: satAnswerSummary(answer) };
    }),
    payment_complement: paymentComplement,
  };
}

const PROOF_DOC: RouteDoc = {
  summary: "Why an invoice's CFDI is trusted",
  description:
    'Prueba de autenticidad del CFDI: el sello y el certificado verificados al importarlo (número, titular, ' +
    'autoridad que lo emitió, vigencia), cada respuesta del servicio de estado del SAT con su hora y, una vez ' +
    'cobrada, el complemento de pago (REP recibido con su folio fiscal y fecha, o REP pendiente); solo para ' +
    'su emisor o su receptor.',
  ...INVOICE_PATH,
  response: CfdiProof,
  responses: { 403: ACCESS_REFUSED, 404: NOT_FOUND },
};

export const cfdiProofRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app;
  app.get<{ Params: IdParams }>(
    '/invoices/:id/proof/',
    { preHandler: [app.requireUser, invoiceCallerGuard('any')], config: { openapi: PROOF_DOC } },
    async (request) => invoiceProof(db, request.params.id, requestInvoiceCaller(request).companyId),
  );
};
