// `npm test`: every suite CI runs, in order, each with its own output, then one summary line.
import { spawnSync } from 'node:child_process';

const STEPS: { name: string; command: string }[] = [
  { name: 'lint', command: 'npm run lint' },
  { name: 'typecheck', command: 'npm run typecheck' },
  { name: 'diagrams', command: 'npm run diagrams:check' },
  { name: 'unit', command: 'npm run test:unit' },
  { name: 'model', command: 'npm run test:model -- --report' },
  // The same model paths against a real server process over HTTP, with accounts the run creates (decision 0048).
  { name: 'model-remote', command: 'npm run test:model:remote:selftest' },
  { name: 'screens', command: 'npm run test:screens' },
  { name: 'api', command: 'npm run test:api' },
  { name: 'build', command: 'npm run build' },
  { name: 'e2e', command: 'npm run test:e2e' },
];

const results: { name: string; ok: boolean; seconds: number }[] = [];
for (const step of STEPS) {
  console.log(`\n▶ ${step.name}: ${step.command}`);
  const started = performance.now();
  const run = spawnSync(step.command, { shell: true, stdio: 'inherit' });
  results.push({ name: step.name, ok: run.status === 0, seconds: (performance.now() - started) / 1000 });
}

const failed = results.filter((r) => !r.ok);
const parts = results.map((r) => `${r.name} ${r.ok ? 'ok' : 'FAILED'} (${r.seconds.toFixed(0)}s)`);
console.log(`\n${failed.length === 0 ? 'PASS' : 'FAIL'}: ${parts.join(', ')}`);
process.exit(failed.length === 0 ? 0 : 1);
