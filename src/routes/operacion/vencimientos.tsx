import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { businessDateAt, isIsoDate } from '../../domain/calendar-date';
import {
  MATURITY_FILTER_KEYS,
  type MaturitiesReport,
  type MaturityFilters,
  maturityRange,
} from '../../domain/schemas/maturities';
import { fieldMessagesOf } from '../../machines/back-office-action';
import { operatorMaturitiesQueryOptions } from '../../services/operator-maturities.service';
import { OperatorMaturitiesPage } from '../../views/operator/maturities/operator-maturities-page';
import {
  type BackOfficeListDefinition,
  backOfficeListRoute,
  STARTED_BY_LOADER,
  useBackOfficeList,
} from './-back-office-list-route';

const MATURITIES_LIST: BackOfficeListDefinition<MaturityFilters, MaturitiesReport> = {
  filters: (raw) => {
    const filters: MaturityFilters = {};
    for (const key of MATURITY_FILTER_KEYS) {
      const value = typeof raw[key] === 'string' ? raw[key].trim() : '';
      if (isIsoDate(value)) filters[key] = value;
    }
    return filters;
  },
  // The range without days in the URL is today to today + 30, Mexico City's calendar.
  query: (filters) => operatorMaturitiesQueryOptions(maturityRange(filters, businessDateAt(new Date()))),
};

// /operacion/vencimientos/: what falls due when, per business day and buyer (decision 0066). The range lives in the
// URL: a week's maturities can be bookmarked and shared.
export const Route = createFileRoute('/operacion/vencimientos')({
  ...backOfficeListRoute(MATURITIES_LIST),
  component: function MaturitiesRoute() {
    const screen = useBackOfficeList(MATURITIES_LIST, Route.useSearch(), Route.useNavigate());
    // The same query (react-query shares it): a 400 names the days the server refused.
    const query = useQuery({ ...MATURITIES_LIST.query(screen.filters, 1), ...STARTED_BY_LOADER });
    return (
      <OperatorMaturitiesPage
        range={maturityRange(screen.filters, businessDateAt(new Date()))}
        report={screen.remote}
        refusedFilters={fieldMessagesOf(query.error)}
        onRange={screen.setFilters}
      />
    );
  },
});
