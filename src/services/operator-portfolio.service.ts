import { queryOptions } from '@tanstack/react-query';
import {
  AgingReport,
  CollectionLog,
  type CollectionLogBody,
  CollectionLogEntry,
} from '../domain/schemas/delinquency';
import { INVOICES_API_URL } from './api-config';
import { request } from './http';

// The Cartera screen's calls (issue 34, decision 0068). Keys are rooted at ['operator', 'portfolio'].

export interface PortfolioFilters {
  /** The buyer whose invoices and log are shown (?corporativo=). */
  corporativo?: number;
}

/** GET /api/operator/aging/ as of today: every buyer's totals, and one buyer's invoices when chosen. */
export function agingQueryOptions(filters: PortfolioFilters, page: number) {
  const params = new URLSearchParams();
  if (filters.corporativo) params.set('corporate_id', String(filters.corporativo));
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return queryOptions({
    queryKey: ['operator', 'portfolio', 'aging', filters, page],
    queryFn: () => request(`${INVOICES_API_URL}/operator/aging/${query ? `?${query}` : ''}`, AgingReport),
  });
}

/** The whole portfolio's buyers (the filter's options and the buyers table stay whole when one is chosen). */
export const portfolioBuyersQueryOptions = queryOptions({
  queryKey: ['operator', 'portfolio', 'aging', 'all'],
  queryFn: () => request(`${INVOICES_API_URL}/operator/aging/?page_size=1`, AgingReport),
});

const logUrl = (corporateId: number) =>
  `${INVOICES_API_URL}/operator/corporates/${corporateId}/collection-log/`;

export function collectionLogQueryOptions(corporateId: number) {
  return queryOptions({
    queryKey: ['operator', 'portfolio', 'log', corporateId],
    queryFn: () => request(logUrl(corporateId), CollectionLog),
  });
}

/** Records one entry; the same `idempotencyKey` again (a retry after a lost answer) replays it, once. */
export function addCollectionLogEntry(
  corporateId: number,
  body: CollectionLogBody,
  idempotencyKey: string,
): Promise<CollectionLogEntry> {
  return request(logUrl(corporateId), CollectionLogEntry, { method: 'POST', body, idempotencyKey });
}
