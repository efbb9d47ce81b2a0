import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { FastifyInstance } from 'fastify';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { buildApp } from '../../../server/app';
import type { Config } from '../../../server/config';
import type { DatabaseHandle } from '../../../server/db/database';
import { TEST_SUPPORT_TOKEN_HEADER } from '../../../server/modules/test-support/test-support.routes';
import { testConfig } from '../../support/api-app';
import { forwardToApp } from '../../support/msw-app';
import { createTestDatabase } from '../../support/test-database';

/** The origin the DOM tests run under (vitest environmentOptions); relative API URLs resolve against it. */
export const TEST_ORIGIN = 'http://localhost:8080';

/**
 * Remote mode (`npm run test:model:remote`, decision 0048): FLUJO_URL names a running Flujo, and every /api/*
 * request goes there over HTTP; no app or database starts in this process. Unset: the real app in process.
 */
export const REMOTE_URL = process.env.FLUJO_URL?.trim().replace(/\/+$/, '') || null;
/** The running server's test-support token (TEST_SUPPORT_TOKEN there). */
const REMOTE_TOKEN = process.env.TEST_SUPPORT_TOKEN?.trim() || '';

export function isRemote(): boolean {
  return REMOTE_URL !== null;
}

let current: { app: FastifyInstance; database: DatabaseHandle; config: Config } | null = null;

/** The real app behind MSW's default handler, one per test file. */
export function testApp(): { app: FastifyInstance; database: DatabaseHandle; config: Config } {
  if (isRemote()) {
    throw new Error(
      'this test reaches into the in-process app; in remote mode it must go through test/model/harness/world.ts',
    );
  }
  if (!current) throw new Error('test app not started (is test/model/harness/setup.ts a setup file?)');
  return current;
}

// Hop-by-hop and length headers are the transport's; fetch decodes the body, so its encoding header goes too.
const TRANSPORT_HEADERS = ['host', 'connection', 'content-length', 'transfer-encoding', 'content-encoding'];

/**
 * Sends an intercepted request to the running server over node:http(s), and hands back its status, headers and
 * body. Not fetch: under happy-dom that is the page's own, which would apply the browser's CORS rules to a
 * server on another origin. MSW intercepts node:http too; its passthrough marker lets this one through.
 */
async function forwardToRemote(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const target = new URL(`${REMOTE_URL}${url.pathname}${url.search}`);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, key) => {
    if (!TRANSPORT_HEADERS.includes(key)) headers[key] = value;
  });
  headers['accept-encoding'] = 'identity';
  headers.accept = `${headers.accept ? `${headers.accept}, ` : ''}msw/passthrough`;
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const body = hasBody ? Buffer.from(await request.clone().arrayBuffer()) : null;
  if (body) headers['content-length'] = String(body.length);
  const answer = await new Promise<{ status: number; headers: [string, string][]; body: Buffer }>(
    (resolveAnswer, reject) => {
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      const outgoing = send(target, { method: request.method, headers }, (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', reject);
        incoming.on('end', () => {
          const pairs: [string, string][] = [];
          for (let i = 0; i < incoming.rawHeaders.length; i += 2) {
            pairs.push([incoming.rawHeaders[i] as string, incoming.rawHeaders[i + 1] as string]);
          }
          resolveAnswer({ status: incoming.statusCode ?? 502, headers: pairs, body: Buffer.concat(chunks) });
        });
      });
      outgoing.on('error', reject);
      outgoing.end(body ?? undefined);
    },
  );
  const responseHeaders = new Headers();
  for (const [key, value] of answer.headers) {
    if (!TRANSPORT_HEADERS.includes(key.toLowerCase())) responseHeaders.append(key, value);
  }
  return new HttpResponse(answer.body.length > 0 ? answer.body : null, {
    status: answer.status,
    headers: responseHeaders,
  });
}

/** The server's answer to a request the browser made: the app in process, or the running one in remote mode. */
export function forwardToServer(request: Request): Promise<Response> {
  return isRemote() ? forwardToRemote(request) : forwardToApp(testApp().app, request);
}

/**
 * A call a test makes itself (not the browser): same server as the page's, JSON in and out. In remote mode the
 * test-support token rides along, which only the test-support routes read.
 */
export async function callServer(
  method: 'GET' | 'POST',
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (isRemote() && REMOTE_TOKEN) headers[TEST_SUPPORT_TOKEN_HEADER] = REMOTE_TOKEN;
  const request = new Request(`${TEST_ORIGIN}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const answer = await forwardToServer(request);
  const text = await answer.text();
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // Not JSON: the text is the body.
  }
  return { status: answer.status, body };
}

const defaultHandler = http.all(`${TEST_ORIGIN}/api/*`, ({ request }) => forwardToServer(request));

export const mswServer = setupServer(defaultHandler);

export async function startTestApp(): Promise<void> {
  if (isRemote()) return;
  const database = await createTestDatabase();
  // Every request comes from inject's one address; testConfig raises the public forms' limits for that.
  // Kept: its JWT secret signs the operator sessions a model makes (test/support/operator.ts).
  const config = testConfig();
  const app = await buildApp({ database, config });
  await app.ready();
  current = { app, database, config };
}

export async function stopTestApp(): Promise<void> {
  if (!current) return;
  await current.app.close();
  await current.database.close();
  current = null;
}
