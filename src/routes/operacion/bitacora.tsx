import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import {
  AUDIT_FILTER_KEYS,
  type AuditFilters,
  type OperatorActionPage,
} from '../../domain/schemas/operator-audit';
import { fieldMessagesOf } from '../../machines/back-office-action';
import { operatorAuditQueryOptions } from '../../services/operator-audit.service';
import { OperatorAuditPage } from '../../views/operator/audit/operator-audit-page';
import {
  type BackOfficeListDefinition,
  backOfficeListRoute,
  STARTED_BY_LOADER,
  useBackOfficeList,
} from './-back-office-list-route';

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

const AUDIT_LIST: BackOfficeListDefinition<AuditFilters, OperatorActionPage> = {
  filters: (raw) => {
    const filters: AuditFilters = {};
    for (const key of AUDIT_FILTER_KEYS) {
      const value = text(raw[key]);
      if (value) filters[key] = value;
    }
    return filters;
  },
  query: (filters, page) => operatorAuditQueryOptions({ ...filters, ...(page > 1 ? { page } : {}) }),
};

// /operacion/bitacora/: what every operator did in the back office (decision 0050). The filters live in the URL:
// a filtered audit can be bookmarked and shared.
export const Route = createFileRoute('/operacion/bitacora')({
  ...backOfficeListRoute(AUDIT_LIST),
  component: function AuditRoute() {
    const screen = useBackOfficeList(AUDIT_LIST, Route.useSearch(), Route.useNavigate());
    // The same query (react-query shares it): a 400 names the filters the server refused.
    const query = useQuery({ ...AUDIT_LIST.query(screen.filters, screen.page), ...STARTED_BY_LOADER });
    return (
      <OperatorAuditPage
        filters={screen.filters}
        page={screen.page}
        list={screen.remote}
        refusedFilters={fieldMessagesOf(query.error)}
        onFilters={screen.setFilters}
        onPage={screen.setPage}
      />
    );
  },
});
