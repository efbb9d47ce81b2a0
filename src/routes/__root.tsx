import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Navigate, Outlet } from '@tanstack/react-router';
import { PublicLayout } from '../views/common/public-layout';

export const Route = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: () => (
    <PublicLayout>
      <Outlet />
    </PublicLayout>
  ),
  // Spec §2: /inicio/ is the default fallback.
  notFoundComponent: () => <Navigate to="/inicio/" replace />,
});
