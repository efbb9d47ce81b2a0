import type { FastifyInstance } from 'fastify';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { buildApp } from '../../../server/app';
import type { DatabaseHandle } from '../../../server/db/database';
import { testConfig } from '../../support/api-app';
import { forwardToApp } from '../../support/msw-app';
import { createTestDatabase } from '../../support/test-database';

/** The origin the DOM tests run under (vitest environmentOptions); relative API URLs resolve against it. */
export const TEST_ORIGIN = 'http://localhost:8080';

let current: { app: FastifyInstance; database: DatabaseHandle } | null = null;

/** The real app behind MSW's default handler, one per test file. */
export function testApp(): { app: FastifyInstance; database: DatabaseHandle } {
  if (!current) throw new Error('test app not started (is test/model/harness/setup.ts a setup file?)');
  return current;
}

const defaultHandler = http.all(`${TEST_ORIGIN}/api/*`, ({ request }) =>
  forwardToApp(testApp().app, request),
);

export const mswServer = setupServer(defaultHandler);

export async function startTestApp(): Promise<void> {
  const database = await createTestDatabase();
  // Every request comes from inject's one address; testConfig raises the public forms' limits for that.
  const app = await buildApp({ database, config: testConfig() });
  await app.ready();
  current = { app, database };
}

export async function stopTestApp(): Promise<void> {
  if (!current) return;
  await current.app.close();
  await current.database.close();
  current = null;
}
