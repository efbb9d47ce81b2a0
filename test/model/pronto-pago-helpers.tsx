import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { expect } from 'vitest';
import type { Session } from '../support/accounts';
import { forwardToApp } from '../support/msw-app';
import { mswServer, TEST_ORIGIN, testApp } from './harness/test-server';

// Shared by the pronto-pago model tests (authorization-request, forward-payment).

/** The demo provider (server/seed/demo-world.ts): Empaques del Bajío, alliance with the demo corporate. */
export const PROVIDER = 'proveedor.demo';

/** A session for the API helpers of test/support (only the access token is used). */
export function bearer(access: string): Session {
  return { access, refresh: '' };
}

/** The folio fiscal (CFDI UUID) the list shows for an invoice. */
export async function invoiceUuid(invoiceId: number): Promise<string> {
  const row = await testApp()
    .database.db.selectFrom('invoices')
    .select('cfdi_uuid')
    .where('id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  return row.cfdi_uuid;
}

/** The table row of an invoice, by its folio fiscal. */
export async function findRow(uuid: string): Promise<HTMLElement> {
  let row: HTMLElement | null = null;
  await waitFor(
    () => {
      row = screen.getByText(uuid).closest('tr');
      expect(row).toBeTruthy();
    },
    { timeout: 4000 },
  );
  return row as unknown as HTMLElement;
}

/**
 * Holds the pronto-pago list's requests that carry `search` (the page's own list, rendered with a search in
 * the URL) and lets every other alliances request (the dashboard header's summary) reach the server.
 */
export function gateSearchedList() {
  const held: { request: Request; resolve: (response: Response) => void }[] = [];
  const waiters: (() => void)[] = [];
  mswServer.use(
    http.get(`${TEST_ORIGIN}/api/providers/alliances/`, ({ request }) => {
      if (!new URL(request.url).searchParams.has('search')) return undefined;
      return new Promise<Response>((resolve) => {
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
    async waitForRequest(): Promise<Request> {
      while (held.length === 0) await new Promise<void>((wake) => waiters.push(wake));
      return held[0]!.request;
    },
    async pass(): Promise<void> {
      const { request, resolve } = await next();
      resolve(await forwardToApp(testApp().app, request));
    },
    async respond(status: number, body: Record<string, unknown>): Promise<void> {
      (await next()).resolve(HttpResponse.json(body, { status }));
    },
  };
}
