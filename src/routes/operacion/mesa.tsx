import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { useSnapshot } from 'valtio';
import { fromPromise } from 'xstate';
import { DESK_STATES, type DeskState } from '../../domain/control-desk';
import { type DeskPage as DeskPageBody, DeskRejectBody } from '../../domain/schemas/control-desk';
import type { BackOfficeActInput } from '../../machines/back-office-action';
import { deskActionsMachine } from '../../machines/desk-actions.machine';
import { approveDeskItem, deskQueryOptions, rejectDeskItem } from '../../services/operator-desk.service';
import { userStore } from '../../stores/user.store';
import { DeskPage, deskDecided } from '../../views/operator/desk/desk-page';
import {
  type BackOfficeListDefinition,
  backOfficeListRoute,
  useBackOfficeList,
} from './-back-office-list-route';

// /operacion/mesa/ (decision 0054): the desk's queue with its checks; the state filter (`state`) and the page
// (`page`) live in the URL. The route runs the desk-actions machine with the real calls; the view imports no service.

interface DeskFilters {
  state?: DeskState;
}

const DESK_LIST: BackOfficeListDefinition<DeskFilters, DeskPageBody> = {
  filters: (raw) => {
    const state = DESK_STATES.find((candidate) => candidate === raw.state);
    return state ? { state } : {};
  },
  query: (filters, page) => deskQueryOptions(filters.state ?? null, page),
};

export const Route = createFileRoute('/operacion/mesa')({
  ...backOfficeListRoute(DESK_LIST),
  component: DeskRoute,
});

function DeskRoute() {
  const screen = useBackOfficeList(DESK_LIST, Route.useSearch(), Route.useNavigate());
  const { operatorRoles } = useSnapshot(userStore);
  const queryClient = useQueryClient();
  const machine = useMemo(
    () =>
      deskActionsMachine.provide({
        actors: {
          act: fromPromise<string | null, BackOfficeActInput>(
            async ({ input: { intent, idempotencyKey } }) => {
              if (intent.id === null) throw new Error(`desk action without an advance: ${intent.action}`);
              if (intent.action === 'approve')
                return deskDecided('approve', await approveDeskItem(intent.id, idempotencyKey));
              return deskDecided(
                'reject',
                await rejectDeskItem(intent.id, DeskRejectBody.create(intent.input).reason),
              );
            },
          ),
        },
        actions: {
          refresh: () => void queryClient.invalidateQueries({ queryKey: ['operator', 'desk'] }),
        },
      }),
    [queryClient],
  );
  const [snapshot, send] = useMachine(machine);
  return (
    <DeskPage
      state={screen.filters.state ?? null}
      onStateChange={(next) => screen.setFilters(next ? { state: next } : {})}
      list={screen.remote}
      page={screen.page}
      onPage={screen.setPage}
      actions={snapshot}
      send={send}
      canDecide={operatorRoles.includes('aprobador')}
    />
  );
}
