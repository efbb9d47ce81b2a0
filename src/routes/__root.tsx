import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Navigate, Outlet, useRouterState } from '@tanstack/react-router';
import { useSnapshot } from 'valtio';
import { paths } from '../domain/paths';
import { userStore } from '../stores/user.store';
import { useRemovePrerenderedFrame } from '../views/common/prerendered-frame';
import { PublicLayout } from '../views/common/public-layout';
import { SessionContext } from '../views/common/session-context';
import type { MachineOverrides } from './-machines';

function RootLayout() {
  const { isAuthenticated } = useSnapshot(userStore);
  const session = SessionContext.useActorRef();
  const inDashboard = useRouterState({
    select: (state) => state.location.pathname.startsWith(paths.dashboard),
  });
  // A dashboard document whose visitor is sent elsewhere (signed out, say) drops its prerendered frame here;
  // a dashboard or back-office page drops it in its own shell (decision 0033).
  const inBackOffice = useRouterState({
    select: (state) => state.location.pathname.startsWith(paths.operatorHome),
  });
  useRemovePrerenderedFrame(!inDashboard && !inBackOffice);
  // The dashboard and the back office have their own shells; every other page uses the public layout.
  if (inDashboard || inBackOffice) return <Outlet />;
  return (
    <PublicLayout isAuthenticated={isAuthenticated} onLogout={() => session.send({ type: 'session.logout' })}>
      <Outlet />
    </PublicLayout>
  );
}

export const Route = createRootRouteWithContext<{ queryClient: QueryClient; machines: MachineOverrides }>()({
  component: RootLayout,
  // Spec §2: /inicio/ is the default fallback.
  notFoundComponent: () => <Navigate to={paths.home} replace />,
});
