import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { ALLIANCE_STATES, type AllianceState } from '../../domain/alliance-terms';
import type { AllianceInput } from '../../domain/schemas/operator-alliances';
import {
  corporateOptionsQueryOptions,
  operatorAllianceKeys,
  operatorAllianceQueryOptions,
  operatorAlliancesQueryOptions,
  saveOperatorAlliance,
} from '../../services/operator-alliances.service';
import { AlliancesPage } from '../../views/operator/alliances/alliances-page';
import { saveOutcomeOf } from './-save-outcome';

interface AlliancesSearch {
  estado?: AllianceState;
  corporativo?: number;
  pagina?: number;
}

// Issue 19: the alliances (corporate × supplier) and their prices; filters live in the URL.
export const Route = createFileRoute('/operacion/alianzas')({
  validateSearch: (raw: Record<string, unknown>): AlliancesSearch => {
    const estado = ALLIANCE_STATES.find((state) => state === raw.estado);
    const pagina = Number(raw.pagina);
    const corporativo = Number(raw.corporativo);
    return {
      ...(estado ? { estado } : {}),
      ...(Number.isSafeInteger(corporativo) && corporativo > 0 ? { corporativo } : {}),
      ...(Number.isSafeInteger(pagina) && pagina > 1 ? { pagina } : {}),
    };
  },
  loaderDeps: ({ search }) => search,
  // A failed first page is the screen's error state (with 'Reintentar'), not the router's error page.
  loader: ({ context, deps }) =>
    context.queryClient.prefetchQuery(
      operatorAlliancesQueryOptions({
        status: deps.estado,
        corporate: deps.corporativo,
        page: deps.pagina ?? 1,
      }),
    ),
  component: AlliancesRoute,
});

const loadState = (query: { isPending: boolean; isError: boolean }) =>
  query.isPending ? 'loading' : query.isError ? 'error' : 'ready';

function AlliancesRoute() {
  const { estado, corporativo, pagina } = Route.useSearch();
  const navigate = Route.useNavigate();
  const queryClient = useQueryClient();
  const filters = { status: estado, corporate: corporativo, page: pagina ?? 1 };
  const list = useQuery(operatorAlliancesQueryOptions(filters));
  const corporates = useQuery(corporateOptionsQueryOptions());
  const [historyId, setHistoryId] = useState<number | null>(null);
  const detail = useQuery({ ...operatorAllianceQueryOptions(historyId ?? 0), enabled: historyId !== null });

  const onSave = async (input: AllianceInput) => {
    try {
      await saveOperatorAlliance(input);
      await queryClient.invalidateQueries({ queryKey: operatorAllianceKeys.all });
      return { ok: true } as const;
    } catch (error) {
      return saveOutcomeOf(error);
    }
  };

  return (
    <AlliancesPage
      list={{ state: loadState(list), page: list.data, onRetry: () => void list.refetch() }}
      filters={filters}
      onFiltersChange={(next) =>
        void navigate({
          search: {
            ...(next.status ? { estado: next.status } : {}),
            ...(next.corporate ? { corporativo: next.corporate } : {}),
            ...(next.page > 1 ? { pagina: next.page } : {}),
          },
        })
      }
      corporates={{ state: loadState(corporates), options: corporates.data ?? [] }}
      onSave={onSave}
      history={{
        openId: historyId,
        state: loadState(detail),
        detail: detail.data,
        onOpen: setHistoryId,
        onClose: () => setHistoryId(null),
        onRetry: () => void detail.refetch(),
      }}
    />
  );
}
