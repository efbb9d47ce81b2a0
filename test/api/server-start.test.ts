// @postgresql: the real server starting, seeding once and refusing a second process, on the engine it is given.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The real `server/main.ts` as a process: the data directory, its lock and idempotent demo data.
// Only on PGlite: with TEST_DATABASE_URL set the suite is about the API, not the embedded database.
const pglite = !process.env.TEST_DATABASE_URL;

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(dataDir: string, port: number): Started {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
    },
  });
  child.stdout?.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, output: () => output, exited };
}

async function waitForHealth(port: number, started: Started): Promise<unknown> {
  for (let i = 0; i < 240; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health/`);
      if (res.ok) return res.json();
    } catch {
      // not listening yet
    }
    if (started.child.exitCode !== null) throw new Error(`server exited: ${started.output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not become healthy: ${started.output()}`);
}

describe.runIf(pglite)('npm start on a data directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flujo-start-'));
  const port = 18_000 + Math.floor(Math.random() * 1000);
  const running: Started[] = [];
  afterAll(async () => {
    for (const s of running) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loads the demo world once, refuses a second process, and reuses the data on restart', async () => {
    const first = startServer(dataDir, port);
    running.push(first);
    expect(await waitForHealth(port, first)).toEqual({ status: 'ok', database: 'pglite' });
    expect(first.output()).toContain('demo data loaded: 1 corporate, 3 providers, 48 invoices');

    const second = startServer(dataDir, port + 1);
    running.push(second);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('Another Flujo process');
    expect(second.output()).toContain(dataDir);
    // `npm start` checks the lock before its build, so a second start leaves the running server's dist/ alone.
    const preStart = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/check-data-dir.ts'], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      encoding: 'utf8',
    });
    expect(preStart.status).toBe(1);
    expect(preStart.stderr).toContain('Another Flujo process');

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const third = startServer(dataDir, port);
    running.push(third);
    await waitForHealth(port, third);
    expect(third.output()).toContain('demo data already present');
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
  }, 180_000);

  it('refuses a bad configuration with a clear message', async () => {
    const bad = startServer(dataDir, 99_999);
    running.push(bad);
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toContain('PORT must be an integer 0-65535');
  }, 60_000);
});
