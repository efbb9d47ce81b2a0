import { readFileSync } from 'node:fs';
import { type DatabaseHandle, type Db, openDatabase } from '../../server/db/database';
import type { Database } from '../../server/db/schema';
import { seedDemoOperators } from '../../server/seed/demo-operators';
import { seedDemoWorld } from '../../server/seed/demo-world';
import { testAuthenticity } from './demo-authority';
import { createScratchDatabase } from './scratch-database';
import { TEMPLATE_FILE } from './template-file';
import { TEST_SECRET_KEY } from './test-secrets';

/**
 * A private, migrated database with the demo world for one test file.
 * PGlite: restored from the template the global setup dumped (a fresh initdb costs 4-6 s and ~1 GB).
 * PostgreSQL (TEST_DATABASE_URL): a new database per file on that server, dropped on close.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const template = new Blob([readFileSync(TEMPLATE_FILE)]);
    return openDatabase({ template, migrate: false });
  }
  const scratch = await createScratchDatabase(url, 't');
  const handle = await openDatabase({ databaseUrl: scratch.url });
  await seedDemoWorld(handle.db, testAuthenticity(handle.db));
  await seedDemoOperators(handle.db, TEST_SECRET_KEY);
  return {
    ...handle,
    async close() {
      await handle.close();
      await scratch.drop();
    },
  };
}

/** How many rows a table holds: tests show a refused request wrote nothing, an accepted one one row. */
export async function rowCount(db: Db, table: keyof Database): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
