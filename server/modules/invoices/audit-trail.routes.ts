import { PassThrough } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import {
  AUDIT_RANGE_MESSAGES,
  AUDIT_TRAIL_EMPTY_HEADER,
  auditTrailFileName,
  MAX_AUDIT_RANGE_DAYS,
} from '../../../src/domain/audit-trail';
import { XLSX_MEDIA_TYPE } from '../../../src/domain/bulk-upload';
import { AuditTrailQuery } from '../../../src/domain/schemas/audit-trail';
import { validateForm } from '../../../src/domain/schemas/validate';
import { FieldErrors } from '../../http/errors';
import type { RouteDoc } from '../../http/openapi';
import { currentUser } from '../auth/authenticate';
import { auditTrailPage } from './audit-trail.repository';
import { writeAuditTrail } from './audit-trail.service';
import { invoiceCaller } from './invoice-access';
import { ACCESS_REFUSED } from './invoice-docs';

type Side = 'provider' | 'corporate';

const PATHS: Record<Side, string> = {
  provider: '/providers/audit-trail/',
  corporate: '/corporates/audit-trail/',
};

const DATE = { type: 'string', format: 'date' } as const;

function doc(side: Side): RouteDoc {
  const which = side === 'provider' ? 'emitidas' : 'recibidas';
  return {
    summary: `XLSX audit trail of the ${side === 'provider' ? 'issued' : 'received'} invoices' events in a date range`,
    description:
      `Bitácora de auditoría de las facturas ${which} por la empresa: una fila por cambio de estado con Folio, ` +
      'UUID, De, A, Actor, Empresa, Motivo, Fecha y hora (centro de México) y el Hash de la cadena. Rango de ' +
      `fechas inclusivo de a lo más ${MAX_AUDIT_RANGE_DAYS} días. La cabecera ${AUDIT_TRAIL_EMPTY_HEADER}: true ` +
      'dice que el rango no tiene eventos (el archivo trae solo los encabezados).',
    query: {
      from: { description: 'Fecha inicial (AAAA-MM-DD), incluida.', schema: DATE, required: true },
      to: { description: 'Fecha final (AAAA-MM-DD), incluida.', schema: DATE, required: true },
    },
    responseMediaType: XLSX_MEDIA_TYPE,
    responses: {
      400: {
        description:
          `Mensajes por campo: ${AUDIT_RANGE_MESSAGES.fromRequired} ${AUDIT_RANGE_MESSAGES.invalid} ` +
          `${AUDIT_RANGE_MESSAGES.toBeforeFrom} ${AUDIT_RANGE_MESSAGES.tooLong}`,
      },
      403: ACCESS_REFUSED,
    },
    ...(side === 'corporate' ? { roles: ['corporate'] as const } : {}),
  };
}

/**
 * The audit trail export (issue 17, decision 0044; mounted at /api/): the provider side covers the invoices the
 * company issued (any company, as the provider statement), the corporate side the invoices it received. The
 * XLSX is streamed as it is written.
 */
export const auditTrailRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock: now } = app;
  for (const side of ['provider', 'corporate'] as const) {
    app.get(
      PATHS[side],
      { preHandler: app.requireUser, config: { openapi: doc(side) } },
      async (request, reply) => {
        const caller = invoiceCaller(currentUser(request), side);
        const query = validateForm(AuditTrailQuery, request.query);
        if (!query.ok) throw new FieldErrors(query.errors);
        const { from, to } = query.value;
        const scope = {
          companyId: caller.companyId,
          side: side === 'provider' ? 'emitter' : 'receiver',
        } as const;
        // Said before the body streams, so a client can tell "nothing in this range" without reading the file.
        const empty = (await auditTrailPage(db, scope, { from, to }, 0, 1)).length === 0;
        const out = new PassThrough();
        writeAuditTrail(db, scope, { from, to }, out, now()).catch((error: unknown) => {
          request.log.error(error, 'audit trail export failed mid-stream');
          out.destroy(error instanceof Error ? error : new Error(String(error)));
        });
        return reply
          .header('content-type', XLSX_MEDIA_TYPE)
          .header('content-disposition', `attachment; filename="${auditTrailFileName(from, to)}"`)
          .header('cache-control', 'no-store')
          .header(AUDIT_TRAIL_EMPTY_HEADER, empty ? 'true' : 'false')
          .send(out);
      },
    );
  }
};
