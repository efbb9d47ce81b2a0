// The running server's door for operator commands: a Unix domain socket in DATA_DIR (docs/decisions/0013).
// PGlite lets one process open DATA_DIR, so while the server runs, `npm run ops -- disburse …` cannot open
// the database itself; the CLI sends the command here and the server runs the same OPS_COMMANDS entry on
// the database it already holds, streaming the lines back. One implementation of each command either way.

import { chmodSync, existsSync, lstatSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { isAbsolute, join } from 'node:path';
import type { Config } from '../config';
import type { DatabaseHandle } from '../db/database';
import { OPS_COMMANDS, type OpsOutput, runOpsCommand } from './commands';

export const OPS_SOCKET_FILE = 'ops.sock';
/** Owner read/write only: connecting to a Unix socket needs write permission on its file. */
const SOCKET_MODE = 0o600;
/** A request is one JSON line: the command, its arguments and the caller's working directory. */
const MAX_REQUEST_BYTES = 64 * 1024;
const MAX_ARGS = 200;
/** A client that connects and says nothing is dropped; a command, once read, runs as long as it needs. */
const REQUEST_TIMEOUT_MS = 10_000;
// WARNING: sun_path holds 108 bytes on Linux and 104 on macOS, terminating NUL included.
const MAX_SOCKET_PATH_BYTES = 103;

export function opsSocketPath(dataDir: string): string {
  return join(dataDir, OPS_SOCKET_FILE);
}

/** What the CLI sends: one line of JSON. */
export interface OpsRequest {
  command: string;
  args: string[];
  /** Absolute; relative file arguments (cfdi:import) resolve against it. */
  cwd: string;
  /**
   * The automation account the CLI runs as (opsAccount(): FLUJO_OPS_ACCOUNT or its OS user), recorded by the
   * commands that move money (decision 0059). Absent: the server's own OS user, the only one the 0600 socket
   * lets in.
   */
  account?: string;
}

/** What the server answers: lines of JSON, `out`/`err` in order, then exactly one `exit`. */
type OpsReply = { out: string } | { err: string } | { exit: number };

type Log = {
  info(message: string): void;
  warn(message: string): void;
  error(object: object, message: string): void;
};

export interface OpsSocket {
  path: string;
  /** Stops accepting, waits for the commands under way, removes the socket file. */
  close(): Promise<void>;
}

export interface OpsSocketOptions {
  dataDir: string;
  database: DatabaseHandle;
  config: Config;
  log: Log;
  now?: () => Date;
}

function parseRequest(line: string): OpsRequest | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { command, args, cwd, account } = value as Record<string, unknown>;
  if (typeof command !== 'string' || typeof cwd !== 'string' || !isAbsolute(cwd)) return null;
  if (!Array.isArray(args) || args.length > MAX_ARGS || !args.every((arg) => typeof arg === 'string')) {
    return null;
  }
  // Its form is the command's to judge (disburse answers in Spanish), as for any argument.
  if (account !== undefined && typeof account !== 'string') return null;
  return { command, args, cwd, ...(account === undefined ? {} : { account }) };
}

/**
 * Listens on DATA_DIR/ops.sock (mode 0600) and runs each request through `runOpsCommand` with the server's
 * own database. Call it only while holding the data-directory lock: any socket file already there is then
 * a leftover of a process that died, and is removed.
 */
export async function startOpsSocket(options: OpsSocketOptions): Promise<OpsSocket> {
  const path = opsSocketPath(options.dataDir);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    throw new Error(`The ops socket path ${path} is too long for a Unix socket; use a shorter DATA_DIR.`);
  }
  if (existsSync(path)) {
    // Never unlink something that is not a socket (a file someone put there by mistake is theirs).
    if (!lstatSync(path).isSocket()) throw new Error(`${path} exists and is not a socket; remove it.`);
    rmSync(path, { force: true });
  }

  const running = new Set<Promise<void>>();
  const server: Server = createServer((socket) => {
    // A client that goes away mid-command must not crash the server; the command still completes.
    socket.on('error', () => {});
    const work = serve(socket, options).catch((error: unknown) => {
      options.log.error({ err: error }, 'ops socket request failed');
      socket.destroy();
    });
    running.add(work);
    void work.finally(() => running.delete(work));
  });

  // The socket file is born owner-only (no moment when another user could connect), then set to SOCKET_MODE.
  // main.ts already sets this umask; a caller that did not gets its own back once the socket exists.
  const previousUmask = process.umask(0o077);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ path, exclusive: true }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } finally {
    process.umask(previousUmask);
  }
  chmodSync(path, SOCKET_MODE);
  const removeFile = () => rmSync(path, { force: true });
  process.on('exit', removeFile);
  options.log.info(`operator commands accepted on ${path}`);

  let closed: Promise<void> | null = null;
  return {
    path,
    close() {
      closed ??= (async () => {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await Promise.allSettled([...running]);
        process.off('exit', removeFile);
        removeFile();
      })();
      return closed;
    },
  };
}

async function serve(socket: Socket, options: OpsSocketOptions): Promise<void> {
  const line = await readRequestLine(socket);
  const send = (reply: OpsReply) => {
    if (!socket.destroyed) socket.write(`${JSON.stringify(reply)}\n`);
  };
  const finish = (code: number) =>
    new Promise<void>((resolve) => {
      send({ exit: code });
      socket.end(resolve);
    });

  const request = line === null ? null : parseRequest(line);
  if (!request) {
    send({ err: 'Malformed operator request.' });
    return finish(2);
  }
  const command = OPS_COMMANDS[request.command];
  if (!command) {
    send({ err: `Unknown command ${request.command}; run npm run ops -- help.` });
    return finish(2);
  }
  const output: OpsOutput = { out: (text) => send({ out: text }), err: (text) => send({ err: text }) };
  let code: number;
  try {
    options.log.info(`ops command over the socket: ${request.command} ${request.args.join(' ')}`.trim());
    code = await runOpsCommand(command, request.args, {
      config: options.config,
      database: options.database,
      output,
      cwd: request.cwd,
      ...(request.account ? { account: request.account } : {}),
      ...(options.now ? { now: options.now } : {}),
    });
  } catch (error) {
    // The stack stays in the server's log; the operator gets the message, as a direct run would print it.
    options.log.error({ err: error }, `ops command ${request.command} failed`);
    output.err(
      `${request.command} failed in the server: ${error instanceof Error ? error.message : String(error)}`,
    );
    code = 1;
  }
  return finish(code);
}

/** The first line the client sends, or null when it is too long, never ends, or the client goes away. */
function readRequestLine(socket: Socket): Promise<string | null> {
  return new Promise((resolve) => {
    let buffered = '';
    const done = (line: string | null) => {
      socket.setTimeout(0);
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('timeout', onEnd);
      socket.off('error', onEnd);
      resolve(line);
    };
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const newline = buffered.indexOf('\n');
      if (newline >= 0) done(buffered.slice(0, newline));
      else if (Buffer.byteLength(buffered) > MAX_REQUEST_BYTES) done(null);
    };
    const onEnd = () => done(null);
    socket.setTimeout(REQUEST_TIMEOUT_MS);
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('timeout', onEnd);
    socket.on('error', onEnd);
  });
}

/** The server is not listening there (no socket file, or a leftover nobody accepts on). */
export class OpsSocketUnavailableError extends Error {}

/**
 * The CLI's side: sends one command to the running server and writes its lines to `output` as they arrive.
 * Resolves with the command's exit code.
 */
export function sendOpsCommand(path: string, request: OpsRequest, output: OpsOutput): Promise<number> {
  return new Promise((resolve, reject) => {
    let connected = false;
    let exitCode: number | null = null;
    let buffered = '';
    const socket = createConnection({ path }, () => {
      connected = true;
      socket.write(`${JSON.stringify(request)}\n`);
    });
    const handle = (line: string) => {
      if (line === '') return;
      const reply = JSON.parse(line) as OpsReply;
      if ('out' in reply) output.out(reply.out);
      else if ('err' in reply) output.err(reply.err);
      else exitCode = reply.exit;
    };
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let newline = buffered.indexOf('\n');
      try {
        while (newline >= 0) {
          handle(buffered.slice(0, newline));
          buffered = buffered.slice(newline + 1);
          newline = buffered.indexOf('\n');
        }
      } catch (error) {
        socket.destroy(error instanceof Error ? error : new Error(String(error)));
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected && ['ENOENT', 'ECONNREFUSED', 'EACCES', 'ENOTSOCK'].includes(error.code ?? '')) {
        reject(new OpsSocketUnavailableError(`${path}: ${error.code}`));
      } else {
        reject(error);
      }
    });
    socket.on('close', () => {
      if (exitCode !== null) resolve(exitCode);
      else if (connected) reject(new Error('The server closed the ops socket before the command finished.'));
    });
  });
}
