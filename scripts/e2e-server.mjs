// Starts the real server on a fresh temporary DATA_DIR for the browser tests and removes it afterwards.
// The server's log is also written to .tmp/e2e-server-<port>.log: with no SMTP configured, e-mails (such as the
// password-reset link) are printed there, which is how a browser test reads its "inbox". The data directory is
// written to .tmp/e2e-server-<port>.json so a test can run operator commands against it.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const port = process.argv[2] ?? '8181';
const dataDir = mkdtempSync(join(tmpdir(), 'flujo-e2e-'));
mkdirSync('.tmp', { recursive: true });
const log = createWriteStream(`.tmp/e2e-server-${port}.log`);
// Browser tests that play the operator (`npm run ops -- …`) need the same data directory as the server.
writeFileSync(`.tmp/e2e-server-${port}.json`, JSON.stringify({ dataDir }));
const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
  stdio: ['ignore', 'pipe', 'pipe'],
  env: {
    ...process.env,
    PORT: port,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    APP_BASE_URL: `http://127.0.0.1:${port}`,
    // Every browser test posts the public forms from 127.0.0.1, as many visitors behind one address would; the
    // production limits themselves are tested in test/api/public-write-throttle.test.ts.
    PUBLIC_WRITE_LIMIT_FACTOR: '100',
  },
});
child.stdout.pipe(log, { end: false });
child.stderr.pipe(process.stderr);
child.stderr.pipe(log, { end: false });
const stop = () => child.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
child.on('exit', (code) => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(`.tmp/e2e-server-${port}.json`, { force: true });
  process.exit(code ?? 0);
});
