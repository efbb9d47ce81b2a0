import { createFileRoute } from '@tanstack/react-router';
import {
  INBOX_KINDS,
  type InboxKind,
  type InboxPage as InboxPageBody,
} from '../../domain/schemas/operator-alliances';
import { inboxQueryOptions } from '../../services/operator-alliances.service';
import { InboxPage } from '../../views/operator/inbox/inbox-page';
import {
  type BackOfficeListDefinition,
  backOfficeListRoute,
  useBackOfficeList,
} from './-back-office-list-route';

interface InboxFilters {
  tipo?: InboxKind;
}

const INBOX_LIST: BackOfficeListDefinition<InboxFilters, InboxPageBody> = {
  filters: (raw) => {
    const tipo = INBOX_KINDS.find((kind) => kind === raw.tipo);
    return tipo ? { tipo } : {};
  },
  query: (filters, page) => inboxQueryOptions(filters.tipo ?? INBOX_KINDS[0], page),
};

// Issue 19: what providers and visitors sent (demo requests, referrals, factoring and alliance requests).
export const Route = createFileRoute('/operacion/bandeja')({
  ...backOfficeListRoute(INBOX_LIST),
  component: InboxRoute,
});

function InboxRoute() {
  const screen = useBackOfficeList(INBOX_LIST, Route.useSearch(), Route.useNavigate());
  return (
    <InboxPage
      kind={screen.filters.tipo ?? INBOX_KINDS[0]}
      page={screen.page}
      list={screen.remote}
      onChange={(next) =>
        next.kind === (screen.filters.tipo ?? INBOX_KINDS[0])
          ? screen.setPage(next.page)
          : screen.setFilters({ tipo: next.kind })
      }
    />
  );
}
