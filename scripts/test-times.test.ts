import { describe, expect, it } from 'vitest';
import { fileTimes, overBudget, readBudgets, STEPS } from './test-times';

describe('npm test times', () => {
  it('reads per-file times from a vitest json report, slowest first', () => {
    const report = {
      testResults: [
        { name: `${process.cwd()}/test/api/a.test.ts`, startTime: 1000, endTime: 3500 },
        { name: `${process.cwd()}/test/api/b.test.ts`, startTime: 1000, endTime: 9000 },
      ],
    };
    expect(fileTimes(report)).toEqual([
      { file: 'test/api/b.test.ts', seconds: 8 },
      { file: 'test/api/a.test.ts', seconds: 2.5 },
    ]);
  });

  it('sums a Playwright json report per loaded spec file, nested describes, shared helpers and retries included', () => {
    const report = {
      config: { rootDir: `${process.cwd()}/e2e` },
      suites: [
        {
          file: 'smoke.spec.ts',
          specs: [{ file: 'smoke.spec.ts', tests: [{ results: [{ duration: 1500 }] }] }],
          suites: [
            {
              file: 'smoke.spec.ts',
              specs: [
                { file: 'smoke.spec.ts', tests: [{ results: [{ duration: 500 }, { duration: 1000 }] }] },
              ],
            },
          ],
        },
        {
          file: 'public.spec.ts',
          specs: [{ file: 'public.spec.ts', tests: [{ results: [{ duration: 4000 }] }] }],
        },
      ],
    };
    expect(fileTimes(report)).toEqual([
      { file: 'e2e/public.spec.ts', seconds: 4 },
      { file: 'e2e/smoke.spec.ts', seconds: 3 },
    ]);
  });

  it('warns for a step over its budget, never for one within it or without one', () => {
    const budgets = { e2e: 600, unit: 60 };
    expect(
      overBudget(
        [
          { name: 'e2e', seconds: 612.4 },
          { name: 'unit', seconds: 60 },
          { name: 'lint', seconds: 999 },
        ],
        budgets,
      ),
    ).toEqual(['WARNING: step e2e took 612s, over its budget of 600s (scripts/test-budgets.json)']);
  });

  it('has a budget for every step of npm test', () => {
    expect(Object.keys(readBudgets()).sort()).toEqual(STEPS.map((step) => step.name).sort());
  });
});
