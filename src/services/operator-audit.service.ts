import { queryOptions } from '@tanstack/react-query';
import { OperatorActionPage, type OperatorAuditFilters } from '../domain/schemas/operator-audit';
import { INVOICES_API_URL } from './api-config';
import { request } from './http';

/** The audit list's query string: only the filters that are set. */
export function operatorAuditQuery(filters: OperatorAuditFilters): string {
  const params = new URLSearchParams();
  for (const key of ['operator', 'action', 'from', 'to'] as const) {
    const value = filters[key]?.trim();
    if (value) params.set(key, value);
  }
  if (filters.page && filters.page > 1) params.set('page', String(filters.page));
  return params.toString();
}

/** GET /api/operator/audit/: a page of what operators did (decision 0050). */
export function listOperatorActions(filters: OperatorAuditFilters): Promise<OperatorActionPage> {
  const query = operatorAuditQuery(filters);
  return request(`${INVOICES_API_URL}/operator/audit/${query ? `?${query}` : ''}`, OperatorActionPage);
}

export const operatorAuditQueryOptions = (filters: OperatorAuditFilters) =>
  queryOptions({
    queryKey: ['operator', 'audit', filters],
    queryFn: () => listOperatorActions(filters),
  });
