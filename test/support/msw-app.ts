import type { FastifyInstance } from 'fastify';
import { HttpResponse } from 'msw';

/**
 * Hands a request MSW intercepted to the real Fastify app in this process (no fake back end):
 * same method, path, headers and body, and the app's real status, headers and body back.
 */
export async function forwardToApp(app: FastifyInstance, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const payload = hasBody ? Buffer.from(await request.clone().arrayBuffer()) : undefined;
  const headers: Record<string, string> = {};
  request.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const response = await app.inject({
    method: request.method as 'GET',
    url: url.pathname + url.search,
    headers,
    payload,
  });
  const responseHeaders = new Headers();
  for (const [key, value] of Object.entries(response.headers)) {
    if (value === undefined || key === 'content-length' || key === 'transfer-encoding') continue;
    for (const item of Array.isArray(value) ? value : [value]) responseHeaders.append(key, String(item));
  }
  return new HttpResponse(response.rawPayload.length > 0 ? response.rawPayload : null, {
    status: response.statusCode,
    headers: responseHeaders,
  });
}
