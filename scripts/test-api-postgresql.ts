// `TEST_DATABASE_URL=postgres://… npm run test:api:postgresql`: the API files whose behaviour depends on the
// database engine, on PostgreSQL (decision 0055). A file says so on its first line, `// @postgresql: <why>`;
// every other API file runs once, on PGlite, in `npm test`, since the app's SQL is the same on both engines.
import { spawnSync } from 'node:child_process';
import { postgresqlFiles } from './test-api-files';

if (!process.env.TEST_DATABASE_URL?.trim()) {
  console.error('test:api:postgresql: set TEST_DATABASE_URL to a PostgreSQL database (.ci/run starts one)');
  process.exit(2);
}
const files = postgresqlFiles();
console.log(`API files on PostgreSQL (${files.length}, tagged @postgresql):`);
for (const { file, why } of files) console.log(`  ${file}: ${why}`);
// Three files at a time: each has a database of its own (test/support/scratch-database.ts), and most of their
// time is spent waiting on PostgreSQL and on the servers they start, so this step takes about 90 s instead of 160.
const run = spawnSync(
  'npx',
  ['vitest', 'run', '--project', 'api', '--maxWorkers=3', ...files.map((f) => f.file)],
  {
    stdio: 'inherit',
  },
);
process.exit(run.status ?? 1);
