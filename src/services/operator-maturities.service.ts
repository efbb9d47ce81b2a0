import { queryOptions } from '@tanstack/react-query';
import { MaturitiesReport } from '../domain/schemas/maturities';
import { INVOICES_API_URL } from './api-config';
import { request } from './http';

/** The range the maturities screen asks for (both days set: the route fills the default window). */
export interface MaturityRange {
  desde: string;
  hasta: string;
}

/** GET /api/operator/maturities/: what falls due in the range, per day and buyer (decision 0066). */
export function fetchMaturities(range: MaturityRange): Promise<MaturitiesReport> {
  const query = new URLSearchParams({ desde: range.desde, hasta: range.hasta });
  return request(`${INVOICES_API_URL}/operator/maturities/?${query}`, MaturitiesReport);
}

export const operatorMaturitiesQueryOptions = (range: MaturityRange) =>
  queryOptions({
    queryKey: ['operator', 'maturities', range],
    queryFn: () => fetchMaturities(range),
  });
