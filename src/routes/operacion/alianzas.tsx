import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import { useMemo, useState } from 'react';
import { fromPromise } from 'xstate';
import { ALLIANCE_STATES, type AllianceState } from '../../domain/alliance-terms';
import type { AllianceInput, OperatorAlliancePage } from '../../domain/schemas/operator-alliances';
import { allianceActionsMachine } from '../../machines/alliance-actions.machine';
import type { BackOfficeActInput } from '../../machines/back-office-action';
import {
  corporateOptionsQueryOptions,
  operatorAllianceKeys,
  operatorAllianceQueryOptions,
  operatorAlliancesQueryOptions,
  saveOperatorAlliance,
} from '../../services/operator-alliances.service';
import {
  type AllianceFilters,
  AlliancesPage,
  allianceSaved,
} from '../../views/operator/alliances/alliances-page';
import {
  type BackOfficeListDefinition,
  backOfficeListRoute,
  remoteData,
  useBackOfficeList,
} from './-back-office-list-route';

interface AlliancesSearch {
  estado?: AllianceState;
  corporativo?: number;
}

const ALLIANCES_LIST: BackOfficeListDefinition<AlliancesSearch, OperatorAlliancePage> = {
  filters: (raw) => {
    const estado = ALLIANCE_STATES.find((state) => state === raw.estado);
    const corporativo = Number(raw.corporativo);
    return {
      ...(estado ? { estado } : {}),
      ...(Number.isSafeInteger(corporativo) && corporativo > 0 ? { corporativo } : {}),
    };
  },
  query: (filters, page) =>
    operatorAlliancesQueryOptions({ status: filters.estado, corporate: filters.corporativo, page }),
};

// Issue 19: the alliances (corporate × supplier) and their prices; filters live in the URL.
export const Route = createFileRoute('/operacion/alianzas')({
  ...backOfficeListRoute(ALLIANCES_LIST),
  component: AlliancesRoute,
});

function AlliancesRoute() {
  const screen = useBackOfficeList(ALLIANCES_LIST, Route.useSearch(), Route.useNavigate());
  const queryClient = useQueryClient();
  const corporates = useQuery(corporateOptionsQueryOptions());
  // Presentation: which alliance's price history the side panel shows.
  const [historyId, setHistoryId] = useState<number | null>(null);
  const detail = useQuery({ ...operatorAllianceQueryOptions(historyId ?? 0), enabled: historyId !== null });
  const machine = useMemo(
    () =>
      allianceActionsMachine.provide({
        actors: {
          act: fromPromise<string | null, BackOfficeActInput>(async ({ input }) => {
            const saved = await saveOperatorAlliance(
              input.intent.input as AllianceInput,
              input.idempotencyKey,
            );
            return allianceSaved(saved);
          }),
        },
        actions: {
          refresh: () => void queryClient.invalidateQueries({ queryKey: operatorAllianceKeys.all }),
        },
      }),
    [queryClient],
  );
  const [snapshot, send] = useMachine(machine);
  const filters: AllianceFilters = {
    status: screen.filters.estado,
    corporate: screen.filters.corporativo,
    page: screen.page,
  };

  return (
    <AlliancesPage
      list={screen.remote}
      filters={filters}
      onFiltersChange={(next) =>
        next.status === filters.status && next.corporate === filters.corporate
          ? screen.setPage(next.page)
          : screen.setFilters({
              ...(next.status ? { estado: next.status } : {}),
              ...(next.corporate ? { corporativo: next.corporate } : {}),
            })
      }
      corporates={remoteData(corporates)}
      actions={{ snapshot, send }}
      history={{
        openId: historyId,
        detail: remoteData(detail),
        onOpen: setHistoryId,
        onClose: () => setHistoryId(null),
      }}
    />
  );
}
