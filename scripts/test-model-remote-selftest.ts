// CI's check of `npm run test:model:remote` (decision 0048): starts a real Flujo (server/main.ts) on a fresh
// DATA_DIR without the demo world and with the test-support API enabled, runs the remote model paths against
// it over HTTP, stops it, and exits with the run's status.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startRealServer } from '../test/support/real-server';

const dataDir = mkdtempSync(join(tmpdir(), 'flujo-model-remote-'));
// The same directory vitest.config.ts gives the test run (its fixtures sign CFDI with this authority).
const DEMO_AUTHORITY_DIR = resolve(process.env.DEMO_AUTHORITY_DIR ?? '.tmp/demo-authority');
const token = randomBytes(32).toString('base64url');
const port = process.env.PORT ? Number(process.env.PORT) : undefined;
let status = 1;
const server = await startRealServer({
  dataDir,
  ...(port ? { port } : {}),
  env: {
    TEST_SUPPORT_ROUTES: 'true',
    TEST_SUPPORT_TOKEN: token,
    // No demo world: the run must create everything it uses.
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    // Every path signs in and posts from this one address, as many users behind one proxy would.
    PUBLIC_WRITE_LIMIT_FACTOR: '100',
    // The paths that upload CFDI sign them in the test process: the server trusts the run's demo authority.
    DEMO_AUTHORITY_DIR: DEMO_AUTHORITY_DIR,
  },
});
try {
  console.log(`model-remote self-test: Flujo at ${server.base} (DATA_DIR ${dataDir})`);
  const run = spawnSync('npm', ['run', 'test:model:remote'], {
    stdio: 'inherit',
    // Its coverage records apart from the in-process run's, which `npm test` runs beside it (decision 0055).
    env: {
      ...process.env,
      FLUJO_URL: server.base,
      TEST_SUPPORT_TOKEN: token,
      MODEL_RUN: 'remote',
      DEMO_AUTHORITY_DIR,
    },
  });
  status = run.status ?? 1;
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(status);
