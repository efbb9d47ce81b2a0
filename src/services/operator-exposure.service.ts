import { queryOptions } from '@tanstack/react-query';
import { CapList, CapView, ExposureAnswer, type ProposeCapBody } from '../domain/schemas/exposure';
import { INVOICES_API_URL } from './api-config';
import { request } from './http';

// Exposure and concentration caps (issue 34, decision 0069). Keys are rooted at ['operator', 'exposure'].

const BASE = `${INVOICES_API_URL}/operator/exposure/`;

/** Every exposure query's root (a corporate's new economic group reads them all again). */
export const exposureKeys = { all: ['operator', 'exposure'] as const };

export const exposureQueryOptions = queryOptions({
  queryKey: ['operator', 'exposure', 'report'],
  queryFn: () => request(BASE, ExposureAnswer),
});

export const capsQueryOptions = queryOptions({
  queryKey: ['operator', 'exposure', 'caps'],
  queryFn: () => request(`${BASE}caps/`, CapList),
});

export function proposeCap(body: ProposeCapBody): Promise<CapView> {
  return request(`${BASE}caps/`, CapView, { method: 'POST', body });
}

/** Approval puts a cap in force: keyed, so a retry after a lost answer approves once. */
export function approveCap(id: number, idempotencyKey: string): Promise<CapView> {
  return request(`${BASE}caps/${id}/approve/`, CapView, { method: 'POST', idempotencyKey });
}

export function rejectCap(id: number): Promise<CapView> {
  return request(`${BASE}caps/${id}/reject/`, CapView, { method: 'POST' });
}
