import { queryOptions } from '@tanstack/react-query';
import type { DeskState } from '../domain/control-desk';
import { DeskItem, DeskPage } from '../domain/schemas/control-desk';
import { INVOICES_API_URL } from './api-config';
import { request } from './http';

// The control desk's reads (decision 0054): GET /api/operator/desk/ (?state=).

/** A page of the desk (the first by default), optionally of one state; keys rooted at ['operator', 'desk']. */
export function deskQueryOptions(state: DeskState | null, page = 1) {
  const search = new URLSearchParams();
  if (state) search.set('state', state);
  if (page > 1) search.set('page', String(page));
  const query = search.toString();
  return queryOptions({
    queryKey: ['operator', 'desk', state ?? 'all', page],
    queryFn: () => request(`${INVOICES_API_URL}/operator/desk/${query ? `?${query}` : ''}`, DeskPage),
  });
}

/** POST desk/{id}/approve/ (aprobador), with its Idempotency-Key. */
export function approveDeskItem(invoiceId: number, idempotencyKey: string) {
  return request(`${INVOICES_API_URL}/operator/desk/${invoiceId}/approve/`, DeskItem, {
    method: 'POST',
    body: {},
    idempotencyKey,
  });
}

/** POST desk/{id}/reject/ {reason} (aprobador); the server keeps no Idempotency-Key for it (not a money call). */
export function rejectDeskItem(invoiceId: number, reason: string) {
  return request(`${INVOICES_API_URL}/operator/desk/${invoiceId}/reject/`, DeskItem, {
    method: 'POST',
    body: { reason },
  });
}
