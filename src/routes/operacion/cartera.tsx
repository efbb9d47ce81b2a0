import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { useSnapshot } from 'valtio';
import { fromPromise } from 'xstate';
import type { AgingReport, CollectionLogBody } from '../../domain/schemas/delinquency';
import type { BackOfficeActInput } from '../../machines/back-office-action';
import { portfolioActionsMachine } from '../../machines/portfolio-actions.machine';
import {
  addCollectionLogEntry,
  agingQueryOptions,
  collectionLogQueryOptions,
  type PortfolioFilters,
  portfolioBuyersQueryOptions,
} from '../../services/operator-portfolio.service';
import { userStore } from '../../stores/user.store';
import { PORTFOLIO_TEXTS, PortfolioPage } from '../../views/operator/portfolio/portfolio-page';
import {
  type BackOfficeListDefinition,
  backOfficeListRoute,
  remoteData,
  STARTED_BY_LOADER,
} from './-back-office-list-route';

const PORTFOLIO_LIST: BackOfficeListDefinition<PortfolioFilters, AgingReport> = {
  filters: (raw) => {
    const id = Number(raw.corporativo);
    return Number.isSafeInteger(id) && id > 0 ? { corporativo: id } : {};
  },
  query: (filters, page) => agingQueryOptions(filters, page),
};

/** The form's call: a collection log entry for the chosen buyer, under the intent's key (a retry is a replay). */
async function act({ intent, idempotencyKey }: BackOfficeActInput): Promise<string | null> {
  await addCollectionLogEntry(intent.id ?? 0, intent.input as CollectionLogBody, idempotencyKey);
  return PORTFOLIO_TEXTS.recorded;
}

function wiredPortfolioActions(queryClient: QueryClient) {
  return portfolioActionsMachine.provide({
    actors: { act: fromPromise<string | null, BackOfficeActInput>(({ input }) => act(input)) },
    actions: { refresh: () => void queryClient.invalidateQueries({ queryKey: ['operator', 'portfolio'] }) },
  });
}

// /operacion/cartera/ (issue 34, decision 0068): the aging of every buyer, one buyer's invoices and collection
// log (?corporativo=<id> in the URL, so a buyer's page can be shared and is the freeze e-mail's link).
export const Route = createFileRoute('/operacion/cartera')({
  ...backOfficeListRoute(PORTFOLIO_LIST),
  component: function PortfolioRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    const corporateId = search.corporativo ?? null;
    const queryClient = useQueryClient();
    const all = useQuery({ ...portfolioBuyersQueryOptions });
    const buyer = useQuery({
      ...agingQueryOptions({ corporativo: corporateId ?? 0 }, search.page ?? 1),
      ...STARTED_BY_LOADER,
      enabled: corporateId !== null,
    });
    const log = useQuery({ ...collectionLogQueryOptions(corporateId ?? 0), enabled: corporateId !== null });
    const machine = useMemo(() => wiredPortfolioActions(queryClient), [queryClient]);
    const [snapshot, send] = useMachine(machine);
    const { operatorRoles: roles } = useSnapshot(userStore);
    return (
      <PortfolioPage
        report={remoteData(all)}
        buyerReport={corporateId === null ? null : remoteData(buyer)}
        corporateId={corporateId}
        onCorporate={(id) => void navigate({ search: id === null ? {} : { corporativo: id } })}
        log={corporateId === null ? null : remoteData(log)}
        roles={roles}
        actions={{ snapshot, send }}
      />
    );
  },
});
