import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { openDatabase } from '../../server/db/database';
import { seedDemoOperators } from '../../server/seed/demo-operators';
import { seedDemoWorld } from '../../server/seed/demo-world';
import { testAuthenticity } from './demo-authority';
import { TEMPLATE_FILE } from './template-file';
import { TEST_SECRET_KEY } from './test-secrets';

/**
 * Once per run: migrate and seed one in-memory PGlite, then dump it for every test file to restore. Not needed
 * against PostgreSQL (TEST_DATABASE_URL) nor in a remote model run (FLUJO_URL: no database in this process).
 */
export default async function setup(): Promise<void> {
  if (process.env.TEST_DATABASE_URL || process.env.FLUJO_URL?.trim()) return;
  const handle = await openDatabase({});
  try {
    await seedDemoWorld(handle.db, testAuthenticity(handle.db));
    await seedDemoOperators(handle.db, TEST_SECRET_KEY);
    if (!handle.dump) throw new Error('PGlite handle cannot dump');
    const tarball = await handle.dump();
    mkdirSync(dirname(TEMPLATE_FILE), { recursive: true });
    // Written aside and renamed into place: `npm test` runs suites side by side, and a file restoring the
    // template of one must never read it half written by another's setup.
    const partial = `${TEMPLATE_FILE}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await tarball.arrayBuffer()));
    renameSync(partial, TEMPLATE_FILE);
  } finally {
    await handle.close();
  }
}
