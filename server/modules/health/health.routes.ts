import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../db/database';

export const healthRoutes: FastifyPluginAsync<{ database: DatabaseHandle }> = async (app, { database }) => {
  app.get('/health/', async (_request, reply) => {
    try {
      await sql`select 1`.execute(database.db);
      return { status: 'ok', database: database.kind };
    } catch {
      return reply.status(503).send({ status: 'error', database: database.kind });
    }
  });
};
