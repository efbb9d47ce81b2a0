// `FLUJO_URL=http://host:port TEST_SUPPORT_TOKEN=… npm run test:model:remote`: the generated model paths against
// a running Flujo over HTTP (decision 0048). Checks that the server answers and has its test-support API
// enabled with this token, says which models stay in process and why, then runs vitest's model project on the
// files that run remotely; the coverage table prints at the end as in `npm run test:model`.
import { spawnSync } from 'node:child_process';
import {
  TEST_SUPPORT_PREFIX,
  TEST_SUPPORT_TOKEN_HEADER,
} from '../server/modules/test-support/test-support.routes';
import { IN_PROCESS_ONLY, REMOTE_MODEL_FILES } from '../test/model/harness/remote-models';

function fail(message: string): never {
  console.error(`test:model:remote: ${message}`);
  process.exit(2);
}

const url = process.env.FLUJO_URL?.trim().replace(/\/+$/, '') ?? '';
const token = process.env.TEST_SUPPORT_TOKEN?.trim() ?? '';
if (!url) fail('set FLUJO_URL to the running Flujo, e.g. FLUJO_URL=http://staging.example:8080');
try {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('protocol');
} catch {
  fail(`FLUJO_URL must be an http(s) URL (got "${url}")`);
}
if (!token)
  fail('set TEST_SUPPORT_TOKEN to the server’s TEST_SUPPORT_TOKEN (its test-support API must be on)');

const health = await fetch(`${url}/api/health/`).catch((error: unknown) => fail(`${url}: ${String(error)}`));
if (!health.ok) fail(`${url}/api/health/ answered ${health.status}`);
// An enabled API refuses a call without the token (403); a server without it has no such route (404).
const probe = (headers: Record<string, string>) =>
  fetch(`${url}${TEST_SUPPORT_PREFIX}/invoices/1/`, { headers }).then((answer) => answer.status);
if ((await probe({})) !== 403) {
  fail(`${url} has no test-support API: start it with TEST_SUPPORT_ROUTES=true and TEST_SUPPORT_TOKEN`);
}
if ((await probe({ [TEST_SUPPORT_TOKEN_HEADER]: token })) === 403)
  fail('the server refused TEST_SUPPORT_TOKEN');

const skipped = Object.entries(IN_PROCESS_ONLY).map(([id, why]) => `  ${id}: ${why}`);
const notes = [
  `Model paths against ${url}: ${REMOTE_MODEL_FILES.length} model files run remotely.`,
  `In process only (npm run test:model), ${skipped.length} models:`,
  ...skipped,
].join('\n');
console.log(notes);

const started = performance.now();
const run = spawnSync('npx', ['vitest', 'run', '--project', 'model', ...REMOTE_MODEL_FILES], {
  stdio: 'inherit',
  env: { ...process.env, FLUJO_URL: url, TEST_SUPPORT_TOKEN: token },
});
const seconds = ((performance.now() - started) / 1000).toFixed(0);
// Repeated after vitest's own output, where a reader of the log looks.
console.log(`\n${notes}\ntest:model:remote: ${run.status === 0 ? 'passed' : 'FAILED'} in ${seconds}s`);
process.exit(run.status ?? 1);
