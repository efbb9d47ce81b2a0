import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// `npm test` (scripts/test-all.ts) asks for each run's per-file times in this file, to print the slowest.
const timesFile = process.env.TEST_TIMES_FILE;
// One demo certificate authority for the run: fixtures sign with it and every app and server started trusts it.
process.env.DEMO_AUTHORITY_DIR ??= resolve('.tmp/demo-authority');

// Four suites, run separately by `npm test` so each prints its own result.
export default defineConfig({
  plugins: [react()],
  test: {
    reporters: timesFile ? ['default', ['json', { outputFile: timesFile }]] : ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: [
            'src/**/*.test.ts',
            'server/**/*.test.ts',
            'test/unit/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'model',
          environment: 'happy-dom',
          // Relative API URLs resolve against this origin, where MSW's default handler listens.
          environmentOptions: { happyDOM: { url: 'http://localhost:8080' } },
          include: ['test/model/**/*.model.test.tsx'],
          setupFiles: ['test/model/harness/setup.ts'],
          globalSetup: [
            'test/support/pglite-template.global.ts',
            'test/model/harness/coverage-report.global.ts',
          ],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          // Screen tests: a page's own behaviour (guards, field checks, lists), not a machine's generated paths.
          // Same app behind MSW as the model project, without its coverage report.
          name: 'screens',
          environment: 'happy-dom',
          environmentOptions: { happyDOM: { url: 'http://localhost:8080' } },
          include: ['test/screens/**/*.test.tsx'],
          setupFiles: ['test/model/harness/setup.ts'],
          globalSetup: ['test/support/pglite-template.global.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          environment: 'node',
          include: ['test/api/**/*.test.ts'],
          globalSetup: ['test/support/pglite-template.global.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
