// `npm start` runs this before its build: when another Flujo process holds DATA_DIR, the build would
// replace dist/ under that running server before the new process refused to start. Refuse first.
import { resolve } from 'node:path';
import { DataDirLockedError, dataDirOwner } from '../server/db/data-dir-lock';

if (!process.env.DATABASE_URL) {
  const dataDir = resolve(process.env.DATA_DIR || 'data');
  const owner = dataDirOwner(dataDir);
  if (owner !== null) {
    console.error(`Flujo cannot start.\n${new DataDirLockedError(dataDir, owner).message}`);
    process.exit(1);
  }
}
