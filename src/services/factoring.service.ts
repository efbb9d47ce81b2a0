import {
  FactoringQuote,
  FactoringRecord,
  type FactoringRequest,
  FactoringTransferResponse,
} from '../domain/schemas/factoring';
import { type InvoicePage, MessageResponse } from '../domain/schemas/invoices';
import { INVOICES_API_URL } from './api-config';
import { request } from './http';
import { type AllianceFilters, InvoicePageOrArray, invoiceListQuery } from './providers.service';

// The factoring calls (spec §7, issue 15; docs/decisions/0036). The machine receives them as actors.

/**
 * A page of the provider's factoring list (spec §2 'Factoring screen'): the alliances filters; the first page
 * carries the line's indicators and has_factoring. An array answer is an empty page.
 */
export async function listFactoring(filters: AllianceFilters, page: number): Promise<InvoicePage> {
  const body = await request(
    `${INVOICES_API_URL}/providers/factoring/?${invoiceListQuery(filters, page)}`,
    InvoicePageOrArray,
    { allowArray: true },
  );
  if (Array.isArray(body)) return { count: 0, next: null, previous: null, results: [] };
  return body;
}

/** POST factoring-enable/ (no body): files the account's enable request; one pending per account. */
export function enableFactoring(): Promise<MessageResponse> {
  return request(`${INVOICES_API_URL}/factoring-enable/`, MessageResponse, { method: 'POST' });
}

/** GET factoring-calculations/{id}/: 403 without a line, 404, 409 when the invoice cannot be factored. */
export function factoringQuote(invoiceId: number): Promise<FactoringQuote> {
  return request(`${INVOICES_API_URL}/factoring-calculations/${invoiceId}/`, FactoringQuote);
}

/** POST factoring/ with the chosen option; 409 with the server's message when refused. */
export function requestFactoring(
  body: FactoringRequest,
  idempotencyKey: string,
): Promise<FactoringTransferResponse> {
  return request(`${INVOICES_API_URL}/factoring/`, FactoringTransferResponse, {
    method: 'POST',
    body,
    idempotencyKey,
  });
}

/** GET factoring-request/{id}/: a factoring record with its instalment schedule. */
export function factoringRecord(id: number): Promise<FactoringRecord> {
  return request(`${INVOICES_API_URL}/factoring-request/${id}/`, FactoringRecord);
}
