import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import type { DatabaseHandle } from '../../server/db/database';
import { createTestDatabase } from './test-database';

export interface ApiTestContext {
  app: FastifyInstance;
  database: DatabaseHandle;
  close(): Promise<void>;
}

/** The real app on a private seeded database, called through inject(). */
export async function createApiApp(): Promise<ApiTestContext> {
  const database = await createTestDatabase();
  const app = await buildApp({ database });
  await app.ready();
  return {
    app,
    database,
    async close() {
      await app.close();
      await database.close();
    },
  };
}
