import { screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import { businessDate } from '../../server/http/business-date';
import { COPY_FOLIO_TEXT } from '../../src/views/invoices/invoice-columns';
import type { Session } from '../support/accounts';
import { SERVER_WAIT } from '../support/server-wait';
import { gateEndpoint } from './harness/msw-gate';
import { callServer, testApp } from './harness/test-server';
import { type WorldInvoice, world } from './harness/world';
import { plusDays } from './invoice-lifecycle.model';

// Shared by the pronto-pago model tests (authorization-request, forward-payment, invoice-download).

/** The demo provider (server/seed/demo-world.ts): Empaques del Bajío, alliance with the demo corporate. */
export const PROVIDER = 'proveedor.demo';

/** A session for the API helpers of test/support (only the access token is used). */
export function bearer(access: string): Session {
  return { access, refresh: '' };
}

/**
 * A POST a user's other tab makes (not the page under test): with that user's session, JSON, and an
 * Idempotency-Key when given; to the same server as the page's.
 */
export function postAs(access: string, url: string, body: unknown, idempotencyKey?: string) {
  return callServer('POST', url, {
    body,
    headers: {
      authorization: `Bearer ${access}`,
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
  });
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

/** The table row of an invoice, by its folio fiscal (named by the row's copy button; the cell shows serie-folio). */
export async function findRow(uuid: string): Promise<HTMLElement> {
  let row: HTMLElement | null = null;
  await waitFor(() => {
    row = screen.getByLabelText(`${COPY_FOLIO_TEXT} ${uuid}`).closest('tr');
    expect(row).toBeTruthy();
  }, SERVER_WAIT);
  return row as unknown as HTMLElement;
}

/**
 * Holds the pronto-pago list's requests that carry `search` (the page's own list, rendered with a search in
 * the URL) and lets every other alliances request (the dashboard header's summary) reach the server.
 */
export function gateSearchedList() {
  return gateEndpoint('get', '/api/providers/alliances/', {
    when: (request) => new URL(request.url).searchParams.has('search'),
  });
}

/**
 * An invoice of the world's provider, authorized by its corporate with payment in `daysToPayment` days
 * (Autorizada); with `advanced`, the provider then accepts the advance (En trámite).
 */
export async function approvedInvoice(
  daysToPayment: number,
  options: { advanced?: boolean } = {},
): Promise<WorldInvoice> {
  const { provider, corporate } = await world.parties();
  const invoice = await world.importInvoice();
  const providerActor = { kind: 'provider', companyId: provider.companyId, satAuthorized: true } as const;
  const steps = [
    [{ type: 'invoice.requestAuthorization', actor: providerActor }, provider],
    [
      {
        type: 'invoice.authorize',
        actor: { kind: 'corporate', companyId: corporate.companyId, satAuthorized: true },
        paymentDate: plusDays(businessDate(new Date()), daysToPayment),
      },
      corporate,
    ],
    ...(options.advanced
      ? [[{ type: 'invoice.approveAdvance', actor: providerActor }, provider] as const]
      : []),
  ] as const;
  for (const [event, user] of steps) {
    expect(await world.applyEvent(invoice.id, event, user)).toMatchObject({ ok: true });
  }
  return invoice;
}
