import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Outlet, redirect, useLocation } from '@tanstack/react-router';
import { type ComponentType, useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { paths } from '../domain/paths';
import { isSatLinkAuthorized } from '../domain/sat-status';
import { headerSummaryQueryOptions } from '../services/invoice-queries';
import { isOperatorSession, userStore } from '../stores/user.store';
import { useMountedInTransition } from '../views/common/use-mounted-in-transition';
import { DashboardShell } from '../views/dashboard/dashboard-shell';
import { HeaderCardPlaceholder, isFactoringPage } from '../views/dashboard/header-cards';
import type { FactoringHeaderCard as FactoringHeaderCardType } from './-factoring-header';

type FactoringHeaderCardProps = Parameters<typeof FactoringHeaderCardType>[0];
let loadedFactoringCard: ComponentType<FactoringHeaderCardProps> | null = null;

/**
 * The factoring header card, whose machine and calls load only on the pages that show it: on every other
 * dashboard page they would be script to evaluate before the first list (decision 0033). A placeholder of the
 * card's size holds its place meanwhile (and in the prerendered frame, which runs no effects).
 */
function DeferredFactoringCard(props: FactoringHeaderCardProps) {
  const [Card, setCard] = useState(() => loadedFactoringCard);
  useEffect(() => {
    if (Card) return;
    let live = true;
    void import('./-factoring-header').then((module) => {
      loadedFactoringCard = module.FactoringHeaderCard;
      if (live) setCard(() => module.FactoringHeaderCard);
    });
    return () => {
      live = false;
    };
  }, [Card]);
  return Card ? <Card {...props} /> : <HeaderCardPlaceholder />;
}

function Dashboard() {
  const { role, satCredentials } = useSnapshot(userStore);
  // Spec §2: the header cards exist only for a provider with authorized SAT credentials.
  const cards = role === 'provider' && isSatLinkAuthorized(satCredentials);
  const summary = useQuery(headerSummaryQueryOptions(role, cards));
  const { queryClient } = Route.useRouteContext();
  const factoringPage = isFactoringPage(useLocation().pathname);
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
      factoringCard={
        cards && factoringPage ? <DeferredFactoringCard queryClient={queryClient} role={role} /> : null
      }
    >
      <Outlet />
    </DashboardShell>
  );
}

// Spec §2: /dashboard/* needs a user; without one, /inicio/.
export const Route = createFileRoute('/dashboard')({
  beforeLoad: () => {
    if (!userStore.isAuthenticated) throw redirect({ to: paths.home, replace: true });
    // An operator has no company dashboard: their place is the back office (decision 0050).
    if (isOperatorSession()) throw redirect({ to: paths.operatorHome, replace: true });
  },
  component: Dashboard,
});
