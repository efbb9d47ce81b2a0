import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Outlet, redirect, useLocation } from '@tanstack/react-router';
import { useEffect, useMemo } from 'react';
import { useSnapshot } from 'valtio';
import { paths } from '../domain/paths';
import { isSatLinkAuthorized } from '../domain/sat-status';
import { factoringSummaryQueryOptions, headerSummaryQueryOptions } from '../services/invoice-queries';
import { setUser, userStore } from '../stores/user.store';
import { useMountedInTransition } from '../views/common/use-mounted-in-transition';
import { DashboardShell } from '../views/dashboard/dashboard-shell';
import { isFactoringPage } from '../views/dashboard/header-cards';
import { wireFactoringEnrolmentCard } from './-factoring-machines';

function Dashboard() {
  const { role, satCredentials } = useSnapshot(userStore);
  // Spec §2: the header cards exist only for a provider with authorized SAT credentials.
  const cards = role === 'provider' && isSatLinkAuthorized(satCredentials);
  const summary = useQuery(headerSummaryQueryOptions(role, cards));
  // The factoring and statement pages: the line's figures and has_factoring, fresh from the factoring list's
  // first page (a login's flag goes stale when ops enable the line meanwhile).
  const { queryClient } = Route.useRouteContext();
  const factoringPage = isFactoringPage(useLocation().pathname);
  const factoring = useQuery(factoringSummaryQueryOptions(role, cards && factoringPage));
  const hasFactoring = factoring.data?.has_factoring;
  useEffect(() => {
    if (hasFactoring !== undefined) setUser({ hasFactoring });
  }, [hasFactoring]);
  const enrolment = useMemo(() => wireFactoringEnrolmentCard(queryClient), [queryClient]);
  // The shell and its page are the largest tree the app mounts; rendered in a transition, the frame the
  // document painted (or the previous screen) stays while it renders in slices (decision 0033).
  const mounted = useMountedInTransition();
  if (!mounted) return null;
  return (
    <DashboardShell
      summary={{
        indicators: summary.data?.indicators,
        isPending: summary.isPending,
        isError: summary.isError,
      }}
      factoring={{
        balance: {
          indicators: factoring.data?.indicators,
          isPending: factoring.isPending,
          isError: factoring.isError,
        },
        enrolment,
      }}
    >
      <Outlet />
    </DashboardShell>
  );
}

// Spec §2: /dashboard/* needs a user; without one, /inicio/.
export const Route = createFileRoute('/dashboard')({
  beforeLoad: () => {
    if (!userStore.isAuthenticated) throw redirect({ to: paths.home, replace: true });
  },
  component: Dashboard,
});
