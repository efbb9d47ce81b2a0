import { useQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { DESK_STATES, type DeskState } from '../../domain/control-desk';
import { deskQueryOptions } from '../../services/operator-desk.service';
import { DeskPage } from '../../views/operator/desk/desk-page';

// /operacion/mesa/ (decision 0054): the desk's queue with its checks; the state filter lives in the URL.
// NOTE: approving, rejecting and batching are API calls for now (POST /api/operator/desk/{id}/approve/ …).

interface DeskSearch {
  state?: DeskState;
}

export const Route = createFileRoute('/operacion/mesa')({
  validateSearch: (search: Record<string, unknown>): DeskSearch =>
    typeof search.state === 'string' && (DESK_STATES as readonly string[]).includes(search.state)
      ? { state: search.state as DeskState }
      : {},
  component: DeskRoute,
});

function DeskRoute() {
  const { state } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const query = useQuery(deskQueryOptions(state ?? null));
  return (
    <DeskPage
      state={state ?? null}
      onStateChange={(next) => navigate({ search: next ? { state: next } : {} })}
      page={query.data}
      status={query.status}
      onRetry={() => void query.refetch()}
    />
  );
}
