import type { FastifyPluginAsync } from 'fastify';
import type { DatabaseHandle } from '../../db/database';
import { healthRoutes } from '../health/health.routes';

/** The invoices service (mounted at /api/): health now; provider, corporate and factoring calls follow. */
export const invoicesService: FastifyPluginAsync<{ database: DatabaseHandle }> = async (
  app,
  { database },
) => {
  await app.register(healthRoutes, { database });
};
