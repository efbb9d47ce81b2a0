// Issue 16, "Nothing lost": SIGTERM stops accepting, lets a request under way finish, closes the database
// and exits 0; a request that outlives SHUTDOWN_GRACE_SECONDS has its connection closed and the exit is
// still 0. The real server (server/main.ts) on PGlite in a DATA_DIR of its own. The request is held "in
// flight" by sending its headers and holding back its body until the shutdown has begun, so nothing depends
// on how fast the machine is; every wait has a generous explicit bound.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../server/seed/demo-world';
import { type RealServer, startRealServer } from '../support/real-server';

const START_MS = 300_000;
const WAIT_MS = 120_000;
const TEST_MS = 600_000;
const LOGIN = '/api/accounts/login/';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function start(env: Record<string, string>): Promise<RealServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'flujo-shutdown-'));
  dirs.push(dataDir);
  return startRealServer({ dataDir, timeoutMs: START_MS, env });
}

/** A login POST whose headers are sent now and whose body waits for `sendBody`. */
function heldLogin(base: string) {
  const { hostname, port } = new URL(base);
  const body = JSON.stringify({ username: 'proveedor.demo', password: DEMO_PASSWORD });
  const socket: Socket = connect(Number(port), hostname);
  let answer = '';
  socket.on('data', (chunk) => {
    answer += chunk.toString();
  });
  const closed = new Promise<string>((done) => {
    socket.on('close', () => done(answer));
    socket.on('error', () => undefined);
  });
  socket.write(
    `POST ${LOGIN} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`,
  );
  return { sendBody: () => socket.write(body), closed };
}

/** Resolves once a new TCP connection to the server is refused (it no longer accepts). */
async function refusesConnections(base: string, timeoutMs: number): Promise<void> {
  const { hostname, port } = new URL(base);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const refused = await new Promise<boolean>((done) => {
      const probe = connect(Number(port), hostname);
      probe.once('connect', () => {
        probe.destroy();
        done(false);
      });
      probe.once('error', () => done(true));
    });
    if (refused) return;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`the server still accepted connections ${timeoutMs} ms after SIGTERM`);
}

function exited(server: RealServer): Promise<number | null> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) {
    return Promise.resolve(server.child.exitCode);
  }
  return new Promise((done) => server.child.once('exit', (code) => done(code)));
}

describe('graceful shutdown (SIGTERM)', () => {
  it(
    'stops accepting, finishes the request under way, closes the database and exits 0',
    async () => {
      // A grace far longer than any wait below: the held request must finish, not be cut.
      const server = await start({ SHUTDOWN_GRACE_SECONDS: '600' });
      const held = heldLogin(server.base);
      await server.logged(LOGIN, WAIT_MS);
      server.child.kill('SIGTERM');
      await server.logged('SIGTERM received', WAIT_MS);
      await refusesConnections(server.base, WAIT_MS);

      held.sendBody();
      const answer = await held.closed;
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(answer).toContain('"access":');
      expect(await exited(server)).toBe(0);
      // The last log lines may come through the pipe after the exit.
      await server.logged('"msg":"shut down"', WAIT_MS);
    },
    TEST_MS,
  );

  it(
    'closes a request that outlives SHUTDOWN_GRACE_SECONDS and still exits 0',
    async () => {
      const server = await start({ SHUTDOWN_GRACE_SECONDS: '1' });
      const held = heldLogin(server.base);
      await server.logged(LOGIN, WAIT_MS);
      server.child.kill('SIGTERM');
      // The body never comes: the server gives up on it after the grace.
      const answer = await held.closed;
      expect(answer).not.toMatch(/ 200 /);
      expect(await exited(server)).toBe(0);
      await server.logged('closing their connections', WAIT_MS);
    },
    TEST_MS,
  );
});
