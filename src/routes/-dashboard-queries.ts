import { queryOptions } from '@tanstack/react-query';
import { InvoiceStatus } from '../domain/invoice-status';
import { listAlliances } from '../services/providers.service';
import type { Role } from '../stores/user.store';

// Queries the dashboard frame itself needs. (The '-' prefix keeps this file out of the route tree.)

/**
 * The header's summary figures: the indicators of the first page of the provider's alliances list. The role
 * is part of every list key (spec §6): a corporate switching views must not see these numbers.
 */
export function headerSummaryQueryOptions(role: Role, enabled: boolean) {
  return queryOptions({
    queryKey: ['alliances', 'indicators', role],
    queryFn: () => listAlliances({ search: '', periods: [], status: InvoiceStatus.ALL }, 1),
    enabled,
  });
}
