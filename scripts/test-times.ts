// The steps of `npm test`, the per-file times the suites write (TEST_TIMES_FILE, set by scripts/test-all.ts)
// and the step budgets of scripts/test-budgets.json: where the minutes go, and a warning when a step outgrows
// its own.
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';

export interface Step {
  name: string;
  command: string;
  /** Steps that must have finished first (the build, before any step that starts server/main.ts). */
  after?: string[];
}

// Order is priority, longest first, so the short steps fill in at the end (decision 0055): build → e2e on one
// core, the model run on the other, then the rest. Steps side by side share no port (every server takes a free
// one) and no data directory (each takes its own; the two model runs keep their records apart by MODEL_RUN).
// Steps that start the real server/main.ts, which reads dist/ at start, wait for the build so they never see
// it half written; every step that needs the client reuses that one build.
export const STEPS: Step[] = [
  { name: 'build', command: 'npm run build' },
  { name: 'e2e', command: 'npm run test:e2e', after: ['build'] },
  { name: 'model', command: 'npm run test:model -- --report' },
  // Before model-remote: the api step is the longest after e2e and model, and started last it ran alone at the
  // end while the other slot sat idle (about 150 s of 1,311 in CI on 2026-11-29).
  { name: 'api', command: 'npm run test:api', after: ['build'] },
  // The same model paths against a real server process over HTTP, with accounts the run creates (decision 0048).
  { name: 'model-remote', command: 'npm run test:model:remote:selftest', after: ['build'] },
  { name: 'screens', command: 'npm run test:screens' },
  { name: 'unit', command: 'npm run test:unit' },
  { name: 'typecheck', command: 'npm run typecheck' },
  { name: 'lint', command: 'npm run lint' },
  { name: 'diagrams', command: 'npm run diagrams:check' },
];

export const BUDGETS_FILE = resolve(import.meta.dirname, 'test-budgets.json');

export interface FileTime {
  file: string;
  seconds: number;
}

/** Step name → seconds it may take in `npm test` on the 2-core build machine. */
export function readBudgets(file = BUDGETS_FILE): Record<string, number> {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { steps: Record<string, number> };
  return parsed.steps;
}

/** One warning line per step that took longer than its budget (a step without a budget is never over). */
export function overBudget(
  results: ReadonlyArray<{ name: string; seconds: number }>,
  budgets: Readonly<Record<string, number>>,
): string[] {
  return results
    .filter((r) => budgets[r.name] !== undefined && r.seconds > budgets[r.name]!)
    .map(
      (r) =>
        `WARNING: step ${r.name} took ${r.seconds.toFixed(0)}s, over its budget of ${budgets[r.name]}s (scripts/test-budgets.json)`,
    );
}

interface VitestJson {
  testResults: Array<{ name: string; startTime: number; endTime: number }>;
}

interface PlaywrightSuite {
  file?: string;
  suites?: PlaywrightSuite[];
  specs?: Array<{ file?: string; tests: Array<{ results: Array<{ duration: number }> }> }>;
}

/**
 * Per spec file: each top-level suite is one loaded file, and its nested specs count for it even when their
 * test() call sits in a shared helper (the generated paths are declared in e2e/generated-paths.ts).
 */
function playwrightTimes(suites: readonly PlaywrightSuite[], into: Map<string, number>, file?: string): void {
  for (const suite of suites) {
    const owner = file ?? suite.file ?? '?';
    for (const spec of suite.specs ?? []) {
      const ms = spec.tests.flatMap((t) => t.results).reduce((sum, r) => sum + r.duration, 0);
      into.set(owner, (into.get(owner) ?? 0) + ms);
    }
    playwrightTimes(suite.suites ?? [], into, owner);
  }
}

/** Per-file seconds from a vitest `json` or a Playwright `json` report; the slowest `count`, slowest first. */
export function fileTimes(report: unknown): FileTime[] {
  const times = new Map<string, number>();
  if (report && typeof report === 'object' && 'testResults' in report) {
    for (const result of (report as VitestJson).testResults) {
      times.set(relative(process.cwd(), result.name), result.endTime - result.startTime);
    }
  } else if (report && typeof report === 'object' && 'suites' in report) {
    const { suites, config } = report as { suites: PlaywrightSuite[]; config?: { rootDir?: string } };
    const byFile = new Map<string, number>();
    playwrightTimes(suites, byFile);
    // Playwright names files from its testDir; shown from the checkout like vitest's.
    for (const [file, ms] of byFile)
      times.set(relative(process.cwd(), resolve(config?.rootDir ?? '', file)), ms);
  }
  return [...times]
    .map(([file, ms]) => ({ file, seconds: ms / 1000 }))
    .sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file));
}

/** None when the suite wrote no report (it failed before its end): the step's own log says why. */
export function slowestFiles(file: string, count = 10): FileTime[] {
  if (!existsSync(file)) return [];
  try {
    return fileTimes(JSON.parse(readFileSync(file, 'utf8'))).slice(0, count);
  } catch {
    return [];
  }
}
