import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import type { CorporatePage } from '../../domain/schemas/operator-corporates';
import { corporatesQueryOptions } from '../../services/operator-corporates.service';
import { CorporatesList } from '../../views/operator/corporates/corporates-list';
import {
  type BackOfficeListDefinition,
  backOfficeListRoute,
  useBackOfficeList,
} from './-back-office-list-route';
import { wireCorporateActions } from './-corporate-actions';

interface CorporatesFilters {
  search?: string;
}

const CORPORATES_LIST: BackOfficeListDefinition<CorporatesFilters, CorporatePage> = {
  filters: (raw) => {
    const search = typeof raw.search === 'string' ? raw.search.trim() : '';
    return search !== '' ? { search } : {};
  },
  query: (filters, page) => corporatesQueryOptions({ ...filters, ...(page > 1 ? { page } : {}) }),
};

// /operacion/corporativos/: the search and the page live in the URL.
export const Route = createFileRoute('/operacion/corporativos')({
  ...backOfficeListRoute(CORPORATES_LIST),
  component: CorporatesRoute,
});

function CorporatesRoute() {
  const screen = useBackOfficeList(CORPORATES_LIST, Route.useSearch(), Route.useNavigate());
  const navigate = Route.useNavigate();
  const queryClient = useQueryClient();
  const openCorporate = (id: number) =>
    void navigate({ to: '/operacion/corporativos/$corporateId/', params: { corporateId: String(id) } });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the machine is made once; navigate is stable
  const machine = useMemo(() => wireCorporateActions(queryClient, null, openCorporate), [queryClient]);
  const [snapshot, send] = useMachine(machine);
  return (
    <CorporatesList
      list={screen.remote}
      search={screen.filters.search ?? ''}
      page={screen.page}
      onSearch={(text) => screen.setFilters(text ? { search: text } : {})}
      onPage={screen.setPage}
      openCorporate={openCorporate}
      snapshot={snapshot}
      send={send}
    />
  );
}
