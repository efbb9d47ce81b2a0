import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import { useSnapshot } from 'valtio';
import { paths } from '../domain/paths';
import { isSatLinkAuthorized } from '../domain/sat-status';
import { headerSummaryQueryOptions } from '../services/invoice-queries';
import { userStore } from '../stores/user.store';
import { useMountedInTransition } from '../views/common/use-mounted-in-transition';
import { DashboardShell } from '../views/dashboard/dashboard-shell';

function Dashboard() {
  const { role, satCredentials } = useSnapshot(userStore);
  // Spec §2: the header cards exist only for a provider with authorized SAT credentials.
  const summary = useQuery(
    headerSummaryQueryOptions(role, role === 'provider' && isSatLinkAuthorized(satCredentials)),
  );
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
