import { queryOptions } from '@tanstack/react-query';
import { CorporateMaturities } from '../domain/schemas/maturities';
import { INVOICES_API_URL } from './api-config';
import { request } from './http';

/** GET /api/corporates/maturities/: the corporate's own next due dates (decision 0066). */
export function fetchCorporateMaturities(): Promise<CorporateMaturities> {
  return request(`${INVOICES_API_URL}/corporates/maturities/`, CorporateMaturities);
}

export const corporateMaturitiesQueryOptions = () =>
  queryOptions({ queryKey: ['corporates', 'maturities'], queryFn: fetchCorporateMaturities });
