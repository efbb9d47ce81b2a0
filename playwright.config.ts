import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/chromium';

const PORT = Number(process.env.E2E_PORT ?? 8181);
// One demo certificate authority for the run: fixtures sign with it and every app and server started trusts it.
process.env.DEMO_AUTHORITY_DIR ??= resolve('.tmp/demo-authority');

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  // Round trips to the real server (argon2, the CAPTCHA's proof of work) slow down on a loaded machine; the
  // 5 s default leaves little room there. Tests never assert on elapsed time.
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  // `npm test` (scripts/test-all.ts) asks for the per-file times in TEST_TIMES_FILE, to print the slowest.
  reporter: process.env.TEST_TIMES_FILE
    ? [['list'], ['json', { outputFile: process.env.TEST_TIMES_FILE }]]
    : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS],
    },
  },
  webServer: {
    // The real server on a throwaway data directory (the built SPA comes from `npm run build`).
    command: `node scripts/e2e-server.mjs ${PORT}`,
    url: `http://127.0.0.1:${PORT}/api/health/`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
  },
});
