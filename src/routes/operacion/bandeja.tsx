import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { INBOX_KINDS, type InboxKind } from '../../domain/schemas/operator-alliances';
import { inboxQueryOptions } from '../../services/operator-alliances.service';
import { InboxPage } from '../../views/operator/inbox/inbox-page';

interface InboxSearch {
  tipo?: InboxKind;
  pagina?: number;
}

// Issue 19: what providers and visitors sent (demo requests, referrals, factoring and alliance requests).
export const Route = createFileRoute('/operacion/bandeja')({
  validateSearch: (raw: Record<string, unknown>): InboxSearch => {
    const tipo = INBOX_KINDS.find((kind) => kind === raw.tipo);
    const pagina = Number(raw.pagina);
    return {
      ...(tipo ? { tipo } : {}),
      ...(Number.isSafeInteger(pagina) && pagina > 1 ? { pagina } : {}),
    };
  },
  loaderDeps: ({ search }) => search,
  // A failed first page is the screen's error state (with 'Reintentar'), not the router's error page.
  loader: ({ context, deps }) =>
    context.queryClient.prefetchQuery(inboxQueryOptions(deps.tipo ?? INBOX_KINDS[0], deps.pagina ?? 1)),
  component: InboxRoute,
});

function InboxRoute() {
  const { tipo, pagina } = Route.useSearch();
  const navigate = Route.useNavigate();
  const kind = tipo ?? INBOX_KINDS[0];
  const page = pagina ?? 1;
  const list = useQuery(inboxQueryOptions(kind, page));
  return (
    <InboxPage
      kind={kind}
      page={page}
      onChange={(next) =>
        void navigate({ search: { tipo: next.kind, ...(next.page > 1 ? { pagina: next.page } : {}) } })
      }
      list={{
        state: list.isPending ? 'loading' : list.isError ? 'error' : 'ready',
        data: list.data,
        onRetry: () => void list.refetch(),
      }}
    />
  );
}
