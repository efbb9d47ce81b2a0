import { HttpResponse, http } from 'msw';
import { forwardToServer, mswServer, TEST_ORIGIN } from './test-server';

type Method = 'get' | 'post' | 'put' | 'delete';

/** Requests still held by any gate, across the tests of a file. */
const heldEverywhere = new Set<(response: Response) => void>();

/**
 * What closing the page does to requests still in the air: they fail. Without it a request a path
 * left unanswered keeps its promise pending into the next path, which shares the app's modules.
 */
export function abandonHeldRequests(): void {
  for (const resolve of heldEverywhere) resolve(HttpResponse.error());
  heldEverywhere.clear();
}

/**
 * Holds each matching request until the model says how it ends, so the loading state is observable
 * and every outcome is deterministic. `pass()` hands the held request to the real server; the faults
 * answer it without reaching the server.
 */
export function gateEndpoint(
  method: Method,
  path: string,
  options: {
    /** Holds only the requests this accepts; the rest go on to the real app (say, another component's). */
    when?: (request: Request) => boolean;
  } = {},
) {
  const held: { request: Request; resolve: (response: Response) => void }[] = [];
  const waiters: (() => void)[] = [];
  const bodies: unknown[] = [];

  mswServer.use(
    http[method](`${TEST_ORIGIN}${path}`, async ({ request }) => {
      if (options.when && !options.when(request)) return undefined;
      bodies.push(
        await request
          .clone()
          .json()
          .catch(() => null),
      );
      return new Promise<Response>((settle) => {
        const resolve = (response: Response) => {
          heldEverywhere.delete(resolve);
          settle(response);
        };
        heldEverywhere.add(resolve);
        held.push({ request, resolve });
        for (const wake of waiters.splice(0)) wake();
      });
    }),
  );

  async function next() {
    while (held.length === 0) await new Promise<void>((wake) => waiters.push(wake));
    return held.shift()!;
  }

  return {
    /** Bodies of the requests seen, in order: the contract the view actually sent. */
    bodies,
    /** Resolves once a request is being held (without answering it). */
    async waitForRequest(): Promise<Request> {
      while (held.length === 0) await new Promise<void>((wake) => waiters.push(wake));
      return held[0]!.request;
    },
    /** The oldest held request and how to answer it, for an answer the methods below do not cover. */
    take: next,
    async pass(): Promise<void> {
      const { request, resolve } = await next();
      resolve(await forwardToServer(request));
    },
    async respond(status: number, body: unknown): Promise<void> {
      (await next()).resolve(HttpResponse.json(body as Record<string, unknown>, { status }));
    },
    async networkError(): Promise<void> {
      (await next()).resolve(HttpResponse.error());
    },
  };
}
