import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import {
  corporateKeys,
  corporatesQueryOptions,
  createCorporate,
} from '../../services/operator-corporates.service';
import { CorporatesList } from '../../views/operator/corporates/corporates-list';
import { actionResult } from './-corporate-actions';

interface CorporatesSearch {
  search?: string;
  page?: number;
}

// /operacion/corporativos/: the search and the page live in the URL.
export const Route = createFileRoute('/operacion/corporativos')({
  validateSearch: (raw: Record<string, unknown>): CorporatesSearch => {
    const search = typeof raw.search === 'string' && raw.search.trim() !== '' ? raw.search.trim() : undefined;
    const page = Number(raw.page);
    return {
      ...(search ? { search } : {}),
      ...(Number.isInteger(page) && page > 1 ? { page } : {}),
    };
  },
  component: CorporatesRoute,
});

function CorporatesRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const queryClient = useQueryClient();
  const list = useQuery(corporatesQueryOptions(search));
  return (
    <CorporatesList
      page={list.data}
      isPending={list.isPending}
      isError={list.isError}
      search={search.search ?? ''}
      pageNumber={search.page ?? 1}
      onSearch={(text) => navigate({ search: text ? { search: text } : {} })}
      onPage={(page) => navigate({ search: (prev) => ({ ...prev, page }) })}
      onRetry={() => list.refetch()}
      openCorporate={(id) =>
        navigate({ to: '/operacion/corporativos/$corporateId/', params: { corporateId: String(id) } })
      }
      createCorporate={async (values) => {
        const result = await actionResult(() => createCorporate(values));
        if (result.ok) await queryClient.invalidateQueries({ queryKey: corporateKeys.all });
        return result.ok ? { ok: true, id: result.value?.id } : result;
      }}
    />
  );
}
