import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useSnapshot } from 'valtio';
import { DESK_REFUSAL, failureText } from '../../domain/call-failure';
import { DESK_STATES, type DeskState } from '../../domain/control-desk';
import { ApiError } from '../../services/http';
import { approveDeskItem, deskQueryOptions, rejectDeskItem } from '../../services/operator-desk.service';
import { userStore } from '../../stores/user.store';
import { DeskPage } from '../../views/operator/desk/desk-page';

// /operacion/mesa/ (decision 0054): the desk's queue with its checks; the state filter lives in the URL.
// The route passes data and callbacks in, so the view imports no service.

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
  const { operatorRoles } = useSnapshot(userStore);
  const navigate = useNavigate({ from: Route.fullPath });
  const query = useQuery(deskQueryOptions(state ?? null));
  const queryClient = useQueryClient();
  /** Runs a desk call; null when done (the desk reloads), else the server's Spanish refusal and its reasons. */
  const call = async (work: () => Promise<unknown>): Promise<string | null> => {
    try {
      await work();
      await queryClient.invalidateQueries({ queryKey: ['operator', 'desk'] });
      return null;
    } catch (error) {
      const failure = error instanceof ApiError ? error : null;
      const body = failure?.body as { errors?: string[] } | null | undefined;
      return [failureText(failure, DESK_REFUSAL), ...(body?.errors ?? [])].join(' ');
    }
  };
  return (
    <DeskPage
      state={state ?? null}
      onStateChange={(next) => navigate({ search: next ? { state: next } : {} })}
      page={query.data}
      status={query.status}
      onRetry={() => void query.refetch()}
      onApprove={(id) => call(() => approveDeskItem(id, crypto.randomUUID()))}
      onReject={(id, reason) => call(() => rejectDeskItem(id, reason))}
      canDecide={operatorRoles.includes('aprobador')}
    />
  );
}
