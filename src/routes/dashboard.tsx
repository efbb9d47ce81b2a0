import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import { userStore } from '../stores/user.store';
import { DashboardShell } from '../views/dashboard/dashboard-shell';

// Spec §2: /dashboard/* needs a user; without one, /inicio/.
export const Route = createFileRoute('/dashboard')({
  beforeLoad: () => {
    if (!userStore.isAuthenticated) throw redirect({ to: '/inicio/', replace: true });
  },
  component: () => (
    <DashboardShell>
      <Outlet />
    </DashboardShell>
  ),
});
