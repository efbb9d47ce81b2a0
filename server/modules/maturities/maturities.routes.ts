import type { FastifyPluginAsync } from 'fastify';
import {
  CorporateMaturities,
  MATURITY_MESSAGES,
  MAX_MATURITY_RANGE_DAYS,
  MaturitiesQuery,
  MaturitiesReport,
  NEXT_MATURITIES_SHOWN,
} from '../../../src/domain/schemas/maturities';
import { businessDate } from '../../http/business-date';
import { withRoles } from '../../http/openapi';
import { invoiceCallerGuard, requestInvoiceCaller } from '../invoices/invoice-access';
import { ACCESS_REFUSED } from '../invoices/invoice-docs';
import { operatorRoute } from '../operator/operator-access';
import { maturitiesReport, nextMaturities } from './maturities.service';

const MONEY_MXN = 'pesos (MXN) con dos decimales, como texto';

/** GET /api/operator/maturities/ (decision 0066): what falls due in a range, per day and per buyer. */
export const operatorMaturitiesRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Querystring: MaturitiesQuery }>(
    '/maturities/',
    operatorRoute(app, {
      action: 'Consultar vencimientos',
      doc: {
        summary: 'Maturities per day and buyer',
        description:
          'Vencimientos: las facturas adelantadas que vencen entre desde y hasta (días hábiles de la Ciudad de ' +
          'México, inclusive), por día y por corporativo (un lote con su referencia de pago), cada una con lo ' +
          `adelantado, lo cobrado y lo pendiente (valor en pesos menos lo cobrado, nunca negativo), en ${MONEY_MXN}; ` +
          'una factura en USD trae su monto, moneda y tipo de cambio. Subtotales por día y corporativo y total.',
        query: {
          desde: {
            description: 'Primer día del rango (AAAA-MM-DD), inclusive.',
            schema: { type: 'string', format: 'date' },
          },
          hasta: {
            description: `Último día del rango (AAAA-MM-DD), inclusive; como máximo ${MAX_MATURITY_RANGE_DAYS} días.`,
            schema: { type: 'string', format: 'date' },
          },
          corporate_id: { description: 'Solo los vencimientos de este corporativo.' },
        },
        queryStruct: MaturitiesQuery,
        response: MaturitiesReport,
        responses: {
          400: {
            description:
              `Rango inválido por campo, por ejemplo {hasta: ['${MATURITY_MESSAGES.rangeBackwards}']} o ` +
              `{hasta: ['${MATURITY_MESSAGES.rangeTooLong}']}.`,
            schema: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
          },
        },
      },
    }),
    async (request) => {
      const { desde, hasta, corporate_id } = request.query;
      // The struct refuses a missing day; the checks narrow its type.
      if (desde === null || hasta === null) throw new Error('MaturitiesQuery let a missing day through');
      return maturitiesReport(app.db, { from: desde, to: hasta, corporateId: corporate_id });
    },
  );
};

/** GET /api/corporates/maturities/ (decision 0066): the corporate's own next due dates, for its dashboard. */
export const corporateMaturitiesRoutes: FastifyPluginAsync<{ collectionClabe: string }> = async (
  app,
  { collectionClabe },
) => {
  const docs = withRoles(['corporate'], {
    next: {
      summary: "The corporate's next maturities",
      description:
        `Próximos vencimientos del corporativo: sus próximas ${NEXT_MATURITIES_SHOWN} fechas (desde hoy) con algo ` +
        `pendiente de pagar a Flujo, cada una con su referencia de pago, número de facturas y lo pendiente en ${MONEY_MXN}, ` +
        'y la CLABE de cobranza de Flujo. Solo las facturas de las que la empresa es receptora.',
      response: CorporateMaturities,
      responses: { 403: ACCESS_REFUSED },
    },
  });
  app.get(
    '/corporates/maturities/',
    { preHandler: [app.requireUser, invoiceCallerGuard('corporate')], config: { openapi: docs.next } },
    async (request) => {
      const caller = requestInvoiceCaller(request);
      const today = businessDate(app.clock());
      const results = await nextMaturities(app.db, caller.companyId, today, NEXT_MATURITIES_SHOWN);
      return { results, collection_clabe: collectionClabe } satisfies CorporateMaturities;
    },
  );
};
