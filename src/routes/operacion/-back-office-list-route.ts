import { type QueryClient, type UseQueryOptions, type UseQueryResult, useQuery } from '@tanstack/react-query';
import type { RemoteData } from '../../views/operator/list/back-office-list';

// What every back-office list route is (decision 0064): its filters and `page` in the URL, the page's query
// started by the route's loader, and one RemoteData for the view. A list route declares its filters and its
// query, spreads `backOfficeListRoute(...)` into its options and calls `useBackOfficeList` in its component.
// (The '-' prefix keeps this file out of the route tree.)

/** Any list's query options (what the services' `queryOptions(...)` return). */
// biome-ignore lint/suspicious/noExplicitAny: each service's query key is its own tuple; the list only passes it on
export type ListQueryOptions<Page> = UseQueryOptions<Page, Error, Page, any>;

/** The URL's search of a list: its own filters and the page (absent for page 1). */
export type ListSearch<Filters> = Filters & { page?: number };

export interface BackOfficeListDefinition<Filters extends object, Page> {
  /** The list's filters read from the URL: anything unknown is dropped, never an error page. */
  filters(raw: Record<string, unknown>): Filters;
  query(filters: Filters, page: number): ListQueryOptions<Page>;
}

/** The page parameter every back-office list uses (`?page=2`), as the server's lists do; 1 when absent or bad. */
export function pageOf(raw: Record<string, unknown>): number {
  const page = Number(raw.page);
  return Number.isSafeInteger(page) && page > 1 ? page : 1;
}

function validate<Filters extends object, Page>(definition: BackOfficeListDefinition<Filters, Page>) {
  return (raw: Record<string, unknown>): ListSearch<Filters> => {
    const page = pageOf(raw);
    return { ...definition.filters(raw), ...(page > 1 ? { page } : {}) };
  };
}

/**
 * Route options of a back-office list: the URL validated into filters and page, and a loader that starts the
 * page's query (a cached page shows on the first render). A failed first page is the list's error state with
 * 'Reintentar', not the router's error page.
 */
export function backOfficeListRoute<Filters extends object, Page>(
  definition: BackOfficeListDefinition<Filters, Page>,
) {
  return {
    validateSearch: validate(definition),
    loaderDeps: ({ search }: { search: ListSearch<Filters> }) => search,
    // Not awaited: the page's query is started here and the screen mounts at once, showing its own spinner; its
    // useQuery joins this request, so a failing first page is asked for (1 + retries) times, not again on mount.
    loader: ({ context, deps }: { context: { queryClient: QueryClient }; deps: ListSearch<Filters> }) => {
      void context.queryClient.prefetchQuery(definition.query(deps, deps.page ?? 1));
    },
  };
}

/**
 * The options of a component's query that its route's loader already started. React-query refetches, on mount,
 * any data older than its staleTime (0 by default): the loader's answer, there before the route's code had
 * mounted, was asked for again, so each visit called the server twice and the bitácora listed it twice. The
 * loader asks once per visit (and again on every navigation to the route); the component reads that answer,
 * an action's invalidation still refetches it, and a query with no data yet is still fetched on mount.
 */
export const STARTED_BY_LOADER = { refetchOnMount: false } as const;

/** A query's result as the views read it. */
export function remoteData<T>(query: UseQueryResult<T>): RemoteData<T> {
  return { status: query.status, data: query.data, retry: () => void query.refetch() };
}

export interface BackOfficeListScreen<Filters, Page> {
  filters: Filters;
  page: number;
  remote: RemoteData<Page>;
  /** New filters start again at page 1. */
  setFilters(next: Filters): void;
  setPage(page: number): void;
}

/** The component's half: the page's query and the URL's filters and page, moved through the router. */
export function useBackOfficeList<Filters extends object, Page>(
  definition: BackOfficeListDefinition<Filters, Page>,
  search: ListSearch<Filters>,
  navigate: (options: { search: ListSearch<Filters> }) => unknown,
): BackOfficeListScreen<Filters, Page> {
  const { page = 1, ...rest } = search;
  const filters = rest as unknown as Filters;
  const query = useQuery({ ...definition.query(filters, page), ...STARTED_BY_LOADER });
  return {
    filters,
    page,
    remote: remoteData(query),
    setFilters: (next) => void navigate({ search: next }),
    setPage: (next) => void navigate({ search: { ...filters, ...(next > 1 ? { page: next } : {}) } }),
  };
}
