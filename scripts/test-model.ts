// npm run test:model [-- --report [dir]] [vitest arguments]: the model project's generated paths
// (`vitest run --project model`, every other argument passed on). `--report` (default directory
// .tmp/model-report, or `--report <dir>` / `--report=<dir>`) also writes index.html and report.json there
// (test/model/README.md, "Report"); the run's global teardown writes and checks them.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MODEL_REPORT_ENV } from '../test/model/harness/path-records';
import { REPORT_HTML, REPORT_JSON } from '../test/model/harness/report';

const DEFAULT_REPORT_DIR = '.tmp/model-report';
const VITEST = fileURLToPath(new URL('../node_modules/.bin/vitest', import.meta.url));

/** A word after `--report` is its directory unless it is an option or a test file filter. */
const isDirectory = (arg: string | undefined): arg is string =>
  arg !== undefined && !arg.startsWith('-') && !/\.(test|model)\.|\.tsx?$/.test(arg);

function parseArgs(argv: readonly string[]): { reportDir: string | null; vitestArgs: string[] } {
  let reportDir: string | null = null;
  const vitestArgs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--report') {
      const next = argv[i + 1];
      reportDir = isDirectory(next) ? next : DEFAULT_REPORT_DIR;
      if (isDirectory(next)) i++;
    } else if (arg.startsWith('--report=')) {
      reportDir = arg.slice('--report='.length) || DEFAULT_REPORT_DIR;
    } else {
      vitestArgs.push(arg);
    }
  }
  return { reportDir: reportDir === null ? null : resolve(reportDir), vitestArgs };
}

const { reportDir, vitestArgs } = parseArgs(process.argv.slice(2));
const env = { ...process.env };
if (reportDir) {
  env[MODEL_REPORT_ENV] = reportDir;
  // A report left by an earlier run must not pass for this run's.
  for (const file of [REPORT_JSON, REPORT_HTML]) rmSync(join(reportDir, file), { force: true });
} else {
  delete env[MODEL_REPORT_ENV];
}

const run = spawnSync(VITEST, ['run', '--project', 'model', ...vitestArgs], { stdio: 'inherit', env });
if (run.error) throw run.error;
let status = run.status ?? 1;
if (reportDir && !(existsSync(join(reportDir, REPORT_JSON)) && existsSync(join(reportDir, REPORT_HTML)))) {
  console.error(`\nMODEL REPORT MISSING: ${reportDir} has no ${REPORT_JSON} and ${REPORT_HTML}.`);
  status = 1;
}
process.exit(status);
