// `npm test`: every suite CI runs, two at a time on the machine's two cores (decision 0055). Each step's output
// is kept in .tmp/test-logs/<step>.log and printed whole when the step ends, so two steps never interleave;
// then the ten slowest files of each suite, the per-step times against their budgets, and one summary line.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { type FileTime, overBudget, readBudgets, STEPS, type Step, slowestFiles } from './test-times';

/** Steps at a time: TEST_SLOTS (1 runs them one after another), else the machine's cores, at most 2. */
function slots(): number {
  const asked = Number.parseInt(process.env.TEST_SLOTS ?? '', 10);
  return Number.isInteger(asked) && asked >= 1 ? asked : Math.min(2, availableParallelism());
}
const SLOTS = slots();
const LOG_DIR = resolve('.tmp/test-logs');
const TIMES_DIR = resolve('.tmp/test-times');
rmSync(LOG_DIR, { recursive: true, force: true });
rmSync(TIMES_DIR, { recursive: true, force: true });
mkdirSync(LOG_DIR, { recursive: true });
mkdirSync(TIMES_DIR, { recursive: true });

interface Result {
  name: string;
  ok: boolean;
  seconds: number;
}

function run(step: Step): Promise<Result> {
  const log = join(LOG_DIR, `${step.name}.log`);
  const out = createWriteStream(log);
  const started = performance.now();
  console.log(`▶ ${step.name}: ${step.command} (log: ${relative(process.cwd(), log)})`);
  return new Promise((done) => {
    const child = spawn(step.command, {
      shell: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Suites that know TEST_TIMES_FILE (vitest.config.ts, playwright.config.ts) write their per-file times.
      env: { ...process.env, TEST_TIMES_FILE: join(TIMES_DIR, `${step.name}.json`), FORCE_COLOR: '0' },
    });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on('close', (code) => {
      out.end(() => {
        const seconds = (performance.now() - started) / 1000;
        const ok = code === 0;
        console.log(`\n━━━ ${step.name}: ${ok ? 'ok' : 'FAILED'} in ${seconds.toFixed(0)}s ━━━`);
        process.stdout.write(readFileSync(log, 'utf8'));
        console.log(`━━━ end of ${step.name} ━━━\n`);
        done({ name: step.name, ok, seconds });
      });
    });
  });
}

const started = performance.now();
const results = new Map<string, Result>();
const pending = [...STEPS];
const running = new Set<string>();
await new Promise<void>((finished) => {
  const next = (): void => {
    if (pending.length === 0 && running.size === 0) {
      finished();
      return;
    }
    while (running.size < SLOTS) {
      const index = pending.findIndex((step) => (step.after ?? []).every((name) => results.has(name)));
      if (index < 0) break;
      const [step] = pending.splice(index, 1);
      running.add(step!.name);
      void run(step!).then((result) => {
        results.set(result.name, result);
        running.delete(result.name);
        next();
      });
    }
  };
  next();
});
const wall = (performance.now() - started) / 1000;

const ordered = STEPS.map((step) => results.get(step.name)!);
const slowest: Array<[string, FileTime[]]> = ordered.map((r) => [
  r.name,
  slowestFiles(join(TIMES_DIR, `${r.name}.json`)),
]);
for (const [name, files] of slowest) {
  if (files.length === 0) continue;
  console.log(`\nslowest files: ${name}`);
  for (const file of files) console.log(`  ${file.seconds.toFixed(1).padStart(7)}s  ${file.file}`);
}

const budgets = readBudgets();
console.log('\nstep          time   budget');
for (const r of ordered) {
  const budget = budgets[r.name];
  console.log(
    `${r.name.padEnd(13)} ${`${r.seconds.toFixed(0)}s`.padStart(5)}  ${budget ? `${budget}s` : '-'}`,
  );
}
for (const warning of overBudget(ordered, budgets)) console.log(warning);

const failed = ordered.filter((r) => !r.ok);
const parts = ordered.map((r) => `${r.name} ${r.ok ? 'ok' : 'FAILED'} (${r.seconds.toFixed(0)}s)`);
console.log(
  `\n${failed.length === 0 ? 'PASS' : 'FAIL'} in ${wall.toFixed(0)}s on ${SLOTS} slot(s): ${parts.join(', ')}`,
);
process.exit(failed.length === 0 ? 0 : 1);
