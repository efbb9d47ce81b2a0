import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import type { OperatorAuditFilters } from '../../domain/schemas/operator-audit';
import { operatorAuditQueryOptions } from '../../services/operator-audit.service';
import { OperatorAuditPage } from '../../views/operator/audit/operator-audit-page';

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/** The filters live in the URL: a filtered audit can be bookmarked and shared. */
export function auditSearch(search: Record<string, unknown>): OperatorAuditFilters {
  const page = Number(search.page);
  const filters: OperatorAuditFilters = {};
  for (const key of ['operator', 'action', 'from', 'to'] as const) {
    const value = text(search[key]);
    if (value) filters[key] = value;
  }
  if (Number.isInteger(page) && page > 1) filters.page = page;
  return filters;
}

// /operacion/bitacora/: what every operator did in the back office (decision 0050).
export const Route = createFileRoute('/operacion/bitacora')({
  validateSearch: auditSearch,
  loaderDeps: ({ search }) => search,
  // The first page is fetched with the route; a failed call shows the page's error state instead.
  loader: ({ context, deps }) => context.queryClient.prefetchQuery(operatorAuditQueryOptions(deps)),
  component: function AuditRoute() {
    const filters = Route.useSearch();
    const navigate = Route.useNavigate();
    const list = useQuery(operatorAuditQueryOptions(filters));
    return (
      <OperatorAuditPage
        filters={filters}
        list={list}
        onFilters={(next) => void navigate({ search: next, replace: false })}
      />
    );
  },
});
