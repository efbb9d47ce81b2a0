import type { FastifyPluginAsync } from 'fastify';
import { pingDatabase } from '../../db/database';
import type { RouteDoc } from '../../http/openapi';

const HEALTH = {
  type: 'object',
  properties: { status: { enum: ['ok', 'error'] }, database: { enum: ['pglite', 'postgresql'] } },
  required: ['status', 'database'],
};
const HEALTH_DOC: RouteDoc = {
  summary: 'Health check',
  description: 'Estado del servidor y de su base de datos (pglite o postgresql).',
  response: HEALTH,
  responses: { 503: { description: 'La base de datos no responde (status "error").', schema: HEALTH } },
};

export const healthRoutes: FastifyPluginAsync = async (app) => {
  const { database } = app;
  app.get('/health/', { config: { openapi: HEALTH_DOC } }, async (_request, reply) => {
    try {
      await pingDatabase(database.db);
      return { status: 'ok', database: database.kind };
    } catch {
      return reply.status(503).send({ status: 'error', database: database.kind });
    }
  });
};
