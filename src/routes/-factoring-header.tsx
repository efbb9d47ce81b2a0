import { type QueryClient, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useSnapshot } from 'valtio';
import type { Role } from '../domain/schemas/session-user';
import { factoringSummaryQueryOptions } from '../services/invoice-queries';
import { setUser, userStore } from '../stores/user.store';
import { FactoringBalanceCard, FactoringEnrolCard } from '../views/factoring/factoring-header-cards';
import { wireFactoringEnrolmentCard } from './-factoring-machines';

/**
 * Spec §2 on the factoring and statement pages: the balance card with a line, the blue enrolment card without.
 * The line's figures and has_factoring come fresh from the factoring list's first page (a login's flag goes stale
 * when the operator enables the line meanwhile). Loaded only on those pages (dashboard.tsx).
 */
export function FactoringHeaderCard({ queryClient, role }: { queryClient: QueryClient; role: Role }) {
  const { hasFactoring } = useSnapshot(userStore);
  const factoring = useQuery(factoringSummaryQueryOptions(role, true));
  const fresh = factoring.data?.has_factoring;
  useEffect(() => {
    if (fresh !== undefined) setUser({ hasFactoring: fresh });
  }, [fresh]);
  const enrolment = useMemo(() => wireFactoringEnrolmentCard(queryClient), [queryClient]);
  return hasFactoring ? (
    <FactoringBalanceCard
      balance={{
        indicators: factoring.data?.indicators,
        isPending: factoring.isPending,
        isError: factoring.isError,
      }}
    />
  ) : (
    <FactoringEnrolCard machine={enrolment} />
  );
}
