import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/database';
import type { Mailer } from '../../mail/mailer';
import type { Clock } from '../auth/clock';
import { corporatesRoutes } from '../corporates/corporates.routes';
import { providersRoutes } from '../providers/providers.routes';
import { invoiceEventsRoutes } from './invoice-events.routes';

export interface ProntoPagoOptions {
  db: Db;
  mailer: Mailer;
  appBaseUrl: string;
  now: Clock;
}

/**
 * The pronto-pago calls of the invoices service (mounted at /api/): provider list, request, quote and
 * advance; the corporate's requests; every invoice's audit trail.
 */
export const prontoPagoRoutes: FastifyPluginAsync<ProntoPagoOptions> = async (app, options) => {
  // Only what the routes need: the options Fastify hands over also carry this plugin's own prefix.
  const { db, mailer, appBaseUrl, now } = options;
  await app.register(providersRoutes, { db, mailer, appBaseUrl, now });
  await app.register(corporatesRoutes, { db, mailer, appBaseUrl, now });
  await app.register(invoiceEventsRoutes, { db });
};
